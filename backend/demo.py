"""The demo program and pipeline that `make run` serves."""

DEMO_NAME = "demo"

DEMO_SQL = """\
-- Orders arrive in a table; the view keeps the large ones.
CREATE TABLE orders (
    id BIGINT NOT NULL,
    customer VARCHAR NOT NULL,
    amount DECIMAL(10, 2) NOT NULL,
    placed_at TIMESTAMP NOT NULL
);

CREATE VIEW large_orders AS
SELECT id, customer, amount
FROM orders
WHERE amount >= 100;
"""
