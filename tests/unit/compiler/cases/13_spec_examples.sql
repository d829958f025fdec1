-- Examples from the dialect documents (spec/): Feldera and the first Calcite ones.

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

-- Feldera: the LATENESS statement, before the view it names; emit_final.
CREATE TABLE readings (COL1 TIMESTAMP NOT NULL, COL2 INT);
LATENESS V.COL1 INTERVAL '1' HOUR;
CREATE VIEW V AS SELECT readings.COL1, readings.COL2 FROM readings;
CREATE VIEW final_hours WITH ('emit_final' = 'ts') AS
SELECT FLOOR("when" TO HOUR) AS ts, COUNT(*) AS pickups
FROM order_pickup GROUP BY FLOOR("when" TO HOUR);
