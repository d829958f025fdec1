-- SQLstream pumps (INSERT INTO a stream or table, STARTED or STOPPED) and
-- foreign streams with their connector (SERVER, OPTIONS).
CREATE STREAM trades (ticker VARCHAR(10), price DECIMAL(10, 2), shares INT);
CREATE STREAM big_trades (ticker VARCHAR(10), amount DECIMAL(20, 2));
CREATE TABLE archive (ticker VARCHAR, amount DOUBLE, note VARCHAR);
CREATE FOREIGN STREAM prices (ticker VARCHAR(10), price DOUBLE)
    SERVER file_server OPTIONS (directory '/tmp/prices', filename_pattern 'prices.*\.csv');
CREATE PUMP big_pump STOPPED AS
    INSERT INTO big_trades SELECT STREAM rowtime, ticker, price * shares FROM trades WHERE shares > 100;
CREATE PUMP archiver AS INSERT INTO archive (ticker, amount) SELECT ticker, amount FROM big_trades;
CREATE VIEW v AS SELECT STREAM * FROM big_trades;
CREATE PUMP bad_target AS INSERT INTO v SELECT STREAM * FROM big_trades;
CREATE PUMP bad_count AS INSERT INTO big_trades SELECT STREAM ticker FROM trades;
CREATE PUMP bad_type AS INSERT INTO archive (ticker, amount) SELECT ticker, rowtime FROM big_trades;
CREATE PUMP archiver AS INSERT INTO archive (ticker) SELECT ticker FROM big_trades;
CREATE PUMP not_stream AS INSERT INTO big_trades SELECT rowtime, ticker, price FROM trades;
