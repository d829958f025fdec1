CREATE TABLE t (
    i INT NOT NULL,
    l BIGINT,
    s SMALLINT,
    d DECIMAL(8, 3),
    r REAL,
    x DOUBLE,
    v VARCHAR,
    b BOOLEAN,
    ts TIMESTAMP,
    dt DATE
);

-- Literals: INTEGER, BIGINT, DECIMAL, DOUBLE, strings with '' escapes, booleans, NULL.
CREATE VIEW literals AS
SELECT 1 AS one, 3000000000 AS big, -2147483648 AS min_int, 12.50 AS price, .5 AS half,
       1.5e3 AS sci, 'it''s' AS quote, TRUE AS yes, FALSE AS no, NULL AS nothing,
       -0.25 AS negative_decimal, 123456789012345678901234567890 AS huge
FROM t;

-- Arithmetic result types (Spark's DECIMAL rules) and precedence: * before +, unary minus.
CREATE VIEW arithmetic AS
SELECT i + s AS int_plus_small, i + l AS int_plus_big, i * d AS int_times_dec,
       d / d AS dec_div, d - 1.25 AS dec_minus, i / 2 AS int_div, i % 3 AS int_mod,
       r + i AS real_plus_int, x * d AS double_times_dec, -i AS negated,
       1 + 2 * 3 AS precedence, (1 + 2) * 3 AS grouped, - (i + 1) AS neg_group, +i AS plus
FROM t;

-- Comparisons, logic, NULL tests, LIKE.
CREATE VIEW predicates AS
SELECT i = 1 AS eq, i <> 1 AS ne1, i != 1 AS ne2, i < l AS lt, i <= d AS le, x > r AS gt,
       v >= 'm' AS ge, b AND i > 0 OR NOT b AS logic, v IS NULL AS isnull,
       v IS NOT NULL AS notnull, v LIKE 'a%' AS likes, v NOT LIKE '%z' AS not_like,
       ts > TIMESTAMP '2024-01-01 00:00:00' AS recent, dt = ts AS date_vs_ts, NULL = i AS null_eq
FROM t;

-- BETWEEN lowers to and(ge, le); IN lists lower to or(eq, ...).
CREATE VIEW sugar AS
SELECT i BETWEEN 1 AND 10 AS in_range, i NOT BETWEEN 1 AND 10 AS out_of_range,
       v IN ('a', 'b', 'c') AS listed, i NOT IN (1) AS not_listed,
       l IN (1, 2, 3, 4, 5) AS five
FROM t
WHERE i BETWEEN 0 AND 100 AND v IN ('x', 'y');

-- Functions, CAST, and || (non-strings are cast to VARCHAR explicitly).
CREATE VIEW functions AS
SELECT UPPER(v) AS up, lower(v) AS down, ABS(d) AS absolute, ABS(-i) AS abs_neg,
       COALESCE(l, i, 0) AS first_known, COALESCE(i) AS same, CONCAT(v, '-', i) AS joined,
       v || '/' || i || b AS piped, CAST(i AS DOUBLE) AS as_double,
       CAST(v AS INTEGER) AS parsed, CAST(ts AS DATE) AS day, CAST(NULL AS VARCHAR) AS typed_null
FROM t;

-- AND/OR chains become balanced trees: long chains stay shallow.
CREATE VIEW chains AS
SELECT i FROM t
WHERE i = 1 OR i = 2 OR i = 3 OR i = 4 OR i = 5 OR i = 6 OR i = 7;
