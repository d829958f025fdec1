-- Statements a client sends to a running server, which a program does not run: rows
-- enter a pipeline through its ingress (or weir replay's step lines), not INSERT
-- (SQL402, whose hint is the step line of the statement's rows); DROP (SQL404); a
-- prepared statement's ? parameters (SQL403). A pump is the INSERT a program runs.

-- Feldera's LATENESS example: five insertions, each as a separate transaction.
CREATE TABLE T (ts TIMESTAMP NOT NULL LATENESS INTERVAL '1' HOUR, location VARCHAR);
INSERT INTO T VALUES('2020-01-01 00:00:00', 'home');
INSERT INTO T VALUES('2020-01-01 01:00:00', 'office');
INSERT INTO T VALUES('2020-01-01 00:10:00', 'shop');
INSERT INTO T VALUES('2020-01-01 02:00:00', 'home');
INSERT INTO T VALUES('2020-01-01 00:20:00', 'friend');

-- SQLstream: a named stream and its producers.
CREATE STREAM foo (x INTEGER, y INTEGER, z INTEGER);
INSERT into foo (x, y) VALUES(101, 118);
SELECT STREAM * from foo;
CREATE STREAM Orders (ticker VARCHAR(10));
INSERT INTO Orders (rowtime, ticker) VALUES (?, ?);
CREATE STREAM Logger ("timestamp" TIMESTAMP, level VARCHAR, message VARCHAR);
INSERT EXPEDITED INTO Logger("timestamp", level, message) VALUES (?, ?, ?);

-- More rows than a hint shows, an unknown table, a query's rows.
INSERT INTO T (location, ts) VALUES ('a', NULL), ('b', NULL), ('c', NULL), ('d', -1.5);
INSERT INTO nowhere VALUES (1, 'x');
INSERT INTO foo SELECT STREAM rowtime, x, y, z FROM foo WHERE z > nope;
CREATE STREAM orcl (ticker VARCHAR(10));
CREATE PUMP orcl_pump AS INSERT INTO orcl SELECT STREAM * FROM Orders WHERE ticker = 'ORCL';

CREATE FOREIGN STREAM streamname (column1 INTEGER, column2 VARCHAR);
DROP FOREIGN STREAM streamname;
DROP VIEW IF EXISTS v;
CREATE VIEW with_parameter AS SELECT STREAM * FROM foo WHERE x > ?;
