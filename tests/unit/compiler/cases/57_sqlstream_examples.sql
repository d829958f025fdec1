-- The SQL of spec/sqlstream-extensions.md and spec/sqlstream-rowtime-bounds.md (not in
-- sql fences there), with the DDL it implies, as a program; where the text has lost
-- or mangled something, as SQLstream's manuals write it (as written: 58_*).
CREATE STREAM TradeStream (ticker VARCHAR, price DECIMAL(10, 2), qty INTEGER, volume INTEGER);
CREATE STREAM AskStream (ticker VARCHAR, price DECIMAL(10, 2));
CREATE STREAM "OrderStream" ("orderid" INTEGER, "amount" DECIMAL(10, 2));
CREATE STREAM "FillStream" ("tradeid" INTEGER, "amount" DECIMAL(10, 2));
CREATE STREAM foo (x INTEGER, y INTEGER, z INTEGER);
CREATE STREAM Orders (orderId INTEGER, ticker VARCHAR(10), amount INTEGER);
CREATE STREAM Trades (orderId INTEGER, ticker VARCHAR(10), amount INTEGER);
CREATE STREAM events (color VARCHAR);

-- The STREAM keyword ("FROMTradeStream" in the text).
SELECT STREAM ticker, price, qty
FROM TradeStream;

-- A windowed query: without ORDER BY, a window over a stream is ordered by rowtime.
SELECT STREAM
ticker,
AVG(price * volume) OVER (RANGE INTERVAL ' 1' HOUR PRECEDING)
/ SUM(volume) OVER (RANGE INTERVAL ' 1' HOUR PRECEDING) AS weighted_avg
FROM TradeStream;

-- A windowed join (RANGE windows; the text's has no ON and a ROWS window).
SELECT STREAM
t.price as trade_price,
s.price as ask_price
FROM TradeStream OVER (RANGE CURRENT ROW) AS t
JOIN AskStream OVER (RANGE CURRENT ROW) as s ON t.ticker = s.ticker;

-- Standard peers: a frame ending at INTERVAL '0' ... PRECEDING.
SELECT STREAM ticker,
  SUM(qty) OVER (range between interval '1' second preceding and interval '0' second preceding) AS q
FROM TradeStream;

-- Rowtime bounds: a named stream, a filter, a shifted rowtime, a GROUP BY hour, a merge.
SELECT STREAM * from foo;
SELECT STREAM rowtime, (x + y), z from foo where z > 12;
SELECT STREAM rowtime + INTERVAL '0.1' SECOND AS rowtime, x FROM foo;
SELECT STREAM * FROM Orders WHERE ticker = 'ORCL';
SELECT STREAM FLOOR(rowtime TO HOUR) AS hour, color, COUNT(*) AS n
FROM events GROUP BY FLOOR(rowtime TO HOUR), color;
SELECT STREAM ROWTIME, ticker FROM Orders UNION ALL SELECT STREAM ROWTIME, ticker FROM Trades;
SELECT STREAM * FROM Orders ORDER BY ROWTIME;

-- Streaming joins: queries #1, #2 and #3 (docs/dialect.md, "Windowed stream joins").
SELECT STREAM ROWTIME, o.orderId, o.ticker,
o.amount AS orderAmount, t.amount AS tradeAmount
FROM Orders AS o
JOIN Trades OVER (RANGE INTERVAL '10' MINUTE FOLLOWING) AS t
ON o.orderId = t.orderId;
SELECT STREAM ROWTIME, o.orderId, o.ticker,
o.amount AS orderAmount, t.amount AS tradeAmount
FROM Orders OVER (RANGE INTERVAL '10' MINUTE PRECEDING) AS o
JOIN Trades AS t
ON o.orderId = t.orderId;
SELECT STREAM
   ROWTIME, o.orderId, o.ticker, o.amount AS orderAmount,
   t.orderId AS tradeOrderId, t.ticker AS tradeTicker, t.amount AS tradeAmount
 FROM Orders AS o
 FULL JOIN Trades OVER (RANGE INTERVAL '10' MINUTE FOLLOWING) AS t
 ON o.orderId = t.orderId;

-- A pump passes its source's bounds on: it inserts the rows its query selects.
CREATE STREAM orcl (orderId INTEGER, ticker VARCHAR(10), amount INTEGER);
CREATE PUMP orcl_pump AS INSERT INTO orcl SELECT STREAM * FROM Orders WHERE ticker = 'ORCL';
