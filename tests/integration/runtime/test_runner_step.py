"""A step's view changes computed on real local Spark from a plan (docs/contracts.md)."""

import json
from typing import Any

import pytest
from pyspark.sql import SparkSession

from worker.runner.lower import LoweringError
from worker.runner.source import SCHEMA
from worker.runner.step import compute_step

COLUMNS = [
    {"name": "id", "type": "BIGINT", "nullable": False},
    {"name": "name", "type": "VARCHAR", "nullable": True},
    {"name": "amount", "type": "DECIMAL(10,2)", "nullable": True},
    {"name": "at", "type": "TIMESTAMP", "nullable": True},
]


def col(index: int) -> dict[str, Any]:
    return {"kind": "column", "index": index, "type": COLUMNS[index]["type"]}


def lit(value: Any, type_: str) -> dict[str, Any]:
    return {"kind": "literal", "value": value, "type": type_}


def call(function: str, type_: str, *args: dict[str, Any]) -> dict[str, Any]:
    return {"kind": "call", "function": function, "args": list(args), "type": type_}


def plan_of(condition: dict[str, Any] | None, exprs: list[tuple[str, str, dict[str, Any]]]) -> dict:
    query: dict[str, Any] = {"op": "scan", "relation": "t", "columns": COLUMNS}
    if condition is not None:
        query = {"op": "filter", "input": query, "condition": condition, "columns": COLUMNS}
    view_columns = [{"name": n, "type": t, "nullable": True} for n, t, _ in exprs]
    query = {
        "op": "project",
        "input": query,
        "exprs": [e for *_, e in exprs],
        "columns": view_columns,
    }
    table = {
        "name": "t",
        "kind": "table",
        "columns": COLUMNS,
        "primary_key": [],
        "append_only": False,
    }
    return {
        "version": 1,
        "inputs": [table],
        "views": [{"name": "v", "columns": view_columns, "query": query}],
    }


def batch(spark: SparkSession, *changes: tuple[int, dict[str, Any]]) -> Any:
    rows = [(i + 1, "t", w, json.dumps(r)) for i, (w, r) in enumerate(changes)]
    return spark.createDataFrame(rows, SCHEMA)


ADA = {"id": 1, "name": "ada", "amount": "150.50", "at": "2020-01-01 10:00:00"}
BOB = {"id": 2, "name": "bob", "amount": "5.00", "at": "2020-01-01 10:00:00.5"}
NULLS = {"id": 3, "name": None, "amount": None, "at": None}


def test_filter_and_projection_apply_to_inserts_and_deletes(spark: SparkSession) -> None:
    plan = plan_of(
        call("ge", "BOOLEAN", col(2), lit(100, "INTEGER")),
        [
            ("id", "BIGINT", col(0)),
            ("amount", "DECIMAL(10,2)", col(2)),
            ("at", "TIMESTAMP", col(3)),
        ],
    )
    deltas = compute_step(
        plan, batch(spark, (1, ADA), (1, BOB), (-1, {**ADA, "id": 9}), (1, NULLS))
    )
    assert deltas == {
        "v": [
            {"delete": {"id": 9, "amount": "150.50", "at": "2020-01-01 10:00:00"}},
            {"insert": {"id": 1, "amount": "150.50", "at": "2020-01-01 10:00:00"}},
        ]
    }


def test_an_insert_and_a_delete_of_one_row_in_a_step_cancel(spark: SparkSession) -> None:
    plan = plan_of(None, [("id", "BIGINT", col(0))])
    assert compute_step(plan, batch(spark, (1, ADA), (-1, ADA))) == {}
    deltas = compute_step(plan, batch(spark, (1, ADA), (1, ADA)))
    assert deltas == {"v": [{"insert": {"id": 1}}, {"insert": {"id": 1}}]}


def test_a_null_condition_keeps_no_row(spark: SparkSession) -> None:
    plan = plan_of(call("gt", "BOOLEAN", col(2), lit(0, "INTEGER")), [("id", "BIGINT", col(0))])
    assert compute_step(plan, batch(spark, (1, NULLS))) == {}


@pytest.mark.parametrize(
    ("expr", "type_", "expected"),
    [
        (call("add", "BIGINT", col(0), lit(10, "INTEGER")), "BIGINT", 11),
        (call("mul", "DECIMAL(21,2)", col(2), lit(2, "INTEGER")), "DECIMAL(21,2)", "301.00"),
        (call("div", "BIGINT", lit(7, "BIGINT"), lit(2, "BIGINT")), "BIGINT", 3),
        (call("div", "DOUBLE", lit(7.0, "DOUBLE"), lit(2, "INTEGER")), "DOUBLE", 3.5),
        (call("mod", "BIGINT", lit(7, "BIGINT"), lit(4, "INTEGER")), "BIGINT", 3),
        (call("neg", "BIGINT", col(0)), "BIGINT", -1),
        (call("upper", "VARCHAR", col(1)), "VARCHAR", "ADA"),
        (call("concat", "VARCHAR", col(1), lit("!", "VARCHAR")), "VARCHAR", "ada!"),
        (call("like", "BOOLEAN", col(1), lit("a_a%", "VARCHAR")), "BOOLEAN", True),
        (call("like", "BOOLEAN", col(1), lit("b%", "VARCHAR")), "BOOLEAN", False),
        (call("coalesce", "VARCHAR", lit(None, "VARCHAR"), col(1)), "VARCHAR", "ada"),
        (call("is_null", "BOOLEAN", col(1)), "BOOLEAN", False),
        (
            call(
                "and",
                "BOOLEAN",
                lit(True, "BOOLEAN"),
                call("not", "BOOLEAN", lit(False, "BOOLEAN")),
            ),
            "BOOLEAN",
            True,
        ),
        ({"kind": "cast", "expr": col(2), "type": "DOUBLE"}, "DOUBLE", 150.5),
        ({"kind": "cast", "expr": col(3), "type": "DATE"}, "DATE", "2020-01-01"),
        (
            call("add", "TIMESTAMP", col(3), lit(5_400_000_000, "INTERVAL DAY TO SECOND")),
            "TIMESTAMP",
            "2020-01-01 11:30:00",
        ),
        (
            call("sub", "DATE", lit("2020-03-31", "DATE"), lit(1, "INTERVAL YEAR TO MONTH")),
            "DATE",
            "2020-02-29",
        ),
        (
            call("gt", "BOOLEAN", col(3), lit("2019-12-31 23:59:59.5", "TIMESTAMP")),
            "BOOLEAN",
            True,
        ),
    ],
)
def test_expressions_compute_as_sql_does(
    spark: SparkSession, expr: dict[str, Any], type_: str, expected: Any
) -> None:
    deltas = compute_step(plan_of(None, [("x", type_, expr)]), batch(spark, (1, ADA)))
    assert deltas == {"v": [{"insert": {"x": expected}}]}


def test_an_unknown_function_is_a_lowering_error(spark: SparkSession) -> None:
    plan = plan_of(None, [("x", "BIGINT", call("frobnicate", "BIGINT", col(0)))])
    with pytest.raises(LoweringError, match="frobnicate"):
        compute_step(plan, batch(spark, (1, ADA)))
