-- GROUP BY, aggregates, HAVING, DISTINCT and global aggregates.
-- SUM of integers is BIGINT; AVG keeps its argument's type (INTEGER here);
-- COUNT is BIGINT NOT NULL; every other aggregate is nullable.
CREATE TABLE orders (id INT NOT NULL, customer_id INT, amount DECIMAL(10,2), qty INT, ts TIMESTAMP);

CREATE VIEW per_customer AS
SELECT customer_id, COUNT(*) AS n, COUNT(amount) AS priced, COUNT(DISTINCT qty) AS sizes,
       SUM(qty) AS total_qty, SUM(amount) AS total, AVG(qty) AS avg_qty,
       MIN(ts) AS first_ts, MAX(amount) AS biggest
FROM orders
GROUP BY customer_id
HAVING SUM(amount) > 10 OR COUNT(*) > 2;

-- Expressions of keys, keys not selected, aggregates inside expressions.
CREATE VIEW buckets AS
SELECT customer_id + 1 AS next_id, SUM(qty) * 2 AS double_qty
FROM orders
WHERE qty > 0
GROUP BY customer_id + 1, id;

-- No GROUP BY: one row, also over no rows.
CREATE VIEW everything AS SELECT COUNT(*) AS n, SUM(qty) AS qty, MAX(ts) AS latest FROM orders;

CREATE VIEW customers AS SELECT DISTINCT customer_id FROM orders;

-- Errors: an ungrouped column, an aggregate in WHERE, nested aggregates,
-- SUM of text, SUM(*), an aggregate in GROUP BY (COUNT of many arguments is valid: Calcite's).
CREATE TABLE t (a INT, v VARCHAR);
CREATE VIEW e1 AS SELECT a, v, COUNT(*) AS n FROM t GROUP BY a;
CREATE VIEW e2 AS SELECT a FROM t WHERE COUNT(*) > 1;
CREATE VIEW e3 AS SELECT MAX(SUM(a)) AS m FROM t;
CREATE VIEW e4 AS SELECT SUM(v) AS s, AVG(v) AS a FROM t;
CREATE VIEW e5 AS SELECT COUNT(a, v) AS n, SUM(*) AS s FROM t;
CREATE VIEW e6 AS SELECT a FROM t GROUP BY a, MIN(a);
CREATE VIEW e7 AS SELECT v FROM t HAVING COUNT(*) > 1;
