"""A view's LATENESS statement at run time (spec/feldera-streaming-extensions.md):
the view's waterline is the max of its column seen in earlier steps less the
lateness; its changes below the waterline are logged and discarded, and
`emit_final` on the view emits by that waterline."""

import json
from typing import Any

from pyspark.sql import SparkSession

from tests.integration.runtime.test_replay import INSERTS  # the spec's five insertions
from worker.replay import compile_with_queries, replay

# The spec's example, with the lateness on the view rather than on the table.
PROGRAM = """
CREATE TABLE t (ts TIMESTAMP NOT NULL, location VARCHAR);
LATENESS v.ts INTERVAL '1' HOUR;
CREATE VIEW v AS SELECT t.ts, t.location FROM t;
CREATE VIEW later AS SELECT location FROM v;
"""


def run(spark: SparkSession, program: str, steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    result = compile_with_queries(program, [])
    assert not result.has_errors, result.diagnostics
    return list(replay(spark, result.to_json()["plan"], [json.dumps(s) for s in steps]))


def by_step(records: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """step -> {view: changes, "dropped": [...]}"""
    steps: dict[int, dict[str, Any]] = {}
    for record in records:
        entry = steps.setdefault(record["step"], {})
        if "dropped" in record:
            entry["dropped"] = record["dropped"]
        else:
            entry[record["view"]] = record["changes"]
    return steps


def test_five_inserts_in_five_steps_keep_four_in_the_view_and_its_readers(
    spark: SparkSession,
) -> None:
    steps = by_step(run(spark, PROGRAM, [{"t": [{"insert": row}]} for row in INSERTS]))
    for n, row in enumerate(INSERTS[:4], 1):
        assert steps[n] == {
            "v": [{"insert": row}],
            "later": [{"insert": {"location": row["location"]}}],
        }
    # 00:20 is below 02:00 - 1 hour: the view drops it and its reader never sees it.
    assert steps[5] == {"dropped": [{"relation": "v", "row": INSERTS[4], "reason": "late"}]}


def test_five_inserts_in_one_step_keep_all_five(spark: SparkSession) -> None:
    steps = by_step(run(spark, PROGRAM, [{"t": [{"insert": row} for row in INSERTS]}]))
    assert sorted(c["insert"]["ts"] for c in steps[1]["v"]) == sorted(r["ts"] for r in INSERTS)
    assert "dropped" not in steps[1]


HOURLY = """
CREATE TABLE t (ts TIMESTAMP NOT NULL);
LATENESS hourly.h INTERVAL '1' HOUR;
CREATE VIEW hourly WITH ('emit_final' = 'h') AS
  SELECT FLOOR(ts TO HOUR) AS h, COUNT(*) AS n FROM t GROUP BY FLOOR(ts TO HOUR);
"""


def test_emit_final_on_a_view_whose_waterline_is_its_lateness(spark: SparkSession) -> None:
    times = ["10:05", "10:30", "12:10", "10:40", "13:00"]
    steps = by_step(
        run(spark, HOURLY, [{"t": [{"insert": {"ts": f"2020-01-01 {t}:00"}}]} for t in times])
    )
    final = {"h": "2020-01-01 10:00:00", "n": 2}
    # After step 3 the view's max hour is 12:00: its waterline 11:00 closes hour 10:00.
    assert steps.get(1, {}) == {} and steps.get(2, {}) == {}
    assert steps[3] == {"hourly": [{"insert": final}]}
    # A third row for hour 10:00 comes behind the waterline: the update is dropped (delete
    # and insert alike), so the final row is never retracted.
    assert steps[4] == {
        "dropped": [
            {"relation": "hourly", "row": final, "reason": "late"},
            {"relation": "hourly", "row": {"h": "2020-01-01 10:00:00", "n": 3}, "reason": "late"},
        ]
    }
    assert steps.get(5, {}) == {}  # 13:00 moves the waterline to 12:00: 12:00 still open
