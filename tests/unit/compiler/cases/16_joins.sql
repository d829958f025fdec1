-- Joins, subqueries in FROM and WITH. Column indexes of a join's condition
-- address the left input's columns followed by the right's; the side an outer
-- join can fill with NULLs becomes nullable.
CREATE TABLE orders (id INT NOT NULL, customer_id INT NOT NULL, amount DOUBLE);
CREATE TABLE customers (id INT NOT NULL, name VARCHAR NOT NULL);
CREATE TABLE regions (customer_id INT NOT NULL, region VARCHAR);

CREATE VIEW inner_join AS
SELECT o.id, c.name, o.amount FROM orders o JOIN customers c ON o.customer_id = c.id;
CREATE VIEW left_join AS
SELECT o.id, c.name FROM orders AS o LEFT OUTER JOIN customers AS c ON o.customer_id = c.id;
CREATE VIEW right_join AS
SELECT o.id, c.name FROM orders o RIGHT JOIN customers c ON o.customer_id = c.id;
CREATE VIEW full_join AS
SELECT o.id, c.name FROM orders o FULL JOIN customers c ON o.customer_id = c.id AND c.id > 0;
CREATE VIEW cross_join AS SELECT o.id, c.name FROM orders o CROSS JOIN customers c;
CREATE VIEW comma_join AS SELECT o.id, c.name FROM orders o, customers c WHERE o.customer_id = c.id;
-- USING: the unqualified name (and *) sees the left side's column once.
CREATE VIEW using_join AS SELECT * FROM orders JOIN regions USING (customer_id);
CREATE VIEW three_way AS
SELECT o.id, c.name, r.region
FROM orders o JOIN customers c ON o.customer_id = c.id LEFT JOIN regions r ON r.customer_id = c.id;

CREATE VIEW subquery AS
SELECT big.id FROM (SELECT id, amount FROM orders WHERE amount > 100) AS big WHERE big.amount < 1000;
CREATE VIEW unnamed_subquery AS SELECT id FROM (SELECT id FROM orders);
CREATE VIEW with_query AS
WITH big (order_id, value) AS (SELECT id, amount FROM orders WHERE amount > 100),
     bigger AS (SELECT order_id FROM big WHERE value > 1000)
SELECT order_id FROM bigger;
CREATE VIEW joined_totals AS
SELECT c.name, t.total
FROM customers c JOIN (SELECT customer_id, SUM(amount) AS total FROM orders GROUP BY customer_id) t
  ON t.customer_id = c.id;

-- Errors: a condition that is not BOOLEAN, a USING column missing on one side,
-- USING columns of incomparable types, a WITH name outside its query.
CREATE VIEW j1 AS SELECT o.id FROM orders o JOIN customers c ON o.id + c.id;
CREATE VIEW j2 AS SELECT * FROM orders JOIN customers USING (name);
CREATE VIEW j3 AS SELECT * FROM customers c JOIN (SELECT name AS id FROM customers) x USING (id);
CREATE VIEW j4 AS SELECT order_id FROM big;
CREATE VIEW natural_join AS SELECT * FROM orders NATURAL JOIN regions;
