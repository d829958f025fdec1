-- The SQL of spec/flink-flip-snapshot-changelog.md (not in sql fences there), with the
-- DDL it implies, as a program of queries (as written, where it does not compile: 60_*).
-- Flink has no STREAM keyword: its queries read tables, streams and views as relations.
CREATE STREAM orders (order_id INTEGER, order_time TIMESTAMP, amount DECIMAL(10, 2),
    currency VARCHAR, proctime TIMESTAMP);
CREATE TABLE versioned_rates (currency VARCHAR NOT NULL PRIMARY KEY, rate DECIMAL(10, 4),
    rate_time TIMESTAMP LATENESS INTERVAL '1' HOUR);
CREATE TABLE latest_rates (currency VARCHAR NOT NULL PRIMARY KEY, rate DECIMAL(10, 4),
    rate_time TIMESTAMP LATENESS INTERVAL '1' HOUR);
CREATE TABLE table_name (id VARCHAR NOT NULL PRIMARY KEY, ts TIMESTAMP LATENESS INTERVAL '1' HOUR);
CREATE STREAM t1 (name VARCHAR, proctime TIMESTAMP);
CREATE TABLE t2 (k VARCHAR NOT NULL PRIMARY KEY, v INTEGER, ts TIMESTAMP LATENESS INTERVAL '1' HOUR);
CREATE TABLE t (k VARCHAR NOT NULL, k1 VARCHAR, k2 VARCHAR, w INTEGER,
    t_time TIMESTAMP LATENESS INTERVAL '1' HOUR);
CREATE STREAM t_other (name VARCHAR, a1 VARCHAR, a2 VARCHAR);

-- FLIP-132's temporal joins, with JOIN ... ON (the text: a comma, then ON).
SELECT
  o.order_id,
   o.order_time,
  o.amount * r.rate AS amount,
  r.currency
FROM orders AS o JOIN versioned_rates FOR SYSTEM_TIME AS OF o.order_time r
on o.currency = r.currency;
SELECT
  o.order_id,
  o.proctime,
  o.amount * r.rate AS amount,
  r.currency
FROM orders AS o JOIN latest_rates FOR SYSTEM_TIME AS OF o.proctime r
on o.currency = r.currency;

-- FLIP-308: time travel, and now.
SELECT * FROM table_name FOR SYSTEM_TIME AS OF TIMESTAMP '2024-01-20 00:00:00';
SELECT * FROM table_name FOR SYSTEM_TIME AS OF TIMESTAMP '2024-01-20 00:00:00' + INTERVAL '1' HOUR;
SELECT * FROM table_name FOR SYSTEM_TIME AS OF CURRENT_TIMESTAMP;
SELECT * FROM t;
SELECT * FROM t FOR SYSTEM_TIME AS OF NOW();

-- "Overloading of FOR SYSTEM_TIME AS OF".
SELECT * FROM t1, t2 FOR SYSTEM_TIME AS OF NOW();
SELECT * FROM t1, t2 FOR SYSTEM_TIME AS OF TIMESTAMP '2012-12-12 12:34:56';
SELECT * FROM t1, t2 FOR SYSTEM_TIME AS OF t1.rowtime;
SELECT * FROM t1, t2 FOR SYSTEM_TIME AS OF t1.proctime;
SELECT * FROM t1, t2 FOR SYSTEM_TIME AS OF PROCTIME();

-- The proposal's table of syntax.
SELECT * FROM SNAPSHOT(t);
SELECT * FROM SNAPSHOT(t, TIMESTAMP '2024-01-20');
SELECT *
FROM
  t1,
  LATERAL SEARCH_KEY(t2, DESCRIPTOR(k), t1.name);
SELECT *
FROM
  t1,
  t2 FOR SYSTEM_TIME AS OF PROCTIME()
WHERE t1.name = t2.k;
SELECT *
FROM
  t1,
  LATERAL SNAPSHOT(t2, t1.rowtime);
SELECT *
FROM
  t1,
  t2 FOR SYSTEM_TIME AS OF t1.rowtime;
SELECT * FROM TO_CHANGELOG(t);

-- SNAPSHOT for point-in-time, with named arguments.
SELECT * FROM SNAPSHOT(input => t);
-- SNAPSHOT for time travel.
SELECT * FROM SNAPSHOT(input => t, to_time => TIMESTAMP '2024-01-20');

-- Correlated SEARCH functions: a single key, named arguments, options, composite keys.
SELECT * FROM t_other, LATERAL SEARCH_KEY(t, DESCRIPTOR(k), t_other.name);
SELECT *
FROM
  t_other,
  LATERAL SEARCH_KEY(
    input => t,
    on_key => DESCRIPTOR(k),
    lookup => t_other.name
  );
SELECT *
FROM
  t_other,
  LATERAL SEARCH_KEY(
    input => t,
    on_key => DESCRIPTOR(k),
    lookup => t_other.name,
    options => MAP[
      'async', 'true',
      'retry-predicate', 'lookup_miss',
      'retry-strategy', 'fixed_delay',
      'fixed-delay', '10s'
    ]
  );
SELECT *
FROM
  t_other,
  LATERAL SEARCH_KEY(
    input => t,
    on_key => DESCRIPTOR(k1, k2),
    lookup => (t_other.a1, t_other.a2)
  );

-- SNAPSHOT for temporal joins; an uncorrelated LATERAL SNAPSHOT is one snapshot.
SELECT * FROM t_other, LATERAL SNAPSHOT(t, t_other.rowtime);
SELECT * FROM t_other, LATERAL SNAPSHOT(input => t, to_time => t_other.rowtime);
SELECT * FROM t_other, LATERAL SNAPSHOT(t);
SELECT * FROM t_other, SNAPSHOT(t);

-- TO_CHANGELOG / FROM_CHANGELOG for stream/table duality.
SELECT * FROM TO_CHANGELOG(t) AS s;
CREATE VIEW s AS SELECT * FROM TO_CHANGELOG(t);
SELECT * FROM FROM_CHANGELOG(s) AS t;
SELECT payload.* FROM TO_CHANGELOG(t) WHERE op = 0;
