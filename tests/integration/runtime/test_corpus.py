"""The oracle corpus: every program in corpus/ replayed on random changes, step by step,
each view's integrated deltas equal to DuckDB's batch answer over the accepted rows.

A corpus file is a Weir program. A view is checked against its own query text, or
against the DuckDB query of a line `-- oracle VIEW: SELECT ...` where the dialects
differ (TUMBLE, FLOOR(ts TO HOUR), ...); `-- steps: N` sets the number of steps.
Random changes follow each input's rules: tables get inserts and deletes of rows
they hold, `append_only` tables and streams only inserts, tables with a primary
key upserts (an insert replaces the key's row) and deletes by key. Times come out
of order, so LATENESS and stream clocks drop rows: the rows Weir reports dropped
are not accepted, and the oracle never sees them.
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import pytest
from pyspark.sql import SparkSession

from backend.compiler import compile_program
from tests.integration.runtime import duckdb_oracle
from worker.replay import step_rows
from worker.runner.engine import StepEngine
from worker.runner.source import SCHEMA
from worker.runner.state import DiskStateStore

pytestmark = pytest.mark.corpus  # about 8 minutes here: `make test-corpus`, not `make test`
CORPUS = Path(__file__).parent / "corpus"
PROGRAMS = sorted(CORPUS.glob("*.sql"))
STEPS = 2
BASE = dt.datetime(2024, 1, 1, 10, 0, 0)
WORDS = ["a", "b", "c", "ab", "ba"]


def test_the_corpus_has_forty_programs() -> None:
    assert len(PROGRAMS) >= 40


class Input:
    """One table or stream of a program, and what it holds (the accepted rows)."""

    def __init__(self, relation: dict[str, Any]) -> None:
        self.name = relation["name"]
        self.columns = relation["columns"]
        stream = relation["kind"] == "stream"
        self.append_only = stream or relation["append_only"]
        self.key = list(relation["primary_key"])
        self.timed = stream or any(c["lateness"] for c in self.columns)
        self.rows: Counter[str] = Counter()  # JSON text of a row -> multiplicity

    def random_row(self, rng: random.Random, step: int) -> dict[str, Any]:
        return {c["name"]: _value(rng, c, step) for c in self.columns}

    def changes(self, rng: random.Random, step: int) -> list[dict[str, Any]]:
        """This step's random changes, applied to `rows` as Weir will accept them
        (inserts Weir then drops are taken out again by `refused`)."""
        out: list[dict[str, Any]] = []
        for _ in range(rng.randint(3, 7)):
            held = list(self.rows.elements())
            if held and not self.append_only and not self.timed and rng.random() < 0.3:
                row = json.loads(rng.choice(held))
                out.append({"delete": row})
                self._remove(row)
            else:
                row = self.random_row(rng, step)
                out.append({"insert": row})
                self._insert(row)
        return out

    def _insert(self, row: dict[str, Any]) -> None:
        if self.key:
            for other in [r for r in self.rows if self._same_key(json.loads(r), row)]:
                del self.rows[other]
        self.rows[json.dumps(row, sort_keys=True)] += 1

    def _remove(self, row: dict[str, Any]) -> None:
        text = json.dumps(row, sort_keys=True)
        if self.key:
            for other in [r for r in self.rows if self._same_key(json.loads(r), row)]:
                del self.rows[other]
        else:
            self.rows[text] -= 1
            self.rows = +self.rows

    def _same_key(self, a: dict[str, Any], b: dict[str, Any]) -> bool:
        return all(a[k] == b[k] for k in self.key)

    def refused(self, row: dict[str, Any]) -> None:
        """Weir dropped this inserted row (late, out of order): it is not held."""
        text = json.dumps({c["name"]: row.get(c["name"]) for c in self.columns}, sort_keys=True)
        assert self.rows[text] > 0, f"{self.name}: dropped a row never inserted: {row}"
        self.rows[text] -= 1
        self.rows = +self.rows


def _value(rng: random.Random, column: dict[str, Any], step: int) -> Any:
    sql_type = column["type"]
    if column.get("nullable", True) and rng.random() < 0.1:
        return None
    if sql_type in ("INTEGER", "BIGINT", "SMALLINT", "TINYINT"):
        return rng.randint(0, 6)
    if sql_type == "VARCHAR":
        return rng.choice(WORDS)
    if sql_type == "DOUBLE":
        return rng.randint(0, 20) / 2  # halves: sums are exact in binary
    if sql_type.startswith("DECIMAL"):
        return str(decimal.Decimal(rng.randint(0, 2000)) / 100)
    if sql_type == "BOOLEAN":
        return rng.random() < 0.5
    if sql_type == "DATE":
        return f"2024-01-0{rng.randint(1, 5)}"
    if sql_type == "TIMESTAMP":
        # Each step ~20 minutes later, with rows up to 25 minutes out of order.
        minutes = step * 20 + rng.randint(-25, 10)
        return (BASE + dt.timedelta(minutes=minutes, seconds=rng.randint(0, 59))).strftime(
            "%Y-%m-%d %H:%M:%S"
        )
    raise AssertionError(f"no random values for {sql_type}")


def _statements(text: str) -> dict[str, str]:
    """View name -> its oracle SQL: an `-- oracle` line, else the view's own query."""
    oracles = dict(re.findall(r"^-- oracle (\w+): (.+)$", text, re.MULTILINE))
    code = re.sub(r"--[^\n]*", "", text)
    views = {}
    for statement in code.split(";"):
        found = re.match(
            r"\s*CREATE\s+(?:LOCAL\s+|MATERIALIZED\s+)?VIEW\s+(\w+)"
            r"(?:\s*\([^)]*\))?(?:\s+WITH\s*\([^)]*\))?\s+AS\s+(.+)",
            statement,
            re.IGNORECASE | re.DOTALL,
        )
        if found:
            name = found.group(1).lower()
            views[name] = oracles.get(name, found.group(2).strip())
    return views


DUCK_TYPES = {"VARCHAR": "VARCHAR", "INTEGER": "INTEGER", "BIGINT": "BIGINT", "DOUBLE": "DOUBLE"}


def _duckdb(inputs: list[Input], views: dict[str, str]) -> duckdb.DuckDBPyConnection:
    db = duckdb_oracle.connect()
    for table in inputs:
        columns = ", ".join(
            f'"{c["name"]}" {DUCK_TYPES.get(c["type"], c["type"])}' for c in table.columns
        )
        db.execute(f"CREATE TABLE {table.name} ({columns})")
        for text, count in table.rows.items():
            row = json.loads(text)
            values = [row[c["name"]] for c in table.columns]
            marks = ", ".join("?" for _ in values)
            for _ in range(count):
                db.execute(f"INSERT INTO {table.name} VALUES ({marks})", values)
    for name, sql in views.items():
        db.execute(f"CREATE VIEW {name} AS {sql}")
    return db


def _normal(value: Any) -> Any:
    """A value of either side in one comparable form."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, dt.datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S") + (
            f".{value.microsecond:06d}".rstrip("0") if value.microsecond else ""
        )
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, int | float | decimal.Decimal):
        number = float(value)
        return round(number, 6)
    if isinstance(value, str):
        try:
            return round(float(decimal.Decimal(value)), 6)
        except decimal.InvalidOperation:
            return value
    return value


def _program(path: Path) -> tuple[str, dict[str, Any], int]:
    text = path.read_text()
    result = compile_program(text)
    assert not result.has_errors, result.diagnostics_json()
    steps = re.search(r"^-- steps: (\d+)$", text, re.MULTILINE)
    return text, result.to_json()["plan"], int(steps.group(1)) if steps else STEPS


def _renamed(node: Any, prefix: str) -> Any:
    """A plan (or part of one) with every relation name prefixed: programs side by side."""
    if isinstance(node, dict):
        renamed = {key: _renamed(value, prefix) for key, value in node.items()}
        if node.get("op") == "scan":
            renamed["relation"] = prefix + node["relation"]
        return renamed
    if isinstance(node, list):
        return [_renamed(item, prefix) for item in node]
    return node


@dataclass
class Run:
    """One corpus program in the merged run: its inputs, oracle views and, per step, each
    view's integrated changes and DuckDB's answer."""

    prefix: str
    inputs: list[Input]
    views: dict[str, str]  # every view, for DuckDB
    published: list[str]  # the views compared: LOCAL views have no output
    steps: int
    seen: list[dict[str, tuple[Counter[Any], Counter[Any]]]] = field(default_factory=list)


@pytest.fixture(scope="module")
def runs(spark: SparkSession, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Run]:
    """Every program replayed in one engine, each under a prefix of its own: a step of
    the corpus is one step of every program (one Spark job instead of forty). The state
    is kept on disk, as a pipeline keeps it."""
    merged: dict[str, Any] = {"inputs": [], "views": []}
    runs: dict[str, Run] = {}
    for index, path in enumerate(PROGRAMS):
        text, plan, steps = _program(path)
        merged["version"] = plan["version"]
        prefix = f"p{index}_"
        for relation in plan["inputs"]:
            merged["inputs"].append({**relation, "name": prefix + relation["name"]})
        for view in plan["views"]:
            merged["views"].append({**_renamed(view, prefix), "name": prefix + view["name"]})
        views = _statements(text)
        assert set(views) == {v["name"] for v in plan["views"]}, f"{path.stem}: oracles"
        inputs = [Input(r) for r in plan["inputs"]]
        published = [v["name"] for v in plan["views"] if not v.get("local")]
        runs[path.stem] = Run(prefix, inputs, views, published, steps)
    engine = StepEngine(spark, merged, DiskStateStore(tmp_path_factory.mktemp("corpus-state")))
    totals = {
        run.prefix + name: Counter[tuple[Any, ...]]()
        for run in runs.values()
        for name in run.published
    }
    seq = 0
    for step in range(1, max(run.steps for run in runs.values()) + 1):
        changes = {}
        for stem, run in runs.items():
            rng = random.Random(f"{stem}-{step}")
            if step <= run.steps:
                for table in run.inputs:
                    changes[run.prefix + table.name] = table.changes(rng, step)
        rows = step_rows(merged, json.dumps(changes), step, seq)
        seq += len(rows)
        result = engine.step(step, spark.createDataFrame(rows, SCHEMA))
        for drop in result.dropped:
            run = next(r for r in runs.values() if drop["relation"].startswith(r.prefix))
            table = drop["relation"].removeprefix(run.prefix)
            next(i for i in run.inputs if i.name == table).refused(drop["row"])
        for name, deltas in result.deltas.items():
            for change in deltas:
                ((kind, row),) = change.items()
                totals[name][tuple(_normal(v) for v in row.values())] += (
                    1 if kind == "insert" else -1
                )
        for run in runs.values():
            if step > run.steps:
                continue
            db = _duckdb(run.inputs, run.views)
            seen = {}
            for name in run.published:
                answer = db.execute(f"SELECT * FROM {name}").fetchall()
                expected = Counter(tuple(_normal(v) for v in row) for row in answer)
                seen[name] = (Counter(totals[run.prefix + name]), expected)
            run.seen.append(seen)
    return runs


@pytest.mark.parametrize("stem", [p.stem for p in PROGRAMS])
def test_program_equals_duckdb_after_every_step(runs: dict[str, Run], stem: str) -> None:
    run = runs[stem]
    assert len(run.seen) == run.steps
    for step, seen in enumerate(run.seen, 1):
        for name, (integrated, expected) in seen.items():
            assert all(count >= 0 for count in integrated.values()), (step, name, integrated)
            assert +integrated == expected, (step, name)
