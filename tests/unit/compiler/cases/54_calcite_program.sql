-- spec/calcite-streaming.md as a program: its queries written as statements, each the
-- view query_1, query_2, ... in program order (Calcite's error examples: 55_*).
-- Orders and Shipments are streams (with an implicit rowtime), Products a table.
CREATE STREAM Orders (productId INTEGER, orderId INTEGER, units INTEGER);
CREATE TABLE Products (productId INTEGER, name VARCHAR);
CREATE STREAM Shipments (orderId INTEGER);

SELECT STREAM *
FROM Orders;

-- Without STREAM: the relation of the orders so far (Weir keeps a stream's history).
SELECT *
FROM Orders;
SELECT * FROM Shipments;

SELECT STREAM *
FROM Orders
WHERE units > 3;

SELECT STREAM rowtime,
  'An order for ' || units || ' '
    || CASE units WHEN 1 THEN 'unit' ELSE 'units' END
    || ' of product #' || productId AS description
FROM Orders;

SELECT STREAM FLOOR(rowtime TO HOUR) AS rowtime,
  productId,
  COUNT(*) AS c,
  SUM(units) AS units
FROM Orders
GROUP BY FLOOR(rowtime TO HOUR), productId;

SELECT STREAM FLOOR(rowtime TO HOUR) AS rowtime,
  productId
FROM Orders
GROUP BY FLOOR(rowtime TO HOUR), productId
HAVING COUNT(*) > 2 OR SUM(units) > 10;

SELECT STREAM rowtime, productId
FROM (
  SELECT FLOOR(rowtime TO HOUR) AS rowtime,
    productId,
    COUNT(*) AS c,
    SUM(units) AS su
  FROM Orders
  GROUP BY FLOOR(rowtime TO HOUR), productId)
WHERE c > 2 OR su > 10;

CREATE VIEW HourlyOrderTotals (rowtime, productId, c, su) AS
  SELECT FLOOR(rowtime TO HOUR),
    productId,
    COUNT(*),
    SUM(units)
  FROM Orders
  GROUP BY FLOOR(rowtime TO HOUR), productId;

SELECT STREAM rowtime, productId
FROM HourlyOrderTotals
WHERE c > 2 OR su > 10;

WITH HourlyOrderTotals (rowtime, productId, c, su) AS (
  SELECT FLOOR(rowtime TO HOUR),
    productId,
    COUNT(*),
    SUM(units)
  FROM Orders
  GROUP BY FLOOR(rowtime TO HOUR), productId)
SELECT STREAM rowtime, productId
FROM HourlyOrderTotals
WHERE c > 2 OR su > 10;

-- A relation; will query the historic Orders table.
SELECT max(su)
FROM HourlyOrderTotals
WHERE productId = 10;

-- A stream; will query the Orders stream.
SELECT STREAM rowtime
FROM HourlyOrderTotals
WHERE productId = 10;

-- Hopping windows (the spec's text reads "FROM HourlyTotals", the view it defined is
-- HourlyOrderTotals; its statement has no ';', the next one begins with a comment).
SELECT STREAM rowtime,
  productId,
  SUM(su) OVER w AS su,
  SUM(c) OVER w AS c
FROM HourlyOrderTotals
WINDOW w AS (
  ORDER BY rowtime
  PARTITION BY productId
  RANGE INTERVAL '2' HOUR PRECEDING);

SELECT STREAM FLOOR(rowtime TO hour) AS rowtime, productId, orderId, units
FROM Orders
ORDER BY FLOOR(rowtime TO hour) ASC, units DESC;

SELECT STREAM *
FROM Orders
WHERE productId = 10
UNION ALL
SELECT STREAM *
FROM Orders
WHERE productId = 30;

SELECT STREAM *
FROM Orders
WHERE productId = 10
UNION ALL
SELECT STREAM *
FROM Orders
WHERE productId = 30
ORDER BY rowtime;

SELECT STREAM rowtime,
  productId,
  units,
  SUM(units) OVER (ORDER BY rowtime RANGE INTERVAL '1' HOUR PRECEDING) unitsLastHour
FROM Orders;

SELECT STREAM *
FROM (
  SELECT STREAM rowtime,
    productId,
    units,
    AVG(units) OVER product (RANGE INTERVAL '10' MINUTE PRECEDING) AS m10,
    AVG(units) OVER product (RANGE INTERVAL '7' DAY PRECEDING) AS d7
  FROM Orders
  WINDOW product AS (
    ORDER BY rowtime
    PARTITION BY productId))
WHERE m10 > d7;

SELECT STREAM rowtime,
  productId,
  units,
  SUM(units) OVER (PARTITION BY FLOOR(rowtime TO HOUR)) AS unitsSinceTopOfHour
FROM Orders;
