"""Pumps in the step engine: rows flow into the target in the same step, under the
target's time rules; a paused pump holds its input and loses nothing; a stopped
pump ignores what arrives while it is stopped."""

import json
from typing import Any

import pytest
from pyspark.sql import SparkSession

from backend.compiler import compile_program
from worker.runner.engine import StepEngine, StepResult
from worker.runner.source import SCHEMA

PROGRAM = """
CREATE STREAM trades (ticker VARCHAR, price INT, shares INT);
CREATE STREAM big_trades (ticker VARCHAR, amount INT);
CREATE TABLE totals (ticker VARCHAR, amount INT);
CREATE PUMP big_pump AS
    INSERT INTO big_trades SELECT STREAM rowtime, ticker, price * shares FROM trades
    WHERE shares >= 100;
CREATE PUMP archive STOPPED AS INSERT INTO totals SELECT STREAM ticker, amount FROM big_trades;
CREATE VIEW big AS SELECT STREAM ticker, amount FROM big_trades;
CREATE VIEW per_ticker AS SELECT ticker, SUM(amount) AS amount FROM totals GROUP BY ticker;
"""


def trade(minute: int, ticker: str, price: int, shares: int) -> dict[str, Any]:
    return {"rowtime": f"2020-01-01 10:{minute:02d}:00", "ticker": ticker, "price": price,
            "shares": shares}  # fmt: skip


class Steps:
    def __init__(self, spark: SparkSession, sql: str) -> None:
        result = compile_program(sql)
        assert not result.has_errors, result.diagnostics_json()
        assert result.spec is not None
        self.spark = spark
        self.engine = StepEngine(spark, result.spec)
        self.step_no = 0

    def step(self, pumps: dict[str, str] | None = None, **changes: list[Any]) -> StepResult:
        self.step_no += 1
        rows = []
        for relation, items in changes.items():
            for item in items:
                seq = self.step_no * 1000 + len(rows)
                rows.append((seq, relation, 1, json.dumps(item)))
        return self.engine.step(self.step_no, self.spark.createDataFrame(rows, SCHEMA), pumps)


@pytest.fixture()
def steps(spark: SparkSession) -> Steps:
    return Steps(spark, PROGRAM)


def test_a_running_pump_inserts_into_its_target_in_the_same_step(steps: Steps) -> None:
    result = steps.step(trades=[trade(0, "ORCL", 10, 100), trade(1, "IBM", 5, 10)])
    assert result.deltas == {"big": [{"insert": {"ticker": "ORCL", "amount": 1000}}]}
    assert result.pumped == {"big_pump": 1}


def test_a_paused_pump_holds_its_input_and_resumes_where_it_stopped(steps: Steps) -> None:
    steps.step(trades=[trade(0, "ORCL", 10, 100)])
    paused = steps.step({"big_pump": "paused"}, trades=[trade(1, "IBM", 2, 500)])
    assert paused.deltas == {}
    assert paused.pumped == {}
    still = steps.step({"big_pump": "paused"}, trades=[trade(2, "ORCL", 1, 200)])
    assert still.deltas == {}
    resumed = steps.step({"big_pump": "running"}, trades=[trade(3, "SAP", 3, 100)])
    assert sorted(c["insert"]["ticker"] for c in resumed.deltas["big"]) == ["IBM", "ORCL", "SAP"]
    assert resumed.pumped == {"big_pump": 3}
    # Nothing held is released twice.
    assert steps.step({"big_pump": "running"}).deltas == {}


def test_a_stopped_pump_ignores_what_arrives_until_started(steps: Steps) -> None:
    steps.step({"big_pump": "paused"}, trades=[trade(0, "HELD", 10, 100)])
    stopped = steps.step({"big_pump": "stopped"}, trades=[trade(1, "LOST", 10, 100)])
    assert stopped.deltas == {}
    started = steps.step({"big_pump": "running"}, trades=[trade(2, "NEW", 10, 100)])
    assert started.deltas == {"big": [{"insert": {"ticker": "NEW", "amount": 1000}}]}


def test_a_pump_declared_stopped_starts_stopped_and_inserts_its_changes_once_started(
    steps: Steps,
) -> None:
    first = steps.step(trades=[trade(0, "ORCL", 10, 100)])
    assert "per_ticker" not in first.deltas
    started = {"archive": "running"}
    second = steps.step(started, trades=[trade(1, "ORCL", 1, 100)])
    # The archive pump sees only what arrived since it started (ORCL 100, not 1000).
    assert second.deltas["per_ticker"] == [{"insert": {"ticker": "ORCL", "amount": 100}}]
    third = steps.step(started, trades=[trade(2, "ORCL", 2, 100)])
    assert sorted(third.deltas["per_ticker"], key=lambda c: "delete" in c) == [
        {"insert": {"ticker": "ORCL", "amount": 300}},
        {"delete": {"ticker": "ORCL", "amount": 100}},
    ]


def test_pumped_rows_meet_the_target_streams_clock(spark: SparkSession) -> None:
    sql = """
    CREATE STREAM a (x INT);
    CREATE STREAM b (x INT);
    CREATE PUMP p AS INSERT INTO b SELECT STREAM rowtime, x FROM a;
    CREATE VIEW v AS SELECT STREAM x FROM b;
    """
    steps = Steps(spark, sql)
    steps.step(b=[{"rowtime": "2020-01-01 11:00:00", "x": 0}])
    result = steps.step(
        a=[{"rowtime": "2020-01-01 10:00:00", "x": 1}, {"rowtime": "2020-01-01 12:00:00", "x": 2}]
    )
    assert result.deltas == {"v": [{"insert": {"x": 2}}]}
    assert result.dropped == [
        {
            "relation": "b",
            "row": {"rowtime": "2020-01-01 10:00:00", "x": 1},
            "reason": "out_of_order",
        }
    ]
