"""Time in the engine: stream clocks, WATERMARK, emit_final, rowtime bounds."""

import json
from typing import Any

from pyspark.sql import SparkSession

from tests.integration.runtime.plans import (
    agg,
    aggregate,
    call,
    col,
    column,
    lit,
    plan,
    project,
    scan,
    table,
    view,
)
from worker.runner.engine import StepEngine
from worker.runner.source import SCHEMA

HOUR = 3_600_000_000


def feed(
    spark: SparkSession, engine: StepEngine, step: int, *changes: tuple[str, int, dict[str, Any]]
) -> Any:
    rows = [(step * 100 + i, r, w, json.dumps(row)) for i, (r, w, row) in enumerate(changes)]
    return engine.step(step, spark.createDataFrame(rows, SCHEMA))


def test_a_stream_drops_rows_older_than_its_clock(spark: SparkSession) -> None:
    s = table("s", [column("rowtime", "TIMESTAMP"), column("x", "INTEGER")], kind="stream")
    engine = StepEngine(spark, plan([s], [view("v", project(scan(s), ("x", col(1, "INTEGER"))))]))
    first = feed(
        spark,
        engine,
        1,
        ("s", 1, {"rowtime": "2020-01-01 10:00:00", "x": 1}),
        ("s", 1, {"rowtime": "2020-01-01 09:00:00", "x": 2}),
    )
    assert first.deltas == {"v": [{"insert": {"x": 1}}]}
    assert first.dropped == [
        {
            "relation": "s",
            "row": {"rowtime": "2020-01-01 09:00:00", "x": 2},
            "reason": "out_of_order",
        }
    ]
    second = feed(
        spark,
        engine,
        2,
        ("s", 1, {"rowtime": "2020-01-01 09:59:59", "x": 3}),
        ("s", 1, {"rowtime": "2020-01-01 10:00:00", "x": 4}),
    )
    assert second.deltas == {"v": [{"insert": {"x": 4}}]}
    assert [d["row"]["x"] for d in second.dropped] == [3]


def test_watermark_holds_rows_until_the_max_passes_value_plus_delay(spark: SparkSession) -> None:
    ts = column("ts", "TIMESTAMP", watermark=lit(HOUR, "INTERVAL DAY TO SECOND"))
    t = table("t", [ts, column("x", "INTEGER")])
    engine = StepEngine(spark, plan([t], [view("v", project(scan(t), ("x", col(1, "INTEGER"))))]))
    assert feed(spark, engine, 1, ("t", 1, {"ts": "2020-01-01 10:00:00", "x": 1})).deltas == {}
    assert feed(spark, engine, 2, ("t", 1, {"ts": "2020-01-01 10:30:00", "x": 2})).deltas == {}
    # The max reaches 11:00 in step 3: x=1 (10:00 + 1h), held since step 1, is released
    # in step 3 ("an event that changes the watermark in step 2 ... will only make
    # visible the eligible events inserted up to step 1", Feldera's watermarkTest).
    third = feed(spark, engine, 3, ("t", 1, {"ts": "2020-01-01 11:00:00", "x": 3}))
    assert third.deltas == {"v": [{"insert": {"x": 1}}]}
    # The max moves to 11:45: x=2 (10:30, held since step 2) is out. x=5's 10:00 is
    # eligible under the max before the step (11:00): out at once. x=4's 10:40 is
    # eligible only under the max its own step sets: out a step later.
    fourth = feed(
        spark,
        engine,
        4,
        ("t", 1, {"ts": "2020-01-01 10:40:00", "x": 4}),
        ("t", 1, {"ts": "2020-01-01 11:45:00", "x": 6}),
        ("t", 1, {"ts": "2020-01-01 10:00:00", "x": 5}),
    )
    assert sorted(change["insert"]["x"] for change in fourth.deltas["v"]) == [2, 5]
    assert feed(spark, engine, 5).deltas == {"v": [{"insert": {"x": 4}}]}


def test_lateness_drops_late_deletes_as_late_inserts(spark: SparkSession) -> None:
    # Feldera's LatenessTests: a change below the waterline is dropped, a delete too;
    # the table keeps the row as if the delete never came.
    x = column("x", "INTEGER", lateness=lit(2, "INTEGER"))
    t = table("t", [column("g", "INTEGER"), x])
    low = aggregate(
        scan(t), [("g", col(0, "INTEGER"))], [("min", agg("min", "INTEGER", col(1, "INTEGER")))]
    )
    engine = StepEngine(spark, plan([t], [view("v", low)]))
    first = feed(spark, engine, 1, ("t", 1, {"g": 0, "x": 1}), ("t", 1, {"g": 0, "x": 10}))
    assert first.deltas == {"v": [{"insert": {"g": 0, "min": 1}}]}
    late = feed(spark, engine, 2, ("t", -1, {"g": 0, "x": 1}))  # below 10 - 2
    assert late.deltas == {}
    assert late.dropped == [{"relation": "t", "row": {"g": 0, "x": 1}, "reason": "late"}]
    # 10 is not late (the waterline is 8): deleted. The MIN is still the kept 1.
    last = feed(spark, engine, 3, ("t", -1, {"g": 0, "x": 10}))
    assert (last.deltas, last.dropped) == ({}, [])


def test_emit_final_emits_closed_windows_once(spark: SparkSession) -> None:
    ts = column("ts", "TIMESTAMP", lateness=lit(0, "INTERVAL DAY TO SECOND"))
    t = table("t", [ts, column("x", "INTEGER")])
    hour = call("floor_time", "TIMESTAMP", col(0, "TIMESTAMP"), lit("HOUR", "VARCHAR"))
    query = aggregate(scan(t), [("h", hour)], [("s", agg("sum", "BIGINT", col(1, "INTEGER")))])
    engine = StepEngine(spark, plan([t], [view("v", query, emit_final=0), view("live", query)]))
    step1 = feed(
        spark,
        engine,
        1,
        ("t", 1, {"ts": "2020-01-01 10:10:00", "x": 1}),
        ("t", 1, {"ts": "2020-01-01 10:20:00", "x": 2}),
    )
    assert "v" not in step1.deltas and step1.deltas["live"] == [
        {"insert": {"h": "2020-01-01 10:00:00", "s": 3}}
    ]
    assert "v" not in feed(spark, engine, 2, ("t", 1, {"ts": "2020-01-01 10:50:00", "x": 4})).deltas
    step3 = feed(spark, engine, 3, ("t", 1, {"ts": "2020-01-01 11:05:00", "x": 8}))
    assert step3.deltas["v"] == [{"insert": {"h": "2020-01-01 10:00:00", "s": 7}}]
    assert "v" not in feed(spark, engine, 4, ("t", 1, {"ts": "2020-01-01 11:30:00", "x": 1})).deltas
    # A bound closes the 11:00 window without adding a row.
    step5 = feed(spark, engine, 5, ("t", 0, {"bound": "2020-01-01 12:00:00", "strict": False}))
    assert step5.deltas == {"v": [{"insert": {"h": "2020-01-01 11:00:00", "s": 9}}]}
