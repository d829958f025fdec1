"""Windows moved by an offset: TUMBLE's and HOP's OFFSET argument, and the group-by
TUMBLE's alignment (an interval, or a TIME of day as Calcite writes it)."""

import json
from typing import Any

from pyspark.sql import SparkSession

from tests.integration.runtime.replays import contents_by_step, in_order
from worker.replay import compile_with_queries, replay

PROGRAM = """
CREATE TABLE bids (ts TIMESTAMP NOT NULL LATENESS INTERVAL '0' SECOND, price INT);
CREATE VIEW tumbled AS SELECT window_start, window_end, SUM(price) AS s
FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '1' HOUR, INTERVAL '15' MINUTE))
GROUP BY window_start, window_end;
CREATE VIEW hopped AS SELECT window_start, window_end, COUNT(*) AS n
FROM TABLE(HOP(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' MINUTE, INTERVAL '30' MINUTE,
  OFFSET => INTERVAL '5' MINUTE))
GROUP BY window_start, window_end;
CREATE VIEW aligned WITH ('emit_final' = 's') AS
SELECT TUMBLE_START(ts, INTERVAL '1' HOUR, TIME '0:30') AS s,
  TUMBLE_END(ts, INTERVAL '1' HOUR, TIME '0:30') AS e, COUNT(*) AS n
FROM bids GROUP BY TUMBLE(ts, INTERVAL '1' HOUR, TIME '0:30');
"""


def bids_at(times: list[list[str]]) -> list[list[dict[str, Any]]]:
    """A step of bids at each list of times (HH:MM)."""
    return [[{"insert": {"ts": f"2020-01-01 {t}:00", "price": 1}} for t in step] for step in times]


def window(start: str, end: str, **values: Any) -> dict[str, Any]:
    return {"window_start": f"2020-01-01 {start}:00", "window_end": f"2020-01-01 {end}:00"} | values


def test_tumble_and_hop_windows_start_at_their_offset(spark: SparkSession) -> None:
    [after] = contents_by_step(
        spark, PROGRAM, "bids", bids_at([["10:10", "10:14", "10:15", "11:20"]])
    )
    assert after["tumbled"] == in_order(
        [
            window("09:15", "10:15", s=2),
            window("10:15", "11:15", s=1),
            window("11:15", "12:15", s=1),
        ]
    )
    # Windows of 30 minutes every 10, at :05, :15, ...: 10:10 is in those from 09:45,
    # 09:55 and 10:05; 10:14 too; 10:15 in those from 09:55, 10:05 and 10:15.
    assert after["hopped"] == in_order(
        [
            window("09:45", "10:15", n=2),
            window("09:55", "10:25", n=3),
            window("10:05", "10:35", n=3),
            window("10:15", "10:45", n=1),
            window("10:55", "11:25", n=1),
            window("11:05", "11:35", n=1),
            window("11:15", "11:45", n=1),
        ]
    )


def test_a_window_aligned_at_half_past_is_final_once_its_hour_is_over(
    spark: SparkSession,
) -> None:
    result = compile_with_queries(PROGRAM, [])
    lines = [
        json.dumps({"bids": step}) for step in bids_at([["10:40", "11:29"], ["11:31"], ["12:45"]])
    ]
    records = list(replay(spark, result.to_json()["plan"], lines))
    by_step = {r["step"]: r["changes"] for r in records if r.get("view") == "aligned"}
    first = {"s": "2020-01-01 10:30:00", "e": "2020-01-01 11:30:00", "n": 2}
    second = {"s": "2020-01-01 11:30:00", "e": "2020-01-01 12:30:00", "n": 1}
    # 11:31 closes the window from 10:30 (lateness 0); 12:45 the one from 11:30.
    assert by_step == {2: [{"insert": first}], 3: [{"insert": second}]}


def test_nth_value_is_the_frame_s_n_th_row_s_value(spark: SparkSession) -> None:
    program = """
        CREATE TABLE t (id INT, g VARCHAR, x INT, ts TIMESTAMP);
        CREATE VIEW v AS SELECT id,
            NTH_VALUE(x, 2) OVER (PARTITION BY g ORDER BY ts
                ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS second,
            NTH_VALUE(x, 2) OVER (PARTITION BY g ORDER BY ts) AS so_far,
            NTH_VALUE(x, 1) IGNORE NULLS OVER (PARTITION BY g ORDER BY ts
                ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS first_value
        FROM t;
    """
    rows = [
        {"id": 1, "g": "a", "x": None, "ts": "2020-01-01 10:00:00"},
        {"id": 2, "g": "a", "x": 20, "ts": "2020-01-01 11:00:00"},
        {"id": 3, "g": "a", "x": 30, "ts": "2020-01-01 12:00:00"},
        {"id": 4, "g": "b", "x": 40, "ts": "2020-01-01 10:00:00"},
    ]
    [after] = contents_by_step(
        spark, program, "t", [[{"insert": row} for row in rows]], order=lambda r: r["id"]
    )
    assert [(r["second"], r["so_far"], r["first_value"]) for r in after["v"]] == [
        (20, None, 20),  # the frame so far has one row
        (20, 20, 20),
        (20, 20, 20),
        (None, None, 40),  # b has one row
    ]
