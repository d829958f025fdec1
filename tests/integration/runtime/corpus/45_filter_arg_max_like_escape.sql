-- DuckDB's ARG_MAX leaves out a row whose compared value is NULL; Weir's (Feldera's) puts it
-- below every other, and of equal ones takes the largest value (ARG_MIN: the smallest), NULL the smallest.
-- oracle extremes: SELECT g, ARG_MAX_NULL(id, CASE WHEN x * 100 + id IS NULL THEN COALESCE(id, -1) - 1000 ELSE x * 100 + id END) AS top_id, ARG_MIN_NULL(x, CASE WHEN id * 100 + x IS NULL THEN COALESCE(x, -1) + 10000 ELSE id * 100 + x END) AS low_x, ARG_MAX_NULL(g, LPAD(CAST(COALESCE(id, -1) + 1 AS VARCHAR), 3, '0') || COALESCE('~' || g, '')) FILTER (WHERE x > 2) AS g_of_max_id FROM t GROUP BY g
CREATE TABLE t (id INT, g VARCHAR, x INT);
CREATE VIEW filtered AS SELECT g, COUNT(*) FILTER (WHERE x > 2) AS big,
    SUM(x) FILTER (WHERE id % 2 = 0) AS even_sum, COUNT(DISTINCT x) FILTER (WHERE g LIKE 'a%') AS dx,
    MIN(x) FILTER (WHERE x IS NOT NULL AND id > 1) AS lo, COUNT(*) AS n FROM t GROUP BY g;
CREATE VIEW everything AS SELECT COUNT(x) FILTER (WHERE g <> 'b') AS c, AVG(CAST(x AS DOUBLE)) FILTER (WHERE x < 4) AS a FROM t;
CREATE VIEW escaped AS SELECT id, g, g || '%' LIKE 'a!%' ESCAPE '!' AS pct, g LIKE 'a_' AS two,
    g || '_' NOT LIKE '_!_' ESCAPE '!' AS not_one FROM t;
CREATE VIEW extremes AS SELECT g, ARG_MAX(id, x * 100 + id) AS top_id, ARG_MIN(x, id * 100 + x) AS low_x,
    ARG_MAX(g, id) FILTER (WHERE x > 2) AS g_of_max_id FROM t GROUP BY g;
