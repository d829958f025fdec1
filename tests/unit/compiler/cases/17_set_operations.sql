-- UNION ALL, UNION (distinct) and VALUES; sides are cast to their common type.
CREATE TABLE a (x INT NOT NULL, y VARCHAR);
CREATE TABLE b (x BIGINT, y VARCHAR NOT NULL);

CREATE VIEW all_rows AS SELECT x, y FROM a UNION ALL SELECT x, y FROM b UNION ALL SELECT x, y FROM a;
CREATE VIEW distinct_rows AS SELECT x FROM a UNION SELECT x FROM b;
CREATE VIEW constants AS VALUES (1, 'one'), (2, NULL), (3000000000, 'big');
CREATE VIEW named_constants (n, word) AS VALUES (1, 'one');
CREATE VIEW mixed AS SELECT x FROM a UNION ALL SELECT * FROM (VALUES (10)) AS v (n);
CREATE VIEW mixed2 AS SELECT x FROM a UNION ALL SELECT * FROM (VALUES (10)) AS v;

-- Errors: different numbers of columns, incompatible types, uneven VALUES rows.
CREATE VIEW u1 AS SELECT x FROM a UNION ALL SELECT x, y FROM b;
CREATE VIEW u2 AS SELECT x, y FROM a UNION SELECT y, x FROM b;
CREATE VIEW u3 AS VALUES (1, 'a'), (2);
CREATE VIEW u4 AS VALUES (1), ('a');
CREATE VIEW u0 AS SELECT x FROM a UNION ALL SELECT * FROM (VALUES (10, 11)) AS v (n);
