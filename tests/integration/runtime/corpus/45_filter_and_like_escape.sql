CREATE TABLE t (id INT, g VARCHAR, x INT);
CREATE VIEW filtered AS SELECT g, COUNT(*) FILTER (WHERE x > 2) AS big,
    SUM(x) FILTER (WHERE id % 2 = 0) AS even_sum, COUNT(DISTINCT x) FILTER (WHERE g LIKE 'a%') AS dx,
    MIN(x) FILTER (WHERE x IS NOT NULL AND id > 1) AS lo, COUNT(*) AS n FROM t GROUP BY g;
CREATE VIEW everything AS SELECT COUNT(x) FILTER (WHERE g <> 'b') AS c, AVG(x) FILTER (WHERE x < 4) AS a FROM t;
CREATE VIEW escaped AS SELECT id, g, g || '%' LIKE 'a!%' ESCAPE '!' AS pct, g LIKE 'a_' AS two,
    g || '_' NOT LIKE '_!_' ESCAPE '!' AS not_one FROM t;
