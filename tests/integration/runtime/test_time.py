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
    # The max reaches 11:00 in step 3: x=1 (10:00 + 1h) is released in step 4.
    assert feed(spark, engine, 3, ("t", 1, {"ts": "2020-01-01 11:00:00", "x": 3})).deltas == {}
    assert feed(spark, engine, 4).deltas == {"v": [{"insert": {"x": 1}}]}


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
