-- ORDER BY keys that are neither output nor FROM columns; DISTINCT and set
-- operations sort by their output only; a stream sorted by a key that is not monotonic.
CREATE STREAM Orders (productId INT NOT NULL, units INT NOT NULL);
CREATE TABLE t (id INT, x INT);
CREATE VIEW unknown_key AS SELECT id FROM t ORDER BY nope;
CREATE VIEW distinct_key AS SELECT DISTINCT id FROM t ORDER BY x;
CREATE VIEW union_key AS SELECT id FROM t UNION SELECT id FROM t ORDER BY x;
CREATE VIEW not_monotonic AS SELECT STREAM productId FROM Orders ORDER BY units;
