"""SQLstream's streaming join examples (spec/sqlstream-rowtime-bounds.md, "Examples of
Streaming Joins"), row for row, step by step, through `weir replay`.

The three queries run in one replay: #1 and #2 read Orders and Trades, #3 reads its own
copies (Orders3 and Trades3) with the document's extra unmatched order. The query texts
are SQLstream's (the spec copy lost their JOIN ... OVER lines). Step 6 is not in the
document: bounds past every time, to show what is still held after its step 5.

Weir emits a row once no future output row can have an earlier rowtime, given both
inputs' clocks and the rows the join keeps (docs/dialect.md, "Windowed stream joins").
That one rule gives query #1's table exactly and #3's except its last row; where the
document's tables follow no consistent rule, the tests say so:

- Query #2, step 2: the document holds the (10:04:00, YHOO) row until step 4; Weir
  emits it at step 2. After step 2 the only output rows still possible are at 10:04:00
  or later (a trade's rowtime, and no trade before 10:04:00 can still come into an
  order's window), so it is already in order. The document's reason ("another Order
  record with orderId=1 ... would generate another output row time-stamped 10:02:00")
  cannot happen: an order arriving after step 2 is at 10:03:00 or later, after that
  trade. And query #1 emits its 10:00:00 rows at step 2 although another 10:00:00 row
  (a trade for order 1 before 10:10:00) can still come: a rule that held the YHOO row
  would hold those too, and YHOO's row in query #1 forever (order 2's window is open
  until 10:13:00, past every bound of the document).
- Query #3, step 5: the document emits the unmatched 10:12:00 trade at once; Weir at
  step 6. At step 5 the Orders clock is 10:10:00, so an order for id 1 between
  10:10:00 and 10:12:00 could still match that trade (it would be inside the order's
  ten-minute window), and order 2 (10:03:00) could still match a trade before
  10:13:00, an output row at 10:03:00 that must come before a 10:12:00 row.
- Query #3's select list names t.ticker, t.tradeId, but its trades have no tradeId and
  its table shows the trade's order id, ticker and amount: the view selects those.
"""

import json
from typing import Any

import pytest
from pyspark.sql import SparkSession

from worker.replay import compile_with_queries, replay

COLUMNS = "(orderId INT NOT NULL, ticker VARCHAR NOT NULL, amount INT NOT NULL)"
PROGRAM = f"""
CREATE STREAM Orders {COLUMNS};
CREATE STREAM Trades {COLUMNS};
CREATE STREAM Orders3 {COLUMNS};
CREATE STREAM Trades3 {COLUMNS};

CREATE VIEW query1 AS
SELECT STREAM ROWTIME, o.orderId, o.ticker,
  o.amount AS orderAmount, t.amount AS tradeAmount
FROM Orders AS o
JOIN Trades OVER (RANGE INTERVAL '10' MINUTE FOLLOWING) AS t
ON o.orderId = t.orderId;

CREATE VIEW query2 AS
SELECT STREAM ROWTIME, o.orderId, o.ticker,
  o.amount AS orderAmount, t.amount AS tradeAmount
FROM Orders OVER (RANGE INTERVAL '10' MINUTE PRECEDING) AS o
JOIN Trades AS t
ON o.orderId = t.orderId;

CREATE VIEW query3 AS
SELECT STREAM ROWTIME, o.orderId, o.ticker, o.amount AS orderAmount,
  t.orderId AS tradeOrderId, t.ticker AS tradeTicker, t.amount AS tradeAmount
FROM Orders3 AS o
FULL JOIN Trades3 OVER (RANGE INTERVAL '10' MINUTE FOLLOWING) AS t
ON o.orderId = t.orderId;

CREATE VIEW fills_per_minute AS
SELECT STREAM FLOOR(ROWTIME TO MINUTE) AS minute, COUNT(*) AS fills
FROM Orders AS o
JOIN Trades OVER (RANGE INTERVAL '10' MINUTE FOLLOWING) AS t
ON o.orderId = t.orderId
GROUP BY FLOOR(ROWTIME TO MINUTE);
"""


def ts(clock: str) -> str:
    return f"2006-10-10 {clock}"


def rows(*values: tuple[str, int, str, int]) -> list[dict[str, Any]]:
    return [{"rowtime": ts(t), "orderId": i, "ticker": k, "amount": a} for t, i, k, a in values]


def bound(clock: str) -> list[dict[str, Any]]:
    return [{"bound": ts(clock)}]


ORDERS = rows(("10:00:00", 1, "ORCL", 100), ("10:03:00", 2, "YHOO", 25))
TRADES = rows(("10:02:00", 1, "ORCL", 60), ("10:04:00", 2, "YHOO", 25), ("10:07:30", 1, "ORCL", 30))
LATE_TRADE = rows(("10:12:00", 1, "ORCL", 10))
STEPS = [
    {"Orders": ORDERS, "Orders3": rows(("10:00:00", 0, "IBM", 110)) + ORDERS},
    {"Trades": TRADES, "Trades3": TRADES},
    {"Trades": bound("10:11:00"), "Trades3": bound("10:11:00")},
    {"Orders": bound("10:10:00"), "Orders3": bound("10:10:00")},
    {"Trades": LATE_TRADE, "Trades3": LATE_TRADE},
    {
        "Orders": bound("10:13:00"),
        "Trades": bound("10:14:00"),
        "Orders3": bound("10:13:00"),
        "Trades3": bound("10:14:00"),
    },
]


@pytest.fixture(scope="module")
def emitted(spark: SparkSession) -> dict[str, list[tuple[int, tuple[Any, ...]]]]:
    """Each view's (step, row values) insertions, in order; fails on any deletion."""
    result = compile_with_queries(PROGRAM, [])
    assert not result.has_errors, result.diagnostics_json()
    lines = [json.dumps(step) for step in STEPS]
    by_view: dict[str, list[tuple[int, tuple[Any, ...]]]] = {}
    for record in replay(spark, result.to_json()["plan"], lines):
        assert "view" in record, record  # nothing is dropped
        for change in record["changes"]:
            assert "insert" in change, f"a stream only inserts: {record}"
            values = tuple(change["insert"].values())
            by_view.setdefault(record["view"], []).append((record["step"], values))
    for found in by_view.values():
        found.sort(key=lambda e: (e[0], e[1][0], str(e[1])))
        times = [values[0] for _, values in found]
        assert times == sorted(times), "a stream's rows come in rowtime order"
    return by_view


def test_query_1_orders_matched_by_a_trade_within_ten_minutes(emitted: Any) -> None:
    """The document's table exactly: the order's rowtime; YHOO once Trades passes 10:10."""
    assert emitted["query1"] == [
        (2, (ts("10:00:00"), 1, "ORCL", 100, 30)),
        (2, (ts("10:00:00"), 1, "ORCL", 100, 60)),
        (3, (ts("10:03:00"), 2, "YHOO", 25, 25)),
    ]


def test_query_2_the_trade_s_rowtime_and_its_timing(emitted: Any) -> None:
    """The document's rows, one of them two steps earlier (the module's docstring)."""
    assert emitted["query2"] == [
        (2, (ts("10:02:00"), 1, "ORCL", 100, 60)),
        (2, (ts("10:04:00"), 2, "YHOO", 25, 25)),  # the document: step 4
        (4, (ts("10:07:30"), 1, "ORCL", 100, 30)),
    ]


def test_query_3_full_outer_join_emits_unmatched_rows_when_they_leave_their_window(
    emitted: Any,
) -> None:
    """A superset of query #1 with the same rowtimes; IBM's unmatched order at its own
    rowtime once Trades passes 10:10; the unmatched trade at its rowtime once Orders
    passes it (the document: step 5, the module's docstring)."""
    assert emitted["query3"] == [
        (2, (ts("10:00:00"), 1, "ORCL", 100, 1, "ORCL", 30)),
        (2, (ts("10:00:00"), 1, "ORCL", 100, 1, "ORCL", 60)),
        (3, (ts("10:00:00"), 0, "IBM", 110, None, None, None)),
        (3, (ts("10:03:00"), 2, "YHOO", 25, 2, "YHOO", 25)),
        (6, (ts("10:12:00"), None, None, None, 1, "ORCL", 10)),  # the document: step 5
    ]


def test_an_aggregate_over_a_windowed_join_emits_a_minute_once_it_is_complete(
    emitted: Any,
) -> None:
    """The join's output rowtime has a waterline from the clocks: min(Trades - 10 min,
    Orders), the earliest a kept order can still give a row. 10:00 is complete once
    Trades passes 10:11 (step 3), 10:03 once both pass 10:13 (step 6)."""
    assert emitted["fills_per_minute"] == [
        (3, (ts("10:00:00"), 2)),
        (6, (ts("10:03:00"), 1)),
    ]
