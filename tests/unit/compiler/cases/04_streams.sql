-- A stream has an implicit first column: rowtime TIMESTAMP NOT NULL.
CREATE STREAM trades (
    ticker VARCHAR NOT NULL,
    price DOUBLE,
    shares INTEGER
);

CREATE STREAM ticks (symbol VARCHAR) WITH ('append_only' = 'true');

CREATE VIEW big_trades AS
SELECT STREAM rowtime, ticker, price * shares AS notional
FROM trades
WHERE shares >= 1000;

CREATE VIEW all_ticks AS SELECT STREAM * FROM ticks;
