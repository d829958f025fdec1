CREATE TABLE t (id INT, g VARCHAR, x INT);
CREATE VIEW v AS WITH big AS (SELECT id, g FROM t WHERE x > 2), counted AS (SELECT g, COUNT(*) AS n FROM big GROUP BY g) SELECT g, n FROM counted WHERE n > 0;
