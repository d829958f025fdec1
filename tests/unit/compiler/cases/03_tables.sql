-- Every column type, constraints, and table properties.
CREATE TABLE all_types (
    b BOOLEAN,
    b2 BOOL,
    t TINYINT,
    s SMALLINT,
    i INT,
    i2 INTEGER,
    l BIGINT,
    r REAL,
    f FLOAT,
    d DOUBLE,
    dp DOUBLE PRECISION,
    dec DECIMAL,
    dec2 DECIMAL(5),
    num NUMERIC(12, 4),
    v VARCHAR,
    v2 VARCHAR(20),
    c CHAR(3),
    cv CHARACTER VARYING(10),
    st STRING,
    tx TEXT,
    dt DATE,
    tm TIME,
    tm3 TIME(3),
    ts TIMESTAMP,
    ts6 TIMESTAMP(6) WITHOUT TIME ZONE
);

-- A composite key makes its columns NOT NULL; NULL is the default.
CREATE TABLE order_lines (
    order_id BIGINT,
    line_no INT NULL,
    qty INT NOT NULL,
    PRIMARY KEY (order_id, line_no)
) WITH ('materialized' = 'true');

CREATE TABLE events (
    id BIGINT PRIMARY KEY,
    "When" TIMESTAMP NOT NULL LATENESS INTERVAL '1:00' HOURS TO MINUTES,
    seen TIMESTAMP WATERMARK INTERVAL '10' SECONDS,
    seq BIGINT LATENESS 100
) WITH (
    'append_only' = 'TRUE',
    'connectors' = '[]'
);

-- Quoted names keep their case; unquoted ones are lower-cased.
CREATE TABLE "Mixed" ("Id" INT, Name VARCHAR);
