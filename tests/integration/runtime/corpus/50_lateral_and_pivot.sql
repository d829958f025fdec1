CREATE TABLE t (id INT, g VARCHAR, x INT);
CREATE TABLE u (g VARCHAR, y INT);
CREATE VIEW applied AS SELECT t.id, s.y FROM t CROSS APPLY (SELECT y FROM u WHERE u.g = t.g AND y > 2) s;
-- oracle applied: SELECT t.id, s.y FROM t, LATERAL (SELECT y FROM u WHERE u.g = t.g AND y > 2) s
CREATE VIEW outer_applied AS SELECT t.id, s.y FROM t OUTER APPLY (SELECT y FROM u WHERE t.g = u.g) s;
-- oracle outer_applied: SELECT t.id, s.y FROM t LEFT JOIN LATERAL (SELECT y FROM u WHERE t.g = u.g) s ON TRUE
CREATE VIEW per_row AS SELECT t.id, s.n, s.top FROM t,
    LATERAL (SELECT COUNT(*) AS n, MAX(y) AS top FROM u WHERE u.g = t.g AND u.y < 5) s;
-- oracle per_row: SELECT t.id, (SELECT COUNT(*) FROM u WHERE u.g = t.g AND u.y < 5) AS n, (SELECT MAX(y) FROM u WHERE u.g = t.g AND u.y < 5) AS top FROM t
CREATE VIEW grouped AS SELECT t.id, s.y, s.c FROM t CROSS JOIN LATERAL
    (SELECT y, COUNT(*) AS c FROM u WHERE u.g = t.g GROUP BY y HAVING COUNT(*) > 1) AS s;
CREATE VIEW pivoted AS SELECT * FROM (SELECT g, x FROM t) PIVOT (SUM(x) AS s, COUNT(*) AS n FOR g IN ('a' AS a, 'b'));
-- oracle pivoted: SELECT SUM(x) FILTER (WHERE g = 'a') AS a_s, COUNT(*) FILTER (WHERE g = 'a') AS a_n, SUM(x) FILTER (WHERE g = 'b') AS "'b'_s", COUNT(*) FILTER (WHERE g = 'b') AS "'b'_n" FROM t
CREATE VIEW pivoted_groups AS SELECT * FROM (SELECT id % 3 AS k, g, x FROM t) PIVOT (MAX(x) FOR g IN ('a', 'ab' AS ab));
-- oracle pivoted_groups: SELECT id % 3 AS k, MAX(x) FILTER (WHERE g = 'a') AS "'a'", MAX(x) FILTER (WHERE g = 'ab') AS ab FROM t GROUP BY id % 3
CREATE VIEW having_value AS SELECT id, (SELECT MAX(y) FROM u WHERE u.g = t.g GROUP BY u.g HAVING COUNT(*) > 1) AS top FROM t;
CREATE VIEW below AS SELECT t.id, s.y FROM t CROSS APPLY (SELECT y FROM u WHERE u.g = t.g AND u.y < t.x) s;
-- oracle below: SELECT t.id, s.y FROM t, LATERAL (SELECT y FROM u WHERE u.g = t.g AND u.y < t.x) s
CREATE VIEW above_any AS SELECT t.id, s.g FROM t OUTER APPLY (SELECT g FROM u WHERE u.y > t.x + 3) s;
-- oracle above_any: SELECT t.id, s.g FROM t LEFT JOIN LATERAL (SELECT g FROM u WHERE u.y > t.x + 3) s ON TRUE
CREATE VIEW unpivoted AS SELECT * FROM t UNPIVOT (v FOR k IN (id AS 'id', x AS 'x'));
-- oracle unpivoted: SELECT g, 'id' AS k, id AS v FROM t WHERE id IS NOT NULL UNION ALL SELECT g, 'x' AS k, x AS v FROM t WHERE x IS NOT NULL
CREATE VIEW top_two AS SELECT t.id, s.y FROM t CROSS APPLY (SELECT y FROM u WHERE u.g = t.g ORDER BY y DESC NULLS LAST LIMIT 2) s;
-- oracle top_two: SELECT t.id, s.y FROM t, LATERAL (SELECT y FROM u WHERE u.g = t.g ORDER BY y DESC NULLS LAST LIMIT 2) s
CREATE VIEW second_least AS SELECT t.id, s.y FROM t OUTER APPLY (SELECT y FROM u WHERE u.g = t.g ORDER BY y NULLS LAST LIMIT 1 OFFSET 1) s;
-- oracle second_least: SELECT t.id, s.y FROM t LEFT JOIN LATERAL (SELECT y FROM u WHERE u.g = t.g ORDER BY y NULLS LAST LIMIT 1 OFFSET 1) s ON TRUE
CREATE VIEW mixed AS SELECT s.* FROM t CROSS APPLY (SELECT t.id + y AS total, t.g || u.g AS gg FROM u WHERE u.g = t.g AND u.y > t.x) s;
-- oracle mixed: SELECT s.* FROM t, LATERAL (SELECT t.id + y AS total, t.g || u.g AS gg FROM u WHERE u.g = t.g AND u.y > t.x) s
CREATE VIEW counted_below AS SELECT id, (SELECT COUNT(*) FROM u WHERE u.y < t.x) AS n,
    (SELECT MAX(y) FROM u WHERE u.y < t.x AND u.g = t.g) AS top FROM t;
CREATE VIEW ranked AS SELECT id, (SELECT COUNT(*) FROM t AS o WHERE o.x > t.x) + 1 AS rnk FROM t;
CREATE VIEW above_average AS SELECT id FROM t WHERE x > (SELECT AVG(y) FROM u WHERE u.g <> t.g);
-- oracle above_average: SELECT id FROM t WHERE x > (SELECT CAST(TRUNC(AVG(y)) AS INTEGER) FROM u WHERE u.g <> t.g)
CREATE VIEW gap AS SELECT id, (SELECT MAX(y) - t.x FROM u WHERE u.g = t.g) AS d FROM t;
CREATE VIEW any_bigger AS SELECT id, EXISTS (SELECT 1 FROM u WHERE u.y > t.x) AS bigger FROM t;
CREATE VIEW bigger_or_null AS SELECT id FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.y > t.x) OR x IS NULL;
CREATE VIEW counted_per_row AS SELECT t.id, s.n, s.top FROM t,
    LATERAL (SELECT COUNT(*) AS n, MAX(y) AS top FROM u WHERE u.g = t.g AND u.y < t.x) s;
CREATE VIEW grouped_labels AS SELECT t.id, s.label, s.n FROM t CROSS APPLY (SELECT t.g || '!' AS label, COUNT(*) AS n FROM u WHERE u.g = t.g GROUP BY u.y) s;
-- oracle grouped_labels: SELECT t.id, s.label, s.n FROM t, LATERAL (SELECT t.g || '!' AS label, COUNT(*) AS n FROM u WHERE u.g = t.g GROUP BY u.y) s
CREATE VIEW distinct_above AS SELECT t.id, s.g FROM t OUTER APPLY (SELECT DISTINCT g FROM u WHERE u.y > t.x) s;
-- oracle distinct_above: SELECT t.id, s.g FROM t LEFT JOIN LATERAL (SELECT DISTINCT g FROM u WHERE u.y > t.x) s ON TRUE
CREATE VIEW in_own_group AS SELECT id FROM t WHERE x IN (SELECT y FROM u WHERE u.g = t.g);
CREATE VIEW not_in_own_group AS SELECT id FROM t WHERE x NOT IN (SELECT y FROM u WHERE u.g = t.g);
CREATE VIEW above_all_of_group AS SELECT id FROM t WHERE x > ALL (SELECT y FROM u WHERE u.g = t.g) AND id > 0;
CREATE VIEW below_any_bigger AS SELECT id FROM t WHERE x < ANY (SELECT y FROM u WHERE u.y > t.id);
CREATE VIEW membership_values AS SELECT id, x IN (SELECT y FROM u WHERE u.g = t.g) AS is_in,
    x NOT IN (SELECT y FROM u WHERE u.g = t.g) AS not_in,
    x > ALL (SELECT y FROM u WHERE u.g = t.g) AS above_all,
    x < ANY (SELECT y FROM u WHERE u.g = t.g) AS below_any FROM t;
CREATE VIEW in_or AS SELECT id FROM t WHERE x IN (SELECT y FROM u WHERE u.g = t.g) OR id > 3;
