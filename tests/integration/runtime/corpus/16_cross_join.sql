CREATE TABLE t (id INT, x INT);
CREATE TABLE u (k INT, name VARCHAR);
CREATE VIEW v AS SELECT t.id, u.name FROM t, u WHERE t.x < u.k;
