CREATE TABLE t (id INT, g VARCHAR, x INT);
CREATE TABLE u (g VARCHAR, name VARCHAR);
CREATE TABLE w (name VARCHAR, score INT);
CREATE VIEW v AS SELECT t.id, u.name, w.score FROM t JOIN u ON t.g = u.g JOIN w ON u.name = w.name;
