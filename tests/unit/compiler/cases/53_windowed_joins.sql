-- SQLstream's windowed stream joins (docs/dialect.md, "Windowed stream joins").
CREATE STREAM Orders (orderId INT NOT NULL, ticker VARCHAR NOT NULL, amount INT NOT NULL);
CREATE STREAM Trades (orderId INT NOT NULL, ticker VARCHAR NOT NULL, amount INT NOT NULL);
CREATE STREAM TradeStream (ticker VARCHAR, price DECIMAL(10, 2));
CREATE STREAM AskStream (ticker VARCHAR, price DECIMAL(10, 2));

-- Join query #1: each order with the trades of the next ten minutes, at the order's time.
CREATE VIEW matched AS
SELECT STREAM ROWTIME, o.orderId, o.ticker, o.amount AS orderAmount, t.amount AS tradeAmount
FROM Orders AS o
JOIN Trades OVER (RANGE INTERVAL '10' MINUTE FOLLOWING) AS t
ON o.orderId = t.orderId;

-- Join query #2: each trade with the orders of the ten minutes before it.
CREATE VIEW matched_by_trade AS
SELECT STREAM ROWTIME, o.orderId, t.amount AS tradeAmount
FROM Orders OVER (RANGE INTERVAL '10' MINUTE PRECEDING) AS o
JOIN Trades AS t ON o.orderId = t.orderId;

-- Join query #3: a full outer join; unmatched rows come with NULLs.
CREATE VIEW all_orders_and_trades AS
SELECT STREAM ROWTIME, o.orderId, o.ticker, t.orderId AS tradeOrderId, t.amount
FROM Orders AS o
FULL JOIN Trades OVER (RANGE INTERVAL '10' MINUTE FOLLOWING) AS t
ON o.orderId = t.orderId;

-- Both sides windowed, the spec's RANGE CURRENT ROW, and each side's own rowtime.
CREATE VIEW prices AS
SELECT STREAM ROWTIME, t.rowtime AS trade_time, s.rowtime AS ask_time,
  t.price AS trade_price, s.price AS ask_price
FROM TradeStream OVER (RANGE CURRENT ROW) AS t
LEFT JOIN AskStream OVER (RANGE BETWEEN INTERVAL '1' SECOND PRECEDING
                                    AND INTERVAL '2' SECOND FOLLOWING) AS s
ON t.ticker = s.ticker;

-- A named window, and a windowed join under a streaming aggregate.
CREATE VIEW hourly_fills AS
SELECT STREAM FLOOR(ROWTIME TO HOUR) AS hour, o.orderId, SUM(t.amount) AS filled
FROM Orders AS o
LEFT JOIN Trades OVER next_hour AS t ON o.orderId = t.orderId
GROUP BY FLOOR(ROWTIME TO HOUR), o.orderId
WINDOW next_hour AS (RANGE INTERVAL '1' HOUR FOLLOWING);
