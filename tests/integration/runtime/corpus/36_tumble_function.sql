CREATE TABLE readings (sensor VARCHAR, value INT, ts TIMESTAMP NOT NULL LATENESS INTERVAL '30' MINUTE);
CREATE VIEW v AS SELECT TUMBLE_START(ts, INTERVAL '15' MINUTE) AS w, COUNT(*) AS n, MAX(value) AS hi FROM readings GROUP BY TUMBLE(ts, INTERVAL '15' MINUTE);
-- oracle v: SELECT time_bucket(INTERVAL '15 minutes', ts) AS w, COUNT(*) AS n, MAX(value) AS hi FROM readings GROUP BY time_bucket(INTERVAL '15 minutes', ts)
