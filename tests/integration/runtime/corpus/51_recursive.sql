CREATE TABLE e (src INT, dst INT);
CREATE TABLE n (id INT, w INT);
CREATE VIEW reach AS WITH RECURSIVE r (a, b) AS (
    SELECT src, dst FROM e UNION SELECT r.a, e.dst FROM r JOIN e ON r.b = e.src) SELECT * FROM r;
CREATE VIEW reach_counts AS WITH RECURSIVE r (a, b) AS (
    SELECT src, dst FROM e UNION SELECT r.a, e.dst FROM r JOIN e ON r.b = e.src)
    SELECT a, COUNT(*) AS c, MAX(b) AS far FROM r GROUP BY a;
CREATE VIEW short_paths AS WITH RECURSIVE p (a, b, len) AS (
    SELECT src, dst, 1 FROM e UNION ALL SELECT p.a, e.dst, len + 1 FROM p JOIN e ON p.b = e.src WHERE len < 3)
    SELECT * FROM p;
CREATE VIEW from_nodes AS WITH RECURSIVE r (start, node) AS (
    SELECT id, id FROM n UNION SELECT r.start, e.dst FROM r JOIN e ON e.src = r.node) SELECT * FROM r;
CREATE VIEW countdown AS WITH RECURSIVE c (id, k) AS (
    SELECT id, w FROM n WHERE w BETWEEN 0 AND 6 UNION ALL SELECT id, k - 1 FROM c WHERE k > 0)
    SELECT id, COUNT(*) AS c, SUM(k) AS s FROM c GROUP BY id;
CREATE VIEW cyclic AS WITH RECURSIVE r (a, b) AS (
    SELECT src, dst FROM e UNION SELECT r.a, e.dst FROM r JOIN e ON r.b = e.src)
    SELECT DISTINCT a FROM r WHERE a = b;
CREATE VIEW reach_joined AS WITH RECURSIVE r (a, b) AS (
    SELECT src, dst FROM e UNION SELECT r.a, e.dst FROM r JOIN e ON r.b = e.src)
    SELECT n.id, n.w, r.b FROM n JOIN r ON n.id = r.a;
CREATE VIEW two_hops AS WITH RECURSIVE r (a, b) AS (
    SELECT src, dst FROM e UNION SELECT r.a, e.dst FROM r JOIN e ON r.b = e.src)
    SELECT x.a, y.b FROM r AS x JOIN r AS y ON x.b = y.a;
