-- Each lexical error is reported once; the parser stays silent about it.
CREATE TABLE ok (a INT);
CREATE VIEW v1 AS SELECT a @ 1 FROM ok;
CREATE VIEW v2 AS SELECT "" FROM ok;
CREATE VIEW v3 AS SELECT a FROM ok WHERE a = #;
CREATE VIEW still_checked AS SELECT missing FROM ok;
CREATE VIEW v4 AS SELECT 'never closed FROM ok;
