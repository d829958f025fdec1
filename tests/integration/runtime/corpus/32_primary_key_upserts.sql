CREATE TABLE accounts (id INT NOT NULL PRIMARY KEY, owner VARCHAR, balance INT);
CREATE VIEW v AS SELECT owner, SUM(balance) AS total, COUNT(*) AS n FROM accounts GROUP BY owner;
CREATE VIEW rich AS SELECT id, owner FROM accounts WHERE balance > 3;
