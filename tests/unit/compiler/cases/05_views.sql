CREATE TABLE customers (
    id INT NOT NULL PRIMARY KEY,
    name VARCHAR,
    region VARCHAR NOT NULL,
    score DOUBLE
);

-- SELECT * is the relation itself: no projection in the plan.
CREATE VIEW everyone AS SELECT * FROM customers;

-- Qualified star, aliases with and without AS, an unnamed expression (EXPR$n).
CREATE VIEW tagged AS
SELECT c.*, UPPER(c.region) AS region_code, c.score * 2 doubled, c.score + 1
FROM customers AS c;

-- A column list renames the query's columns.
CREATE VIEW renamed (key, label) AS SELECT id, name FROM customers c WHERE c.score > 0.5;

CREATE LOCAL VIEW helper AS SELECT id, region FROM customers;
-- emit_final needs a waterline: here from LATENESS statements.
LATENESS summary.id 100;
LATENESS everyone_again.id 100;
CREATE MATERIALIZED VIEW summary WITH ('emit_final' = 'id') AS SELECT id FROM helper;

-- A view over a view, reordering its columns.
CREATE VIEW reordered AS SELECT region, id FROM helper WHERE region <> 'EU';

-- SELECT ALL is the default; a view can have properties.
CREATE VIEW everyone_again WITH ('emit_final' = '0') AS SELECT ALL id FROM everyone;
