CREATE TABLE t (i INT, v VARCHAR, b BOOLEAN, ts TIMESTAMP, d DATE);

-- SQL206: type mismatches.
CREATE VIEW e1 AS SELECT i FROM t WHERE i;
CREATE VIEW e2 AS SELECT i FROM t WHERE v = 1;
CREATE VIEW e3 AS SELECT b + 1 AS x FROM t;
CREATE VIEW e4 AS SELECT v + v AS x FROM t;
CREATE VIEW e5 AS SELECT NOT i AS x FROM t;
CREATE VIEW e6 AS SELECT b AND 1 AS x FROM t;
CREATE VIEW e7 AS SELECT -v AS x FROM t;
CREATE VIEW e8 AS SELECT i FROM t WHERE ts > 'soon' OR i = '1';
CREATE VIEW e9 AS SELECT i LIKE 'a%' AS x FROM t;
CREATE VIEW e10 AS SELECT i FROM t WHERE i BETWEEN 'a' AND 10;
CREATE VIEW e11 AS SELECT i FROM t WHERE i IN (1, 'two', 3);
CREATE VIEW e12 AS SELECT CAST(d AS BOOLEAN) AS x FROM t;
CREATE VIEW e13 AS SELECT UPPER(i) AS x, ABS(v) AS y, COALESCE(i, v) AS z FROM t;
CREATE VIEW e14 AS SELECT ts + 1 AS x FROM t;

-- SQL207: unknown functions and wrong argument counts.
CREATE VIEW f1 AS SELECT UPPR(v) AS x FROM t;
CREATE VIEW f2 AS SELECT UPPER(v, v) AS x, COALESCE() AS y, LOWER(*) AS z FROM t;

-- SQL208: unknown types and bad type parameters.
CREATE TABLE bad_types (a VARCHR, b INT(5), c DECIMAL(50, 2), d DECIMAL(5, 6), e VARCHAR(0));
CREATE VIEW c1 AS SELECT CAST(i AS INTEGR) AS x FROM t;

-- SQL209: literals that do not denote a value.
CREATE VIEW l1 AS SELECT TIMESTAMP '2024-13-01 00:00:00' AS a, DATE '2024-02-30' AS b,
    TIME '25:00' AS c, INTERVAL '1:75' HOUR TO MINUTE AS d, INTERVAL '1' HOUR TO DAY AS e,
    TIMESTAMP 'yesterday' AS f, 1e999 AS g, 123456789012345678901234567890123456789 AS h
FROM t;

-- SQL210: a view column list that does not match the query.
CREATE VIEW n1 (a, b) AS SELECT i FROM t;

-- SQL211: invalid definitions.
CREATE TABLE p1 (a INT PRIMARY KEY, b INT PRIMARY KEY);
CREATE TABLE p2 (a INT, PRIMARY KEY (a, a));
CREATE TABLE p3 (a INT NOT NULL NULL) WITH ('append_only' = 'yes', 'append_only' = 'true');
CREATE TABLE p4 (ts TIMESTAMP LATENESS 5, n INT LATENESS n);
CREATE STREAM p5 (a INT PRIMARY KEY) WITH ('append_only' = 'false');
CREATE LOCAL VIEW p6 WITH ('emit_final' = 'i') AS SELECT i FROM t;
CREATE VIEW p7 WITH ('emit_final' = 'nope') AS SELECT i FROM t;
CREATE TABLE p8 (a INT, PRIMARY KEY (b));

-- SQL212 (a warning): unknown properties, with a suggestion.
CREATE TABLE w1 (a INT) WITH ('append-only' = 'true');
