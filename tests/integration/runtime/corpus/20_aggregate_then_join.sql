CREATE TABLE t (id INT, g VARCHAR, x INT);
CREATE TABLE u (g VARCHAR, name VARCHAR);
CREATE VIEW totals AS SELECT g, SUM(x) AS s FROM t GROUP BY g;
CREATE VIEW v AS SELECT u.name, totals.s FROM totals JOIN u ON totals.g = u.g;
