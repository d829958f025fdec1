"""Flink's cumulating windows: `TABLE(CUMULATE(TABLE t, DESCRIPTOR(ts), step, size))`
puts a row in every window [S, S + k * step) of its tumbling window [S, S + size) that
ends after its time (a filtered HOP, semantic/table_functions.py)."""

from typing import Any

from pyspark.sql import SparkSession

from tests.integration.runtime.replays import Row, contents_by_step, in_order

PROGRAM = """
CREATE TABLE orders (product INT, ts TIMESTAMP LATENESS INTERVAL '0' SECOND);
CREATE VIEW cumulated AS
SELECT * FROM TABLE(CUMULATE(TABLE orders, DESCRIPTOR(ts), INTERVAL '1' HOUR, INTERVAL '3' HOUR));
CREATE VIEW from_half_past AS
SELECT product, window_start AS s, window_end AS e FROM TABLE(CUMULATE(DATA => TABLE orders,
  TIMECOL => DESCRIPTOR(ts), STEP => INTERVAL '1' HOUR, SIZE => INTERVAL '2' HOUR,
  OFFSET => INTERVAL '30' MINUTE));
CREATE VIEW counts WITH ('emit_final' = 'e') AS
SELECT window_start AS s, window_end AS e, COUNT(*) AS n
FROM TABLE(CUMULATE(TABLE orders, DESCRIPTOR(ts), INTERVAL '1' HOUR, INTERVAL '3' HOUR))
GROUP BY window_start, window_end;
"""


def at(time: str) -> str:
    return f"2020-01-01 {time}:00"


def order(product: int, time: str | None) -> dict[str, Any]:
    return {"product": product, "ts": None if time is None else at(time)}


def test_a_row_is_in_each_cumulative_window_that_ends_after_it(spark: SparkSession) -> None:
    steps = [
        # 09:00 starts the windows of 09:00 to 12:00: it is in all three.
        [{"insert": order(1, "09:00")}, {"insert": order(2, "10:30")}],
        # 11:59 is only in the whole window; 12:05 in the next three. A NULL time: none.
        [{"insert": order(3, "11:59")}, {"insert": order(4, "12:05")}],
        # (Only 12:05 is at the waterline: a delete of an earlier row would be late.)
        [{"insert": order(5, None)}, {"delete": order(4, "12:05")}],
    ]
    after = contents_by_step(spark, PROGRAM, "orders", steps)

    def row(product: int, time: str, start: str, end: str) -> Row:
        return {**order(product, time), "window_start": at(start), "window_end": at(end)}

    first = [
        row(1, "09:00", "09:00", "10:00"),
        row(1, "09:00", "09:00", "11:00"),
        row(1, "09:00", "09:00", "12:00"),
        row(2, "10:30", "09:00", "11:00"),
        row(2, "10:30", "09:00", "12:00"),
    ]
    later = [
        row(3, "11:59", "09:00", "12:00"),
        row(4, "12:05", "12:00", "13:00"),
        row(4, "12:05", "12:00", "14:00"),
        row(4, "12:05", "12:00", "15:00"),
    ]
    assert after[0]["cumulated"] == in_order(first)
    assert after[1]["cumulated"] == in_order(first + later)
    assert after[2]["cumulated"] == in_order(first + later[:1])
    # Windows of two hours from half past: 08:30 to 10:30, 10:30 to 12:30, ...
    assert after[1]["from_half_past"] == in_order(
        [
            {"product": 1, "s": at("08:30"), "e": at("09:30")},
            {"product": 1, "s": at("08:30"), "e": at("10:30")},
            {"product": 2, "s": at("10:30"), "e": at("11:30")},
            {"product": 2, "s": at("10:30"), "e": at("12:30")},
            {"product": 3, "s": at("10:30"), "e": at("12:30")},
            {"product": 4, "s": at("10:30"), "e": at("12:30")},
        ]
    )
    # A window's count is final once the waterline (the latest time) reaches its end.
    assert after[0]["counts"] == [{"s": at("09:00"), "e": at("10:00"), "n": 1}]
    assert after[1]["counts"] == in_order(
        [
            {"s": at("09:00"), "e": at("10:00"), "n": 1},
            {"s": at("09:00"), "e": at("11:00"), "n": 2},
            {"s": at("09:00"), "e": at("12:00"), "n": 3},
        ]
    )
