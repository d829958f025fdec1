CREATE TABLE t (id INT, g VARCHAR, x INT);
CREATE VIEW v AS SELECT id, x + 1 AS y, g FROM t WHERE x > 2 AND g <> 'a';
