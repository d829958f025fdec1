CREATE TABLE t (id INT, g VARCHAR, x INT);
CREATE TABLE u (g VARCHAR, y INT);
CREATE VIEW above_max AS SELECT id, x FROM t WHERE x >= (SELECT MAX(x) FROM t) - 3;
CREATE VIEW with_totals AS SELECT id, g, (SELECT COUNT(*) FROM u) AS nu,
    x - (SELECT MIN(y) FROM u WHERE g <> 'a') AS d FROM t;
CREATE VIEW grouped AS SELECT g, SUM(x) AS s, (SELECT SUM(y) FROM u) AS sy FROM t GROUP BY g
    HAVING COUNT(*) > (SELECT COUNT(*) FROM u WHERE y > 5);
CREATE VIEW top_g AS SELECT id FROM t
    WHERE g = (SELECT g FROM u ORDER BY y DESC NULLS LAST, g NULLS LAST LIMIT 1);
CREATE VIEW per_group AS SELECT id, (SELECT COUNT(*) FROM u WHERE u.g = t.g) AS n,
    (SELECT MAX(y) FROM u WHERE t.g = u.g AND y < 50) AS top FROM t
    WHERE x >= (SELECT MIN(o.x) + 1 FROM t AS o WHERE o.g = t.g);
CREATE VIEW exists_value AS SELECT id, EXISTS (SELECT 1 FROM u WHERE u.g = t.g AND y > 3) AS has_big
    FROM t WHERE EXISTS (SELECT * FROM u WHERE u.g = t.g) OR x > 5;
