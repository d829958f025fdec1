"""Calcite's group-by hopping window: `GROUP BY HOP(ts, slide, size)`, with HOP_START
and HOP_END in the select list, counts each row in every window that holds it."""

import json
from typing import Any

from pyspark.sql import SparkSession

from worker.replay import compile_with_queries, replay

PROGRAM = """
CREATE TABLE orders (rowtime TIMESTAMP NOT NULL LATENESS INTERVAL '0' SECOND,
  product INT, units INT);
CREATE VIEW hops AS
SELECT product, HOP_START(rowtime, INTERVAL '1' HOUR, INTERVAL '3' HOUR) AS s,
  HOP_END(rowtime, INTERVAL '1' HOUR, INTERVAL '3' HOUR) AS e, SUM(units) AS units
FROM orders GROUP BY product, HOP(rowtime, INTERVAL '1' HOUR, INTERVAL '3' HOUR);
CREATE VIEW final_hops WITH ('emit_final' = 'e') AS
SELECT HOP_END(rowtime, INTERVAL '1' HOUR, INTERVAL '2' HOUR, TIME '0:30') AS e,
  COUNT(*) AS c
FROM orders GROUP BY HOP(rowtime, INTERVAL '1' HOUR, INTERVAL '2' HOUR, TIME '0:30');
"""


def replayed(spark: SparkSession, steps: list[list[tuple[str, int, int]]]) -> list[dict[str, Any]]:
    result = compile_with_queries(PROGRAM, [])
    assert not result.has_errors, result.diagnostics
    lines = [
        json.dumps(
            {
                "orders": [
                    {"insert": {"rowtime": f"2020-01-01 {t}:00", "product": p, "units": u}}
                    for t, p, u in step
                ]
            }
        )
        for step in steps
    ]
    return list(replay(spark, result.to_json()["plan"], lines))


def hour(at: str) -> str:
    return f"2020-01-01 {at}:00"


def test_each_row_counts_in_every_hopping_window_that_holds_it(spark: SparkSession) -> None:
    records = replayed(spark, [[("10:15", 10, 2), ("11:40", 10, 3), ("11:50", 20, 5)]])
    rows = [c["insert"] for r in records if r.get("view") == "hops" for c in r["changes"]]
    expected = [
        # 10:15 is in the windows from 08:00, 09:00 and 10:00; 11:40 and 11:50 in
        # those from 09:00, 10:00 and 11:00.
        {"product": 10, "s": hour("08:00"), "e": hour("11:00"), "units": 2},
        {"product": 10, "s": hour("09:00"), "e": hour("12:00"), "units": 5},
        {"product": 10, "s": hour("10:00"), "e": hour("13:00"), "units": 5},
        {"product": 10, "s": hour("11:00"), "e": hour("14:00"), "units": 3},
        {"product": 20, "s": hour("09:00"), "e": hour("12:00"), "units": 5},
        {"product": 20, "s": hour("10:00"), "e": hour("13:00"), "units": 5},
        {"product": 20, "s": hour("11:00"), "e": hour("14:00"), "units": 5},
    ]
    key = lambda row: json.dumps(row, sort_keys=True)  # noqa: E731
    assert sorted(rows, key=key) == sorted(expected, key=key)


def test_an_emit_final_hopping_window_is_emitted_once_when_it_ends(
    spark: SparkSession,
) -> None:
    # Windows of two hours every hour, from half past: 10:40 is in those from 09:30
    # and 10:30, 11:31 in those from 10:30 and 11:30. With lateness 0, a row after
    # 11:30 ends the first window; one after 12:30 the second.
    records = replayed(spark, [[("10:40", 1, 1)], [("11:31", 1, 1)], [("12:31", 1, 1)]])
    by_step = {r["step"]: r["changes"] for r in records if r.get("view") == "final_hops"}
    assert by_step == {
        2: [{"insert": {"e": hour("11:30"), "c": 1}}],
        3: [{"insert": {"e": hour("12:30"), "c": 2}}],
    }
