CREATE TABLE t (id INT, g VARCHAR, x INT);
CREATE VIEW v AS SELECT a.id AS a_id, b.id AS b_id FROM t AS a JOIN t AS b ON a.g = b.g AND a.x < b.x;
