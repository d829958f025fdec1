-- Calcite's group-by hopping window: GROUP BY HOP(ts, slide, size [, alignment]) reads
-- the FROM through a Hop node and groups by its window_start; HOP_START is that key,
-- HOP_END the key plus the size. Same plan as the HOP table function's.
CREATE TABLE bids (ts TIMESTAMP NOT NULL LATENESS INTERVAL '1' HOUR, auction INT, price INT);
CREATE VIEW hourly WITH ('emit_final' = 'e') AS
SELECT auction, HOP_START(ts, INTERVAL '10' MINUTE, INTERVAL '1' HOUR) AS s,
  HOP_END(ts, INTERVAL '10' MINUTE, INTERVAL '1' HOUR) AS e, COUNT(*) AS n
FROM bids WHERE price > 0
GROUP BY auction, HOP(ts, INTERVAL '10' MINUTE, INTERVAL '1' HOUR)
HAVING SUM(price) > 10;
CREATE VIEW aligned AS
SELECT HOP_END(ts, INTERVAL '10' MINUTE, INTERVAL '1' HOUR, TIME '0:05') AS e, MAX(price) AS top
FROM bids GROUP BY HOP(ts, INTERVAL '10' MINUTE, INTERVAL '1' HOUR, TIME '0:05');
