"""ASOF JOIN (semantic/asof_joins.py): each trade with the latest quote of its symbol
at or before it, step by step, as quotes come and go."""

from typing import Any

from pyspark.sql import SparkSession

from tests.integration.runtime.replays import Row, contents_after_steps, in_order

PROGRAM = """
CREATE TABLE trades (sym VARCHAR, ts TIMESTAMP, qty INT);
CREATE TABLE quotes (sym VARCHAR, ts TIMESTAMP, price INT);
CREATE VIEW priced AS
SELECT t.sym, t.qty, q.price
FROM trades t LEFT ASOF JOIN quotes q MATCH_CONDITION (t.ts >= q.ts) ON t.sym = q.sym;
CREATE VIEW next_quote AS
SELECT t.qty, q.price FROM trades t ASOF JOIN quotes q MATCH_CONDITION (q.ts > t.ts);
"""


def at(minute: int) -> str:
    return f"2020-01-01 10:{minute:02d}:00"


def quote(sym: str, minute: int, price: int) -> dict[str, Any]:
    return {"sym": sym, "ts": at(minute), "price": price}


def trade(sym: str | None, minute: int, qty: int) -> dict[str, Any]:
    return {"sym": sym, "ts": at(minute), "qty": qty}


def priced(sym: str | None, qty: int, price: int | None) -> Row:
    return {"sym": sym, "qty": qty, "price": price}


def test_each_left_row_takes_its_closest_right_row(spark: SparkSession) -> None:
    closer, closer_cheaper = quote("A", 2, 3), quote("A", 2, 0)
    steps = [
        {
            "quotes": [{"insert": quote("A", 0, 1)}, {"insert": quote("A", 5, 2)}],
            # A trade at 10:03, twice; one before any quote; one with no symbol.
            "trades": [
                {"insert": trade("A", 3, 10)},
                {"insert": trade("A", 3, 10)},
                {"insert": {"sym": "A", "ts": "2020-01-01 09:00:00", "qty": 5}},
                {"insert": trade(None, 6, 4)},
            ],
        },
        # Two quotes at 10:02, closer to 10:03: the least row of the two, price 0.
        {"quotes": [{"insert": closer}, {"insert": closer_cheaper}]},
        # Without them, 10:00's again.
        {"quotes": [{"delete": closer_cheaper}, {"delete": closer}]},
    ]
    after = contents_after_steps(spark, PROGRAM, steps)
    unmatched = [priced("A", 5, None), priced(None, 4, None)]
    assert [a["priced"] for a in after] == [
        in_order([priced("A", 10, 1), priced("A", 10, 1), *unmatched]),
        in_order([priced("A", 10, 0), priced("A", 10, 0), *unmatched]),
        in_order([priced("A", 10, 1), priced("A", 10, 1), *unmatched]),
    ]
    # The first quote after each trade, of any symbol: none after 10:06's (dropped).
    assert after[0]["next_quote"] == in_order(
        [{"qty": 10, "price": 2}, {"qty": 10, "price": 2}, {"qty": 5, "price": 1}]
    )
