-- Waterlines, LATENESS, WATERMARK, emit_final and output modes.
CREATE TABLE events (
    id BIGINT NOT NULL,
    ts TIMESTAMP NOT NULL LATENESS INTERVAL '1' HOUR,
    seen TIMESTAMP WATERMARK INTERVAL '5' SECONDS,
    v INT
) WITH ('append_only' = 'true');
CREATE STREAM clicks (url VARCHAR);
CREATE TABLE accounts (id BIGINT NOT NULL PRIMARY KEY, opened TIMESTAMP);

-- Append: filters and projections of append-only inputs; waterlines through
-- monotone expressions.
CREATE VIEW shifted AS
SELECT id, ts + INTERVAL '1' DAY AS tomorrow, ts - INTERVAL '1' MINUTE AS before,
       FLOOR(ts TO DAY) AS day, v + 1 AS w
FROM events WHERE v > 0;
CREATE VIEW click_times AS SELECT rowtime, url FROM clicks;
CREATE VIEW both_times AS SELECT ts FROM events UNION ALL SELECT rowtime FROM clicks;

-- Update: aggregates retract; emit_final makes them append.
CREATE VIEW daily WITH ('emit_final' = 'day') AS
SELECT FLOOR(ts TO DAY) AS day, COUNT(*) AS n FROM events GROUP BY FLOOR(ts TO DAY);
CREATE VIEW daily_by_number WITH ('emit_final' = '0') AS
SELECT TUMBLE_START(ts, INTERVAL '1' HOUR) AS hour, SUM(v) AS total
FROM events GROUP BY TUMBLE(ts, INTERVAL '1' HOUR);
CREATE VIEW account_list AS SELECT id, opened FROM accounts;

-- The LATENESS statement gives a view column a waterline (here before the view).
LATENESS opened_late.opened INTERVAL '1' DAY;
CREATE VIEW opened_late WITH ('emit_final' = 'opened') AS
SELECT opened, COUNT(*) AS n FROM accounts GROUP BY opened;

-- Joins on monotone columns keep waterlines and bound their state.
CREATE VIEW joined AS
SELECT e.id, e.ts, c.url FROM events e JOIN clicks c ON e.ts = c.rowtime;
