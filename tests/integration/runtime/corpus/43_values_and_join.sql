CREATE TABLE t (id INT, g VARCHAR, x INT);
CREATE VIEW labels AS SELECT * FROM (VALUES ('a', 'first'), ('b', 'second')) AS l (g, label);
CREATE VIEW v AS SELECT t.id, labels.label FROM t JOIN labels ON t.g = labels.g;
-- oracle labels: SELECT * FROM (VALUES ('a', 'first'), ('b', 'second')) AS l (g, label)
