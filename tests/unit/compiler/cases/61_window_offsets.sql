-- Windows moved by an offset: TUMBLE and HOP's OFFSET argument (Feldera), and the
-- group-by TUMBLE's alignment, an interval or a TIME of day (Calcite).
CREATE TABLE bids (ts TIMESTAMP NOT NULL LATENESS INTERVAL '1' HOUR, price INT);
CREATE VIEW tumbled AS SELECT window_start, window_end, COUNT(*) AS n
FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '1' HOUR, INTERVAL '15' MINUTE))
GROUP BY window_start, window_end;
CREATE VIEW named AS SELECT window_start, SUM(price) AS s
FROM TABLE(TUMBLE(data => TABLE bids, timecol => DESCRIPTOR(ts), size => INTERVAL '1' HOUR,
  offset => INTERVAL '30' MINUTE))
GROUP BY window_start;
CREATE VIEW hopped AS SELECT window_start, window_end, MAX(price) AS top
FROM TABLE(HOP(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' MINUTE, INTERVAL '1' HOUR, INTERVAL '5' MINUTE))
GROUP BY window_start, window_end;
CREATE VIEW aligned WITH ('emit_final' = 's') AS
SELECT TUMBLE_START(ts, INTERVAL '1' HOUR, TIME '0:30') AS s, TUMBLE_END(ts, INTERVAL '1' HOUR, TIME '0:30') AS e,
  COUNT(*) AS n
FROM bids GROUP BY TUMBLE(ts, INTERVAL '1' HOUR, TIME '0:30');
