-- Subqueries as WHERE conditions: [NOT] IN (uncorrelated, SQL's NULL rule for NOT IN)
-- and [NOT] EXISTS (correlated through the outer query's columns).
CREATE TABLE t (id BIGINT, g VARCHAR, x INTEGER);
CREATE TABLE u (g VARCHAR, name VARCHAR);
CREATE VIEW in_u AS SELECT id, g FROM t WHERE g IN (SELECT g FROM u) AND x > 1;
CREATE VIEW not_in_u AS SELECT id, g FROM t WHERE g NOT IN (SELECT g FROM u);
CREATE VIEW exists_u AS SELECT id FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.g = t.g AND name <> 'bo');
CREATE VIEW not_exists_u AS SELECT id, g FROM t WHERE NOT EXISTS (SELECT * FROM u WHERE g = t.g);
CREATE VIEW any_u AS SELECT id FROM t WHERE EXISTS (SELECT g FROM u GROUP BY g);
CREATE VIEW bad1 AS SELECT id FROM t WHERE g IN (SELECT g, name FROM u);
CREATE VIEW bad2 AS SELECT id FROM t WHERE x IN (SELECT name FROM u);
CREATE VIEW bad3 AS SELECT id FROM t WHERE EXISTS (SELECT 1 FROM u WHERE nope = 1);
