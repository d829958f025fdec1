"""Replaying a program in a test, and what its views hold after each step."""

import json
from collections.abc import Callable, Iterable
from typing import Any

from pyspark.sql import SparkSession

from backend.compiler import compile_program
from worker.replay import compile_with_queries, replay
from worker.runner.source import SCHEMA
from worker.runner.step import Change, compute_step

Row = dict[str, Any]


def as_text(row: Row) -> str:
    return json.dumps(row, sort_keys=True)


def in_order(rows: Iterable[Row]) -> list[Row]:
    """Rows in the order `contents_by_step` gives them by default: by their text."""
    return sorted(rows, key=as_text)


def changes_of_one_row(
    spark: SparkSession, program: str, row: Row, table: str = "t"
) -> dict[str, list[Change]]:
    """Each view's changes when the first step of `program` inserts `row` into `table`."""
    plan = compile_program(program).to_json()["plan"]
    return compute_step(plan, spark.createDataFrame([(1, table, 1, json.dumps(row))], SCHEMA))


def contents_by_step(
    spark: SparkSession,
    program: str,
    relation: str,
    steps: list[list[dict[str, Any]]],
    order: Callable[[Row], Any] = as_text,
) -> list[dict[str, list[Row]]]:
    """Replays `program`, a step per item of `steps` (the changes of `relation`);
    each output view's rows after each step (its changes added up), sorted by `order`."""
    return contents_after_steps(spark, program, [{relation: step} for step in steps], order)


def contents_after_steps(
    spark: SparkSession,
    program: str,
    steps: list[dict[str, list[dict[str, Any]]]],
    order: Callable[[Row], Any] = as_text,
) -> list[dict[str, list[Row]]]:
    """`contents_by_step` with each step's changes of any relations (relation -> changes)."""
    result = compile_with_queries(program, [])
    assert not result.has_errors, result.diagnostics
    lines = [json.dumps(step) for step in steps]
    records = list(replay(spark, result.to_json()["plan"], lines))
    views = [v["name"] for v in result.to_json()["plan"]["views"] if not v.get("local")]
    totals: dict[str, dict[str, int]] = {view: {} for view in views}
    after = []
    for step in range(1, len(steps) + 1):
        for record in (r for r in records if r["step"] == step and "view" in r):
            rows = totals[record["view"]]
            for change in record["changes"]:
                kind, row = next(iter(change.items()))
                rows[as_text(row)] = rows.get(as_text(row), 0) + (1 if kind == "insert" else -1)
        after.append(
            {
                view: sorted(
                    (json.loads(text) for text, n in rows.items() for _ in range(n)), key=order
                )
                for view, rows in totals.items()
            }
        )
    return after
