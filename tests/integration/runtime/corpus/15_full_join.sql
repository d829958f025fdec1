CREATE TABLE t (id INT, g VARCHAR, x INT);
CREATE TABLE u (g VARCHAR, name VARCHAR);
CREATE VIEW v AS SELECT t.id, t.g AS tg, u.g AS ug, u.name FROM t FULL JOIN u ON t.g = u.g;
