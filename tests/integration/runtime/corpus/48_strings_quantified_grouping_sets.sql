CREATE TABLE t (id INT, g VARCHAR, x INT);
CREATE TABLE u (g VARCHAR, y INT);
CREATE VIEW texts AS SELECT id, LEFT(g, 1) AS l, RIGHT(g, 2) AS r, REPEAT(g, 2) AS twice,
    LPAD(g, 3, '*') AS lp, RPAD(g, 4, '.') AS rp, REVERSE(g) AS rev, CONCAT_WS('/', g, x, id) AS cw,
    MD5(g) AS m, REGEXP_REPLACE(g, '^a', 'A') AS rr, IF(x > 2, g, 'small') AS i FROM t;
CREATE VIEW above_all AS SELECT id, x FROM t WHERE x > ALL (SELECT y FROM u WHERE g <> 'c');
CREATE VIEW below_any AS SELECT id, g FROM t WHERE x <= ANY (SELECT y FROM u) AND id % 2 = 1;
CREATE VIEW unlike_all AS SELECT id, g FROM t WHERE g <> ALL (SELECT g FROM u);
CREATE VIEW rolled AS SELECT g, x % 3 AS r, COUNT(*) AS n, SUM(id) AS s FROM t GROUP BY ROLLUP(g, x % 3);
CREATE VIEW cubed AS SELECT g, y, COUNT(*) AS n FROM u GROUP BY CUBE(g, y) HAVING COUNT(*) > 1;
-- oracle texts: SELECT id, LEFT(g, 1) AS l, RIGHT(g, 2) AS r, REPEAT(g, 2) AS twice, LPAD(g, 3, '*') AS lp, RPAD(g, 4, '.') AS rp, REVERSE(g) AS rev, CONCAT_WS('/', COALESCE(g, ''), COALESCE(CAST(x AS VARCHAR), ''), COALESCE(CAST(id AS VARCHAR), '')) AS cw, MD5(g) AS m, REGEXP_REPLACE(g, '^a', 'A') AS rr, IF(x > 2, g, 'small') AS i FROM t
