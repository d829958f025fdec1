CREATE TABLE clicks (id INT, page VARCHAR, ms INT) WITH ('append_only' = 'true');
CREATE VIEW v AS SELECT page, COUNT(*) AS n, MAX(ms) AS slowest FROM clicks GROUP BY page;
