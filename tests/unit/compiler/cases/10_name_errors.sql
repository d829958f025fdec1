CREATE TABLE orders (id BIGINT NOT NULL, amount DECIMAL(10, 2), customer_id INT);
CREATE TABLE customers (id INT, name VARCHAR);

-- Unknown relation, with a suggestion; unknown columns, with suggestions.
CREATE VIEW v1 AS SELECT id FROM ordres;
CREATE VIEW v2 AS SELECT amout, o.custmer_id, z FROM orders o;
CREATE VIEW v3 AS SELECT x.id FROM orders AS o;
CREATE VIEW v4 AS SELECT * FROM "Orders";

-- Duplicates: relations, columns, view output names, FROM aliases.
CREATE TABLE orders (id INT);
CREATE VIEW customers AS SELECT id FROM orders;
CREATE TABLE dup_cols (a INT, b INT, a VARCHAR);
CREATE VIEW dup_out AS SELECT id, amount AS id FROM orders;
CREATE VIEW dup_list (a, a, b) AS SELECT id, amount, customer_id FROM orders;
CREATE STREAM s (rowtime TIMESTAMP, x INT);

-- Declared later; a view reading itself.
CREATE VIEW early AS SELECT * FROM late;
CREATE TABLE late (x INT);
CREATE VIEW selfish AS SELECT * FROM selfish;

-- Ambiguity needs two relations: joins are not compiled yet, but names in them are checked.
CREATE VIEW joined AS SELECT id, name FROM orders o JOIN customers c ON o.customer_id = c.id;
CREATE VIEW twice AS SELECT o.id FROM orders o JOIN orders o ON o.id = o.id;

-- A view that failed is unknown to later statements, silently (no cascade).
CREATE VIEW downstream AS SELECT anything FROM v1;
