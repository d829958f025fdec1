-- Scalar functions: numeric, string and comparison functions, with the SQL
-- standard keyword forms SUBSTRING(s FROM i FOR n), POSITION(a IN s), TRIM(LEADING c FROM s).
CREATE TABLE t (a INT, b DOUBLE, s VARCHAR, d DECIMAL(10, 2));
CREATE VIEW v AS SELECT GREATEST(a, 1) AS g, LEAST(a, 3) AS l, ROUND(b, 1) AS r, ROUND(d) AS rd, POWER(b, 2) AS p, SQRT(b) AS q,
  CHAR_LENGTH(s) AS cl, LENGTH(s) AS len, SUBSTRING(s FROM 2 FOR 2) AS sub, SUBSTR(s, 2) AS sub2,
  TRIM(s) AS tr, TRIM(LEADING 'x' FROM s) AS lt, TRIM(TRAILING FROM s) AS rt, REPLACE(s, 'a', 'b') AS rep,
  POSITION('b' IN s) AS pos, NULLIF(a, 1) AS nu, MOD(a, 2) AS m, LN(b) AS ln, EXP(0) AS e, LOG10(b) AS lg,
  SIGN(a) AS sg, FLOOR(b) AS fl, CEILING(d) AS ce, INITCAP(s) AS ic
FROM t;
CREATE VIEW bad AS SELECT SUBSTRING(a > 0 FROM 1), ROUND(b, a), MOD(s, 2), GREATEST(a, s) FROM t;
