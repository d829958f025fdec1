-- INTERSECT and EXCEPT, with and without ALL: multiset counts min(l, r) and
-- max(l - r, 0), or presence. INTERSECT binds tighter than UNION and EXCEPT.
CREATE TABLE orders (id INT, customer_id INT, amount DOUBLE, ts TIMESTAMP);
CREATE TABLE customers (id BIGINT, name VARCHAR);
CREATE TABLE events (id INT, at TIMESTAMP NOT NULL LATENESS INTERVAL '1' MINUTE)
    WITH ('append_only' = 'true');

CREATE VIEW both_ids AS SELECT id FROM orders INTERSECT SELECT id FROM customers;
CREATE VIEW both_all AS SELECT id FROM orders INTERSECT ALL SELECT id FROM customers;
CREATE VIEW only_orders AS SELECT id FROM orders EXCEPT SELECT id FROM customers;
CREATE VIEW only_all AS SELECT id FROM orders EXCEPT ALL SELECT id FROM customers;
CREATE VIEW mixed AS SELECT id FROM orders UNION ALL SELECT id FROM customers
    INTERSECT SELECT id FROM orders EXCEPT SELECT id FROM customers;
-- Insert-only inputs: INTERSECT only inserts, keeps the waterline, and warns about state.
CREATE VIEW seen_twice AS SELECT id, at FROM events INTERSECT ALL SELECT id, at FROM events;
CREATE VIEW unseen AS SELECT id, at FROM events EXCEPT SELECT id, at FROM events;

CREATE VIEW wrong_width AS SELECT id FROM orders EXCEPT SELECT id, name FROM customers;
CREATE VIEW wrong_type AS SELECT name FROM customers INTERSECT SELECT amount FROM orders;
