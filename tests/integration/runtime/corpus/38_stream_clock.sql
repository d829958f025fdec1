CREATE STREAM trades (ticker VARCHAR, price INT);
CREATE VIEW v AS SELECT ticker, COUNT(*) AS n, MAX(price) AS hi FROM trades GROUP BY ticker;
CREATE VIEW cheap AS SELECT rowtime, ticker FROM trades WHERE price < 3;
