CREATE TABLE readings (sensor VARCHAR, value INT, ts TIMESTAMP NOT NULL LATENESS INTERVAL '10' MINUTE);
CREATE VIEW v AS SELECT sensor, COUNT(*) AS n, SUM(value) AS total FROM readings GROUP BY sensor;
CREATE VIEW recent AS SELECT sensor, ts FROM readings WHERE value > 2;
