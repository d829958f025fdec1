-- WITH RECURSIVE: the anchor, then the step over the rows the round before added (a
-- recursive_ref), until a round adds none; UNION ALL keeps every copy, and a column
-- widens to the type the step gives it.
CREATE TABLE edges (src INT NOT NULL, dst INT NOT NULL);
CREATE VIEW reach AS WITH RECURSIVE r (a, b) AS (
    SELECT src, dst FROM edges
    UNION
    SELECT r.a, e.dst FROM r JOIN edges AS e ON r.b = e.src)
  SELECT a, COUNT(*) AS n FROM r GROUP BY a;
CREATE VIEW paths AS WITH RECURSIVE p AS (
    SELECT src, dst, CAST(1 AS TINYINT) AS len FROM edges
    UNION ALL
    SELECT p.src, e.dst, len + 1 FROM p JOIN edges AS e ON p.dst = e.src WHERE len < 4)
  SELECT * FROM p;
