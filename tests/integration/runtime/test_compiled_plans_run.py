"""Every plan the compiler emits for the golden programs runs on real Spark."""

import json
from pathlib import Path
from typing import Any

import pytest
from pyspark.sql import SparkSession

from backend.compiler import compile_program
from worker.runner.source import SCHEMA
from worker.runner.step import compute_step

CASES = sorted((Path(__file__).parents[2] / "unit" / "compiler" / "cases").glob("*.sql"))
SAMPLE_VALUES = {
    "BOOLEAN": True,
    "TINYINT": 1,
    "SMALLINT": 1,
    "INTEGER": 1,
    "BIGINT": 1,
    "REAL": 1.5,
    "DOUBLE": 1.5,
    "VARCHAR": "1",  # castable to a number, as the golden programs do
    "DATE": "2020-01-01",
    "TIME": "10:00:00",
    "TIMESTAMP": "2020-01-01 10:00:00",
}


def sample_row(relation: dict[str, Any]) -> dict[str, Any]:
    return {
        c["name"]: SAMPLE_VALUES.get(c["type"], "1.00" if c["type"].startswith("DECIMAL") else None)
        for c in relation["columns"]
    }


def compiled_plans() -> list[Any]:
    plans = []
    for case in CASES:
        plan = compile_program(case.read_text()).to_json()["plan"]
        if plan is not None and plan["views"]:
            plans.append(pytest.param(plan, id=case.stem))
    return plans


@pytest.mark.parametrize("plan", compiled_plans())
def test_golden_plan_runs_on_spark(spark: SparkSession, plan: dict[str, Any]) -> None:
    rows = [(i + 1, r["name"], 1, json.dumps(sample_row(r))) for i, r in enumerate(plan["inputs"])]
    deltas = compute_step(plan, spark.createDataFrame(rows, SCHEMA))
    assert set(deltas) <= {view["name"] for view in plan["views"]}
    for changes in deltas.values():
        assert all(set(change) == {"insert"} for change in changes)
