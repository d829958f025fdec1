-- Window offsets that are not interval (or TIME) literals.
CREATE TABLE bids (ts TIMESTAMP NOT NULL LATENESS INTERVAL '1' HOUR, price INT);
CREATE VIEW bad_offset AS SELECT window_start FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '1' HOUR, 5));
CREATE VIEW bad_align AS SELECT COUNT(*) FROM bids GROUP BY TUMBLE(ts, INTERVAL '1' HOUR, 'noon');
