CREATE TABLE t (id INT, g VARCHAR, x INT);
CREATE VIEW filtered AS SELECT g, COUNT(*) FILTER (WHERE x > 2) AS big,
    SUM(x) FILTER (WHERE id % 2 = 0) AS even_sum, COUNT(DISTINCT x) FILTER (WHERE g LIKE 'a%') AS dx,
    MIN(x) FILTER (WHERE x IS NOT NULL AND id > 1) AS lo, COUNT(*) AS n FROM t GROUP BY g;
CREATE VIEW everything AS SELECT COUNT(x) FILTER (WHERE g <> 'b') AS c, AVG(CAST(x AS DOUBLE)) FILTER (WHERE x < 4) AS a FROM t;
CREATE VIEW escaped AS SELECT id, g, g || '%' LIKE 'a!%' ESCAPE '!' AS pct, g LIKE 'a_' AS two,
    g || '_' NOT LIKE '_!_' ESCAPE '!' AS not_one FROM t;
CREATE VIEW extremes AS SELECT g, ARG_MAX(id, x * 100 + id) AS top_id, ARG_MIN(x, id * 100 + x) AS low_x,
    ARG_MAX(g, id) FILTER (WHERE x > 2) AS g_of_max_id FROM t GROUP BY g;
