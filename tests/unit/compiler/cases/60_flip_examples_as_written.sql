-- The FLIP's examples exactly as spec/flink-flip-snapshot-changelog.md writes them,
-- where they do not compile: each gets a precise diagnostic (the others: 59_*).
CREATE STREAM orders (order_id INTEGER, order_time TIMESTAMP, amount DECIMAL(10, 2),
    currency VARCHAR, proctime TIMESTAMP);
CREATE TABLE versioned_rates (currency VARCHAR NOT NULL PRIMARY KEY, rate DECIMAL(10, 4),
    rate_time TIMESTAMP LATENESS INTERVAL '1' HOUR);
CREATE TABLE table_name (id VARCHAR NOT NULL PRIMARY KEY, ts TIMESTAMP LATENESS INTERVAL '1' HOUR);
CREATE TABLE t (k VARCHAR NOT NULL PRIMARY KEY, v INTEGER, ts TIMESTAMP LATENESS INTERVAL '1' HOUR);
CREATE TABLE t1 (k VARCHAR NOT NULL PRIMARY KEY, v INTEGER);
CREATE TABLE t2 (k VARCHAR NOT NULL PRIMARY KEY, w INTEGER);
CREATE STREAM t_other (name VARCHAR);
CREATE VIEW s AS SELECT * FROM TO_CHANGELOG(t);

-- A comma, then ON (SQL101); "oder_id" (SQL202).
SELECT
  o.oder_id,
   o.order_time,
  o.amount * r.rate AS amount,
  r.currency
FROM orders AS o, versioned_rates FOR SYSTEM_TIME AS OF o.order_time r
on o.currency = r.currency;
SELECT o.oder_id FROM orders AS o JOIN versioned_rates FOR SYSTEM_TIME AS OF o.order_time r
on o.currency = r.currency;

-- Templates.
SELECT * FROM table_name FOR SYSTEM_TIME AS OF TIMESTAMP '[timestamp]';
SELECT * FROM table_name FOR SYSTEM_TIME AS OF [expression];

-- NOW() per row, which the FLIP contrasts with NOW() in AS OF; time travel to now.
SELECT NOW() FROM (VALUES 1, 2, 3);
SELECT *, NOW() FROM t1, t2 FOR SYSTEM_TIME AS OF NOW();
SELECT * FROM SNAPSHOT(t, NOW() - INTERVAL '1' HOUR);

-- A join of two snapshots on k: SELECT * has two columns named k.
SELECT * FROM SNAPSHOT(t1) AS a JOIN SNAPSHOT(t2) AS b ON a.k = b.k;

-- Parameters the FLIP only imagines: from_time, on_key.
SELECT * FROM SNAPSHOT(input => t, from_time => TIMESTAMP '2024-01-20', to_time => TIMESTAMP '2024-01-20');
SELECT * FROM TO_CHANGELOG(input => t, on_key => DESCRIPTOR(k));

-- 'fixed-delay'='10s' in the MAP of options: a comparison, not a key and a value.
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
      'fixed-delay'='10s'
    ]
  );
