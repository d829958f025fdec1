CREATE TABLE t (id INT, s VARCHAR);
CREATE VIEW v AS SELECT id, UPPER(s) AS u, LOWER(s) AS l, CHAR_LENGTH(s) AS n, s || '-' || s AS twice, SUBSTRING(s FROM 1 FOR 1) AS first FROM t WHERE s LIKE 'a%' OR s LIKE '%a';
