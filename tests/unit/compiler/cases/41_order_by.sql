-- ORDER BY and LIMIT / OFFSET / FETCH. Without a limit ORDER BY only orders each
-- step's output; with one it is a top-k. On a stream the leading key must be
-- monotonic, and rows are held until that key is final (Calcite's "Sorting").
CREATE STREAM Orders (productId INT NOT NULL, orderId INT NOT NULL, units INT NOT NULL);
CREATE TABLE scores (id INT NOT NULL, name VARCHAR, score INT);

CREATE VIEW sorted_orders AS
SELECT STREAM FLOOR(rowtime TO hour) AS rowtime, productId, orderId, units
FROM Orders
ORDER BY FLOOR(rowtime TO hour) ASC, units DESC;

CREATE VIEW top3 AS SELECT id, score FROM scores ORDER BY score DESC NULLS LAST, id LIMIT 3;
CREATE VIEW second_page AS SELECT id FROM scores ORDER BY 1 LIMIT 10 OFFSET 10;
CREATE VIEW first_name AS SELECT name FROM scores ORDER BY name FETCH FIRST 1 ROW ONLY;
CREATE VIEW skip_two AS SELECT id FROM scores ORDER BY id OFFSET 2 ROWS;
CREATE VIEW just_ordered AS SELECT id, name FROM scores ORDER BY UPPER(name);

CREATE VIEW not_monotonic AS SELECT STREAM productId FROM Orders ORDER BY productId;
CREATE VIEW bad_position AS SELECT id FROM scores ORDER BY 3;
CREATE VIEW bad_limit AS SELECT id FROM scores LIMIT -1;
CREATE VIEW bad_offset AS SELECT id FROM scores ORDER BY id OFFSET 1.5;
CREATE VIEW bad_key AS SELECT id FROM scores ORDER BY nope;
