-- SQLstream's examples exactly as spec/sqlstream-*.md write them, where the text lost
-- or mangled something: each gets a precise diagnostic (the repaired ones: 57_*).
CREATE STREAM TradeStream (ticker VARCHAR, price DECIMAL(10, 2), qty INTEGER, volume INTEGER);
CREATE STREAM AskStream (ticker VARCHAR, price DECIMAL(10, 2));
CREATE STREAM "OrderStream" ("orderid" INTEGER, "amount" DECIMAL(10, 2));
CREATE STREAM "TradeStream" ("tradeid" INTEGER, "amount" DECIMAL(10, 2));
CREATE STREAM Trades (ticker VARCHAR, price DECIMAL(10, 2));
CREATE STREAM foo (x INTEGER, y INTEGER, z INTEGER);

-- "FROMTradeStream": an alias of qty, so there is no FROM.
SELECT STREAM ticker, price, qty
FROMTradeStream;

-- A join without ON (SQL101); a ROWS join window is not compiled (SQL401).
SELECT STREAM
t.price as trade_price,
s.price as ask_price
FROM TradeStream OVER (RANGE CURRENT ROW) AS t
JOIN AskStream OVER (ROWS CURRENT ROW) as s;
SELECT STREAM t.price, s.price
FROM TradeStream OVER (RANGE CURRENT ROW) AS t
JOIN AskStream OVER (ROWS CURRENT ROW) as s ON t.ticker = s.ticker;

-- "OrderStream" is only known as "o" in this FROM.
SELECT STREAM "o"."orderid", sum("t"."amount")
FROM "OrderStream" OVER (RANGE CURRENT ROW) AS "o"
LEFT JOIN "TradeStream"
OVER (RANGE INTERVAL '1' HOUR FOLLOWING) AS "t"
ON "o"."orderid" = "t"."tradeid"
GROUP BY FLOOR("OrderStream".ROWTIME TO HOUR),"o"."orderid"
HAVING "o"."amount" <> SUM("t"."amount");

-- A ')' too many.
SELECT STREAM
ticker, price, a10, a50
FROM (
SELECT STREAM
ticker,
price,
avg(price) OVER last10Minutes AS a10,
avg(price) OVER last50Minutes AS a50
FROM Trades)
WHERE first_value(
CASE
WHEN a10 < a50 THEN -1
WHEN a10 = a50 THEN 0
ELSE 1
END)) OVER previousRow !=
CASE
WHEN a10 < a50 THEN -1
WHEN a10 = a50 THEN 0
ELSE 1
END
WINDOW
last10minutes AS (
PARTITION BY ticker
RANGE INTERVAL '10' MINUTE PRECEDING),
last50minutes AS (
PARTITION BY ticker
RANGE INTERVAL '50' MINUTE PRECEDING),
previousRow AS (
PARTITION BY ticker
ROWS 1 PRECEDING);

-- "rowtime + 100": 100 milliseconds in SQLstream, an INTERVAL here.
SELECT STREAM rowtime + 100 AS rowtime, x FROM foo;

-- Join query #1 and #3 as the text has them (their first lines lost).
ROWTIME, o.orderId, o.ticker,
o.amount AS orderAmount, t.amount AS tradeAmount
FROM Orders AS o
ON o.orderId = t.orderId;
SELECT STREAM
   ROWTIME, o.orderId, o.ticker, o.amount AS orderAmount,
   t.ticker, t.tradeId, t.amount AS tradeAmount,
 FROM Orders AS o
 ON o.orderId = t.orderId;

-- A template.
CREATE STREAM streamname (column1,… columnn);
