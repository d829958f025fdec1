"""The shape of a step's Spark job: what keeps a step cheap (docs/architecture.md).

A step's sources are single partitions, so its joins and aggregates need no
shuffle or broadcast; a join's equalities are join keys (a merge join, never a
nested loop); the driver's JVM view finds a class or method once.
"""

import itertools
import json
from collections.abc import Iterator
from typing import Any

import pytest
from pyspark import SparkContext
from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql.classic.dataframe import DataFrame

from worker.replay import compile_with_queries, replay

PROGRAM = """
CREATE TABLE orders (id BIGINT NOT NULL, customer BIGINT, amount DOUBLE);
CREATE TABLE customers (id BIGINT NOT NULL, name VARCHAR);
CREATE VIEW big AS SELECT o.id, c.name FROM orders AS o JOIN customers AS c
    ON o.customer = c.id + 0 WHERE o.amount > 10;
CREATE VIEW unmatched AS SELECT o.id, c.name FROM orders AS o LEFT JOIN customers AS c
    ON o.customer = c.id;
CREATE VIEW per_customer AS SELECT customer, COUNT(*) AS n, MAX(amount) AS top
    FROM orders GROUP BY customer;
"""
STEPS = [
    {"customers": [{"insert": {"id": i, "name": f"c{i}"}} for i in range(5)]},
    {"orders": [{"insert": {"id": i, "customer": i % 7, "amount": i * 3.0}} for i in range(9)]},
    {"orders": [{"delete": {"id": 4, "customer": 4, "amount": 12.0}}]},
]


@pytest.fixture
def plans(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The physical plans of the Spark actions that collect a result to the driver."""
    seen: list[str] = []
    collect = DataFrame.collect

    def recording(self: DataFrame) -> Any:
        seen.append(self._jdf.queryExecution().executedPlan().toString())
        return collect(self)

    monkeypatch.setattr(DataFrame, "collect", recording)
    yield seen


def test_a_step_joins_and_aggregates_in_place(spark: SparkSession, plans: list[str]) -> None:
    result = compile_with_queries(PROGRAM, [])
    assert not result.has_errors, result.diagnostics
    records = list(replay(spark, result.to_json()["plan"], [json.dumps(s) for s in STEPS]))
    big = [r for r in records if r.get("view") == "big"]
    assert [r["step"] for r in big] == [2, 3]  # the rows are right, whatever the plan
    assert big[1]["changes"] == [{"delete": {"id": 4, "name": "c4"}}]
    step_jobs = [plan for plan in plans if "SortMergeJoin" in plan]
    assert len(step_jobs) >= 2  # the order steps' jobs join orders with customers
    for plan in step_jobs:
        for shape in ("Exchange", "Broadcast", "NestedLoopJoin", "CartesianProduct"):
            assert shape not in plan, f"{shape} in a step's plan:\n{plan[:3000]}"


def test_the_jvm_view_finds_a_function_once(spark: SparkSession) -> None:
    client = SparkContext._jvm._gateway_client  # type: ignore[union-attr]
    commands: list[str] = []
    send = client.send_command

    def counting(command: str, *args: Any, **kwargs: Any) -> Any:
        commands.append(command)
        return send(command, *args, **kwargs)

    F.upper(F.lit("warm"))  # found here, if no earlier test did
    client.send_command = counting
    try:
        for _ in range(5):
            F.upper(F.lit("x"))
    finally:
        del client.send_command
    assert commands, "py4j was not called at all: the counter is not in the path"
    lookups = [c for c in commands if c.startswith("r\n")]  # py4j's reflection commands
    assert lookups == []


CHAIN = """
CREATE TABLE a (k BIGINT, x BIGINT);
CREATE TABLE b (k BIGINT, y BIGINT);
CREATE TABLE c (k BIGINT, z BIGINT);
CREATE TABLE d (k BIGINT, w BIGINT);
CREATE VIEW chain AS SELECT a.k, y, z, w FROM a LEFT JOIN b ON a.k = b.k
    LEFT JOIN c ON b.k = c.k LEFT JOIN d ON c.k = d.k;
"""


def test_joins_over_joins_read_their_inputs_changes_once(
    spark: SparkSession, plans: list[str]
) -> None:
    # A join reads each input's changes five to seven times; copied into each read,
    # the changes of a join below made this step's plan read 211 sources (16 now).
    result = compile_with_queries(CHAIN, [])
    assert not result.has_errors, result.diagnostics
    first = {name: [{"insert": {"k": 1, col: 1}}] for name, col in zip("abcd", "xyzw", strict=True)}
    steps = [first, {"a": [{"insert": {"k": 2, "x": 1}}]}]
    records = list(replay(spark, result.to_json()["plan"], [json.dumps(s) for s in steps]))
    assert [r["changes"] for r in records] == [
        [{"insert": {"k": 1, "y": 1, "z": 1, "w": 1}}],
        [{"insert": {"k": 2, "y": None, "z": None, "w": None}}],
    ]
    assert plans and all(plan.count("Scan") <= 40 for plan in plans), [
        plan.count("Scan") for plan in plans
    ]


UNIONS = """
CREATE TABLE orders (id BIGINT NOT NULL, customer BIGINT);
CREATE TABLE customers (id BIGINT NOT NULL, name VARCHAR);
CREATE VIEW everyone AS SELECT k, COUNT(*) AS n FROM
    (SELECT customer AS k FROM orders UNION ALL SELECT id AS k FROM customers) AS a GROUP BY k;
CREATE VIEW named AS SELECT c.name, e.n FROM everyone AS e JOIN customers AS c ON e.k = c.id;
"""


def test_a_union_is_one_partition(spark: SparkSession, plans: list[str]) -> None:
    # A union's partitions are its inputs' together: a join or aggregate above it
    # shuffled them back into one, a stage each (a 45-view step ran some 100 stages).
    result = compile_with_queries(UNIONS, [])
    assert not result.has_errors, result.diagnostics
    steps = [
        {"customers": [{"insert": {"id": 1, "name": "ann"}}, {"insert": {"id": 2, "name": "bo"}}]},
        {"orders": [{"insert": {"id": 7, "customer": 1}}], "customers": [{"delete": {"id": 2}}]},
    ]
    records = list(replay(spark, result.to_json()["plan"], [json.dumps(s) for s in steps]))
    named = [r["changes"] for r in records if r.get("view") == "named"]
    assert named == [
        [{"insert": {"name": "ann", "n": 1}}, {"insert": {"name": "bo", "n": 1}}],
        [{"delete": {"name": "ann", "n": 1}}, {"delete": {"name": "bo", "n": 1}},
         {"insert": {"name": "ann", "n": 2}}],
    ]  # fmt: skip
    unions = 0
    for plan in plans:
        lines = [line.lstrip(" :+-") for line in plan.splitlines()]
        for above, line in itertools.pairwise(lines):
            if line.startswith("Union"):
                unions += 1
                assert above.startswith("Coalesce 1"), f"a union not coalesced:\n{plan[:3000]}"
    assert unions > 0


def test_the_readers_of_a_views_changes_share_one_materialised_copy(
    spark: SparkSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A stateful node materialises an input that comes out of a view (its plan would be
    # copied into each place that reads it); a second reader adds no copy.
    calls: list[int] = []
    checkpoint = DataFrame.localCheckpoint

    def counting(self: DataFrame, *args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return checkpoint(self, *args, **kwargs)

    monkeypatch.setattr(DataFrame, "localCheckpoint", counting)
    base = (
        PROGRAM + "CREATE VIEW big_orders AS SELECT customer, amount FROM orders WHERE amount > 1;"
    )
    readers = [
        "CREATE VIEW r1 AS SELECT * FROM big_orders AS b JOIN customers AS c ON b.customer = c.id;",
        "CREATE VIEW r2 AS SELECT * FROM big_orders EXCEPT SELECT id, 1.0 FROM customers;",
    ]
    counts = []
    for program in (base + readers[0], base + "\n".join(readers)):
        result = compile_with_queries(program, [])
        assert not result.has_errors, result.diagnostics
        calls.clear()
        list(replay(spark, result.to_json()["plan"], [json.dumps(s) for s in STEPS]))
        counts.append(len(calls))
    assert counts[0] == counts[1] and counts[0] > 0
