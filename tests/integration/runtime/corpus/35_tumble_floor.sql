CREATE TABLE readings (sensor VARCHAR, value INT, ts TIMESTAMP NOT NULL LATENESS INTERVAL '30' MINUTE);
CREATE VIEW v AS SELECT FLOOR(ts TO HOUR) AS hour, sensor, SUM(value) AS total FROM readings GROUP BY FLOOR(ts TO HOUR), sensor;
-- oracle v: SELECT date_trunc('hour', ts) AS hour, sensor, SUM(value) AS total FROM readings GROUP BY date_trunc('hour', ts), sensor
