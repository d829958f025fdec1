-- Examples from the dialect documents (spec/), as far as they compile today.

-- Feldera: LATENESS and WATERMARK on table columns, append-only tables.
CREATE TABLE order_pickup (
   when TIMESTAMP NOT NULL LATENESS INTERVAL '1:00' HOURS TO MINUTES,
   location VARCHAR
);
CREATE TABLE order_watermark (
   pickup_time TIMESTAMP NOT NULL WATERMARK INTERVAL '1:00' HOURS TO MINUTES,
   location VARCHAR
);
CREATE TABLE T (ID INT, TS TIMESTAMP) WITH ('append_only' = 'true');

-- Calcite: streams, SELECT STREAM, filtering and projecting.
CREATE STREAM Orders (productId INTEGER, orderId INTEGER, units INTEGER);
CREATE VIEW big_orders AS SELECT STREAM * FROM Orders WHERE units > 3;
CREATE VIEW descriptions AS
SELECT STREAM rowtime,
  'An order for ' || units || ' units of product #' || productId AS description
FROM Orders;

-- A reserved word as a column must be quoted in queries.
CREATE VIEW pickups AS SELECT "when", location FROM order_pickup WHERE location IS NOT NULL;
