-- Calcite's errors (spec/calcite-streaming.md), for queries written as statements:
-- each is reported exactly as for the view it is.
CREATE STREAM Orders (productId INTEGER, orderId INTEGER, units INTEGER);
CREATE TABLE Products (productId INTEGER, name VARCHAR);

-- ERROR: Cannot convert table 'PRODUCTS' to a stream
SELECT STREAM * FROM Products;

-- ERROR: Streaming aggregation requires at least one monotonic expression in GROUP BY clause
SELECT STREAM productId,
  COUNT(*) AS c,
  SUM(units) AS units
FROM Orders
GROUP BY productId;

-- ERROR: Cannot stream VALUES
SELECT STREAM * FROM (VALUES (1, 'abc'));

-- The next query after the errors is still query_4; a name the program declares is
-- skipped (query_5 is a table), wherever it is declared.
SELECT STREAM * FROM Orders WHERE units > 3;
SELECT STREAM rowtime, units FROM query_4 WHERE units > 10;
CREATE TABLE query_5 (x INTEGER);
