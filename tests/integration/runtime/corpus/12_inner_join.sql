CREATE TABLE t (id INT, g VARCHAR, x INT);
CREATE TABLE u (g VARCHAR, name VARCHAR);
CREATE VIEW v AS SELECT t.id, t.x, u.name FROM t JOIN u ON t.g = u.g;
