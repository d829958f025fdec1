"""Primary keys: an insert of an existing key replaces its row; deletes go by key."""

import json
from typing import Any

from pyspark.sql import SparkSession

from worker.replay import compile_with_queries, replay

PROGRAM = """
CREATE TABLE p (id INT NOT NULL PRIMARY KEY, name VARCHAR NOT NULL, qty INT);
CREATE VIEW items AS SELECT * FROM p;
CREATE VIEW total AS SELECT SUM(qty) AS qty, COUNT(*) AS n FROM p;
"""


def replayed(spark: SparkSession, steps: list[list[dict[str, Any]]]) -> dict[int, dict[str, Any]]:
    result = compile_with_queries(PROGRAM, [])
    assert not result.has_errors
    lines = [json.dumps({"p": changes}) for changes in steps]
    by_step: dict[int, dict[str, Any]] = {}
    for record in replay(spark, result.to_json()["plan"], lines):
        by_step.setdefault(record["step"], {})[record.get("view", "dropped")] = record.get(
            "changes", record.get("dropped")
        )
    return by_step


def row(id_: int, name: str, qty: int) -> dict[str, Any]:
    return {"id": id_, "name": name, "qty": qty}


def test_upserts_replace_rows_and_the_last_change_of_a_key_in_a_step_wins(
    spark: SparkSession,
) -> None:
    steps = [
        [{"insert": row(1, "a", 10)}, {"insert": row(2, "b", 5)}],
        [{"insert": row(1, "a2", 20)}],
        # Key 3 comes and goes within the step; key 2 is written again unchanged.
        [{"insert": row(3, "c", 1)}, {"delete": {"id": 3}}, {"insert": row(2, "b", 5)}],
        [{"delete": {"id": 1}}],
        [{"delete": {"id": 9}}],
        [{"insert": row(2, "x", 1)}, {"insert": row(2, "y", 2)}],
    ]
    out = replayed(spark, steps)
    assert out[1]["items"] == [{"insert": row(1, "a", 10)}, {"insert": row(2, "b", 5)}]
    assert out[1]["total"] == [{"insert": {"qty": 15, "n": 2}}]
    assert out[2]["items"] == [{"delete": row(1, "a", 10)}, {"insert": row(1, "a2", 20)}]
    assert out[2]["total"] == [{"delete": {"qty": 15, "n": 2}}, {"insert": {"qty": 25, "n": 2}}]
    assert 3 not in out
    assert out[4]["items"] == [{"delete": row(1, "a2", 20)}]
    assert out[4]["total"] == [{"delete": {"qty": 25, "n": 2}}, {"insert": {"qty": 5, "n": 1}}]
    assert 5 not in out
    assert out[6]["items"] == [{"delete": row(2, "b", 5)}, {"insert": row(2, "y", 2)}]
    assert out[6]["total"] == [{"delete": {"qty": 5, "n": 1}}, {"insert": {"qty": 2, "n": 1}}]
