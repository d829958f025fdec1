CREATE TABLE t (id INT, g VARCHAR, amount DECIMAL(10, 2));
CREATE VIEW v AS SELECT g, SUM(amount) AS total, MAX(amount) AS biggest, COUNT(amount) AS n FROM t GROUP BY g;
