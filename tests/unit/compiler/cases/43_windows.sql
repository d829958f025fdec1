-- OVER windows: ranking and aggregate functions over partitions, ROWS and RANGE
-- frames, the WINDOW clause (Calcite writes ORDER BY before PARTITION BY), top-k
-- by ROW_NUMBER, Calcite's hopping window as a sliding window over hourly totals.
CREATE STREAM Orders (productId INT NOT NULL, orderId INT NOT NULL, units INT NOT NULL);
CREATE TABLE t (id INT, g VARCHAR, x INT, ts TIMESTAMP);
CREATE VIEW HourlyTotals AS SELECT FLOOR(rowtime TO HOUR) AS rowtime, productId, COUNT(*) AS c, SUM(units) AS su
FROM Orders GROUP BY FLOOR(rowtime TO HOUR), productId;
CREATE VIEW hopping AS SELECT STREAM rowtime, productId, SUM(su) OVER w AS su, SUM(c) OVER w AS c
FROM HourlyTotals WINDOW w AS (ORDER BY rowtime PARTITION BY productId RANGE INTERVAL '2' HOUR PRECEDING);
CREATE VIEW sliding AS SELECT STREAM rowtime, productId, units,
  SUM(units) OVER (PARTITION BY productId ORDER BY rowtime RANGE INTERVAL '1' HOUR PRECEDING) AS unitsLastHour
FROM Orders;
CREATE VIEW ranked AS SELECT id, g, x, ROW_NUMBER() OVER (PARTITION BY g ORDER BY x DESC) AS rn,
  RANK() OVER (PARTITION BY g ORDER BY x) AS rk, DENSE_RANK() OVER (ORDER BY x) AS dr,
  SUM(x) OVER (PARTITION BY g ORDER BY id ROWS 1 PRECEDING) AS s2, COUNT(*) OVER (PARTITION BY g) AS n,
  AVG(x) OVER w2 AS a FROM t WINDOW w2 AS (PARTITION BY g);
CREATE VIEW topk AS SELECT id, g, x FROM (SELECT id, g, x, ROW_NUMBER() OVER (PARTITION BY g ORDER BY x DESC, id) AS rn FROM t) WHERE rn <= 2;
CREATE VIEW bad1 AS SELECT ROW_NUMBER() OVER (PARTITION BY g) FROM t;
CREATE VIEW bad2 AS SELECT SUM(x) OVER nope FROM t;
CREATE VIEW bad3 AS SELECT STREAM SUM(units) OVER (PARTITION BY productId ORDER BY units) FROM Orders;
CREATE VIEW bad4 AS SELECT SUM(x) OVER (ORDER BY ts RANGE 5 PRECEDING) FROM t;
CREATE VIEW bad5 AS SELECT id FROM t WHERE ROW_NUMBER() OVER (ORDER BY id) = 1;
-- Without ORDER BY, a window over a FROM with a rowtime column is ordered by rowtime
-- (SQLstream): Calcite's cascading window, and SQLstream's weighted average.
CREATE VIEW cascading AS SELECT STREAM rowtime, productId, units,
  SUM(units) OVER (PARTITION BY FLOOR(rowtime TO HOUR)) AS unitsSinceTopOfHour
FROM Orders;
CREATE VIEW weighted AS SELECT STREAM productId,
  AVG(units * orderId) OVER (RANGE INTERVAL ' 1' HOUR PRECEDING)
  / SUM(units) OVER (RANGE INTERVAL ' 1' HOUR PRECEDING) AS weighted_avg
FROM Orders;
