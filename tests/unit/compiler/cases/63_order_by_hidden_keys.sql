-- ORDER BY keys that are not in the select list: FROM columns, expressions of them,
-- groups and aggregates; a streaming sort by rowtime that the output leaves out.
CREATE STREAM Orders (productId INT NOT NULL, orderId INT NOT NULL, units INT NOT NULL);
CREATE TABLE t (id INT, g VARCHAR, x INT);
CREATE VIEW top_ids AS SELECT id FROM t ORDER BY x DESC, id LIMIT 2;
CREATE VIEW by_expression AS SELECT id AS ident, g FROM t ORDER BY x * 2 + id, 2 LIMIT 5;
CREATE VIEW groups_by_total AS SELECT g FROM t GROUP BY g ORDER BY SUM(x) DESC, g LIMIT 3;
CREATE VIEW products_in_time AS SELECT STREAM productId FROM Orders ORDER BY rowtime, units;
