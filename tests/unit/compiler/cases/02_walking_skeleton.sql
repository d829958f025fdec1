-- The walking skeleton: one table, one filtered and projected view.
CREATE TABLE orders (
    id BIGINT NOT NULL PRIMARY KEY,
    customer VARCHAR,
    amount DECIMAL(10, 2) NOT NULL,
    placed_at TIMESTAMP
);

CREATE VIEW big_orders AS
SELECT id, customer, amount
FROM orders
WHERE amount > 100;
