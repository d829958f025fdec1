CREATE TABLE t (id INT, g VARCHAR, x INT);
CREATE TABLE u (g VARCHAR, name VARCHAR);
CREATE VIEW v AS SELECT t.id, u.g, u.name FROM t RIGHT JOIN u ON t.g = u.g AND t.x > 2;
