-- The examples of spec/calcite-streaming.md, with its schema: Orders and
-- Shipments are streams (with an implicit rowtime), Products a table.
CREATE STREAM Orders (productId INTEGER, orderId INTEGER, units INTEGER);
CREATE TABLE Products (productId INTEGER, name VARCHAR);
CREATE STREAM Shipments (orderId INTEGER);

CREATE VIEW all_orders AS SELECT STREAM * FROM Orders;
CREATE VIEW big_orders AS SELECT STREAM * FROM Orders WHERE units > 3;
CREATE VIEW descriptions AS
SELECT STREAM rowtime,
  'An order for ' || units || ' '
    || CASE units WHEN 1 THEN 'unit' ELSE 'units' END
    || ' of product #' || productId AS description
FROM Orders;

-- Tumbling windows.
CREATE VIEW tumbling AS
SELECT STREAM FLOOR(rowtime TO HOUR) AS rowtime,
  productId,
  COUNT(*) AS c,
  SUM(units) AS units
FROM Orders
GROUP BY FLOOR(rowtime TO HOUR), productId;

-- ERROR: Streaming aggregation requires at least one monotonic expression in GROUP BY clause
CREATE VIEW not_monotonic AS
SELECT STREAM productId,
  COUNT(*) AS c,
  SUM(units) AS units
FROM Orders
GROUP BY productId;

CREATE VIEW filtered AS
SELECT STREAM FLOOR(rowtime TO HOUR) AS rowtime,
  productId
FROM Orders
GROUP BY FLOOR(rowtime TO HOUR), productId
HAVING COUNT(*) > 2 OR SUM(units) > 10;

CREATE VIEW nested AS
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

CREATE VIEW busy_hours AS
SELECT STREAM rowtime, productId
FROM HourlyOrderTotals
WHERE c > 2 OR su > 10;

CREATE VIEW with_query AS
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

-- A relation, and a stream, over the same view.
CREATE VIEW largest AS SELECT max(su) AS m FROM HourlyOrderTotals WHERE productId = 10;
CREATE VIEW product_10_hours AS SELECT STREAM rowtime FROM HourlyOrderTotals WHERE productId = 10;

CREATE VIEW merged AS
SELECT STREAM *
FROM Orders
WHERE productId = 10
UNION ALL
SELECT STREAM *
FROM Orders
WHERE productId = 30;

-- ERROR: Cannot stream VALUES
CREATE VIEW streamed_values AS SELECT STREAM * FROM (VALUES (1, 'abc'));

-- Not compiled yet: ORDER BY, OVER windows.
CREATE VIEW sorted AS
SELECT STREAM FLOOR(rowtime TO hour) AS rowtime, productId, orderId, units
FROM Orders
ORDER BY FLOOR(rowtime TO hour) ASC, units DESC;
CREATE VIEW sliding AS
SELECT STREAM rowtime,
  productId,
  units,
  SUM(units) OVER (ORDER BY rowtime RANGE INTERVAL '1' HOUR PRECEDING) unitsLastHour
FROM Orders;

-- Calcite: "ERROR: Cannot convert stream 'SHIPMENTS' to a table", as Shipments has no
-- history. Weir keeps every stream's history (like Calcite's Orders, "a stream and a
-- table"): a query without STREAM reads it as the relation so far, here the view query_1.
SELECT * FROM Shipments;
-- ERROR: Cannot convert table 'PRODUCTS' to a stream.
CREATE VIEW products_stream AS SELECT STREAM * FROM Products;
