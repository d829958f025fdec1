-- Flink's FLIP: SNAPSHOT, SEARCH_KEY, TO_CHANGELOG, FROM_CHANGELOG (docs/dialect.md).
CREATE STREAM orders (order_id INT, currency VARCHAR, amount DECIMAL(10, 2), name VARCHAR);
CREATE TABLE rates (
    currency VARCHAR NOT NULL PRIMARY KEY,
    rate DECIMAL(10, 4),
    ts TIMESTAMP LATENESS INTERVAL '1' HOUR
);
CREATE TABLE customers (name VARCHAR, tier INT, region VARCHAR);
CREATE TABLE clicks (url VARCHAR, ts TIMESTAMP LATENESS INTERVAL '10' MINUTE)
    WITH ('append_only' = 'true');

-- Point in time: a snapshot alone is the table as of each step.
CREATE VIEW now_rates AS SELECT * FROM SNAPSHOT(rates);
CREATE VIEW now_rates_named AS SELECT currency FROM SNAPSHOT(input => rates);
-- Lookup joins: each order joins the table as of the step it arrives in.
CREATE VIEW enriched AS
    SELECT o.order_id, c.tier FROM orders AS o JOIN SNAPSHOT(customers) AS c ON o.name = c.name;
CREATE VIEW enriched_left AS
    SELECT o.order_id, c.tier FROM orders o LEFT JOIN SNAPSHOT(customers) c ON o.name = c.name;
CREATE VIEW enriched_lateral AS
    SELECT o.order_id, c.region FROM orders o, LATERAL SNAPSHOT(customers) c
    WHERE o.name = c.name;
CREATE VIEW enriched_now AS
    SELECT o.order_id, c.tier FROM orders o
    JOIN customers FOR SYSTEM_TIME AS OF PROCTIME() AS c ON o.name = c.name;
CREATE VIEW enriched_now2 AS
    SELECT o.order_id, customers.tier FROM orders o
    JOIN customers FOR SYSTEM_TIME AS OF NOW() ON o.name = customers.name;
CREATE VIEW enriched_ts AS
    SELECT o.order_id, c.tier FROM orders o, customers FOR SYSTEM_TIME AS OF CURRENT_TIMESTAMP c
    WHERE o.name = c.name;
CREATE VIEW hourly_tiers AS
    SELECT STREAM FLOOR(o.rowtime TO HOUR) AS h, c.tier, COUNT(*) AS n
    FROM orders o JOIN SNAPSHOT(customers) c ON o.name = c.name
    GROUP BY FLOOR(o.rowtime TO HOUR), c.tier;
CREATE VIEW both_now AS
    SELECT a.name FROM SNAPSHOT(customers) AS a JOIN SNAPSHOT(customers) AS b ON a.name = b.name;
-- Time travel: versioned tables (a primary key) and filters (without one).
CREATE VIEW rates_then AS SELECT * FROM SNAPSHOT(rates, TIMESTAMP '2024-01-20 10:00:00');
CREATE VIEW rates_then_named AS
    SELECT currency, rate FROM SNAPSHOT(input => rates, to_time => TIMESTAMP '2024-01-20');
CREATE VIEW rates_as_of AS
    SELECT currency FROM rates FOR SYSTEM_TIME AS OF TIMESTAMP '2024-01-20 10:00:00' + INTERVAL '1' HOUR;
CREATE VIEW early_clicks AS SELECT url FROM SNAPSHOT(clicks, TIMESTAMP '2024-01-20 00:00:00');
CREATE VIEW early_orders AS SELECT order_id FROM SNAPSHOT(orders, TIMESTAMP '2024-01-20 00:00:00');
-- Event-time temporal joins (FLIP-132's orders and rates).
CREATE VIEW converted AS
    SELECT o.order_id, o.rowtime, o.amount * r.rate AS amount, r.currency
    FROM orders AS o JOIN rates FOR SYSTEM_TIME AS OF o.rowtime AS r ON o.currency = r.currency;
CREATE VIEW converted_lateral AS
    SELECT o.order_id, r.rate FROM orders AS o, LATERAL SNAPSHOT(rates, o.rowtime) AS r
    WHERE o.currency = r.currency;
CREATE VIEW converted_named AS
    SELECT o.order_id, r.rate FROM orders AS o
    LEFT JOIN LATERAL SNAPSHOT(input => rates, to_time => o.rowtime) AS r
    ON o.currency = r.currency;
CREATE VIEW converted_final WITH ('emit_final' = 'rowtime') AS
    SELECT o.rowtime, o.order_id, r.rate FROM orders o
    JOIN rates FOR SYSTEM_TIME AS OF o.rowtime AS r ON o.currency = r.currency;
CREATE VIEW clicks_before AS
    SELECT o.order_id, k.url FROM orders o, LATERAL SNAPSHOT(clicks, o.rowtime) k;
-- SEARCH_KEY: lookups by key.
CREATE VIEW searched AS
    SELECT o.order_id, c.tier FROM orders o, LATERAL SEARCH_KEY(customers, DESCRIPTOR(name), o.name) c;
CREATE VIEW searched_named AS
    SELECT o.order_id, c.tier FROM orders o, LATERAL SEARCH_KEY(
        input => customers, on_key => DESCRIPTOR(name), lookup => o.name) AS c;
CREATE VIEW searched_composite AS
    SELECT o.order_id, c.tier FROM orders o LEFT JOIN LATERAL SEARCH_KEY(
        input => customers, on_key => DESCRIPTOR(name, region), lookup => (o.name, o.currency),
        options => MAP['async', 'true', 'retry-predicate', 'lookup_miss']) AS c ON TRUE;
CREATE VIEW searched_constant AS
    SELECT tier FROM SEARCH_KEY(customers, DESCRIPTOR(name), 'ada');
-- Changelogs.
CREATE VIEW rate_changes AS SELECT * FROM TO_CHANGELOG(rates);
CREATE VIEW rate_inserts AS SELECT payload.* FROM TO_CHANGELOG(rates) WHERE op = 0;
CREATE VIEW rate_fields AS
    SELECT op, payload.currency, s.payload.rate AS r FROM TO_CHANGELOG(input => rates) AS s;
CREATE VIEW order_changes AS SELECT STREAM op, payload FROM TO_CHANGELOG(orders);
CREATE VIEW rate_stream AS SELECT STREAM * FROM TO_CHANGELOG(rates);
CREATE VIEW view_changes AS SELECT * FROM TO_CHANGELOG(enriched);
CREATE VIEW rates_again AS SELECT * FROM FROM_CHANGELOG(rate_changes);
CREATE VIEW rates_inserted AS
    SELECT currency, rate FROM FROM_CHANGELOG((SELECT op, payload FROM rate_changes WHERE op <> 3));
