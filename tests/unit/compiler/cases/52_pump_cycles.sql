-- A pump must not feed what its own query reads: through a view, through
-- another pump, or directly (SQL330, once per cycle).
CREATE STREAM a (x INT);
CREATE STREAM b (x INT);
CREATE VIEW v AS SELECT STREAM * FROM a;
CREATE PUMP p AS INSERT INTO a SELECT STREAM * FROM v;
CREATE PUMP q AS INSERT INTO b SELECT STREAM * FROM a;
CREATE PUMP r AS INSERT INTO a SELECT STREAM * FROM b;
CREATE PUMP self AS INSERT INTO b SELECT STREAM rowtime, x FROM b;
