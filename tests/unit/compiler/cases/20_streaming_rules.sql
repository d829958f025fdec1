-- The streaming rules (SQL3xx).
CREATE STREAM orders (product_id INT, units INT);
CREATE TABLE products (product_id INT NOT NULL, name VARCHAR);
CREATE TABLE logs (at TIMESTAMP, msg VARCHAR) WITH ('append_only' = 'true');

-- SELECT STREAM must read a stream; a streaming GROUP BY needs a monotonic key.
CREATE VIEW s1 AS SELECT STREAM * FROM products;
CREATE VIEW s2 AS SELECT STREAM * FROM (VALUES (1, 'abc'));
CREATE VIEW s3 AS SELECT STREAM product_id, COUNT(*) AS c FROM orders GROUP BY product_id;
CREATE VIEW s4 AS SELECT STREAM COUNT(*) AS c FROM orders;
-- A stream joined with a table is a stream.
CREATE VIEW s5 AS
SELECT STREAM o.rowtime, p.name FROM orders o JOIN products p ON o.product_id = p.product_id;

-- emit_final needs a waterline: none on 'n', none on any column of logs.
CREATE VIEW f1 WITH ('emit_final' = 'n') AS
SELECT FLOOR(rowtime TO HOUR) AS hour, COUNT(*) AS n FROM orders GROUP BY FLOOR(rowtime TO HOUR);
CREATE VIEW f2 WITH ('emit_final' = 'at') AS SELECT at FROM logs;
CREATE VIEW f3 WITH ('emit_final' = '7') AS SELECT at FROM logs;
CREATE VIEW f4 WITH ('emit_final' = 'when') AS SELECT at FROM logs;

-- Warnings: state that can only grow.
CREATE VIEW g1 AS SELECT msg, COUNT(*) AS n FROM logs GROUP BY msg;
CREATE VIEW g2 AS SELECT o.units, p.name FROM orders o JOIN products p ON o.product_id = p.product_id;

-- LATENESS statements: wrong type, unknown column, unknown view, a table, twice.
CREATE VIEW lv AS SELECT at, msg FROM logs;
LATENESS lv.at 10;
LATENESS lv.nope INTERVAL '1' HOUR;
LATENESS nowhere.at INTERVAL '1' HOUR;
LATENESS logs.at INTERVAL '1' HOUR;
LATENESS lv.msg INTERVAL '1' HOUR;
LATENESS lv.msg INTERVAL '2' HOUR;

-- WATERMARK: one column per table, of a subtractable type.
CREATE TABLE wm (
    a TIMESTAMP WATERMARK INTERVAL '1' SECOND,
    b TIMESTAMP WATERMARK INTERVAL '1' SECOND,
    c INT WATERMARK INTERVAL '1' SECOND
);

-- A query outside a view is the view query_1; without STREAM, over a stream, it is
-- the stream's relation so far (as a view is). A pump's relational query is SQL302.
SELECT * FROM orders;
CREATE TABLE order_log (product_id INT, units INT);
CREATE PUMP relational AS INSERT INTO order_log SELECT product_id, units FROM orders;

-- A streaming ORDER BY needs a monotonic leading key.
CREATE VIEW o1 AS SELECT STREAM product_id, units FROM orders ORDER BY units, rowtime;
CREATE VIEW o2 AS SELECT STREAM rowtime, units FROM orders ORDER BY rowtime, units;
