"""Pipeline steps: what a small step costs, and how that grows with the number of
views and with the rows in state; and `weir replay` of a 10-step program.

    .venv/bin/python -m bench.steps [--quick]

Steps run through `StepEngine` with its state on disk (`DiskStateStore`), as a
pipeline's runner runs them, on one local[2] SparkSession; a step's input is a
DataFrame of input-log records, as the runner's source gives it. Times are the
median of several steps after warm-up steps. Prints Markdown for
docs/benchmarks.md and draws its charts.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pyspark.sql import DataFrame, SparkSession

from backend.compiler import compile_program
from bench import charts
from worker.runner.engine import StepEngine
from worker.runner.session import build_session
from worker.runner.source import SCHEMA
from worker.runner.state import DiskStateStore

REPO = Path(__file__).parents[1]
TABLES = """\
CREATE TABLE events (
    k BIGINT NOT NULL, v BIGINT NOT NULL,
    t TIMESTAMP NOT NULL LATENESS INTERVAL '1' MINUTE
) WITH ('append_only' = 'true');
CREATE TABLE dims (k BIGINT NOT NULL PRIMARY KEY, name VARCHAR);
"""
# The kinds of view a program is made of, in turn: view i is KINDS[i % 5] with i in it.
KINDS = [
    "SELECT k, v FROM events WHERE v % {n} = 0",
    "SELECT k % {n} AS g, COUNT(*) AS c, SUM(v) AS s FROM events GROUP BY k % {n}",
    "SELECT e.k, e.v, d.name FROM events AS e JOIN dims AS d ON e.k = d.k + {n}",
    "SELECT k % {n} AS g, TUMBLE_START(t, INTERVAL '10' SECOND) AS w, COUNT(*) AS c "
    "FROM events GROUP BY TUMBLE(t, INTERVAL '10' SECOND), k % {n}",
    "SELECT DISTINCT k % {n} AS g FROM events",
]
START = dt.datetime(2026, 1, 1)
SMALL_STEP = 10  # rows


def program(views: int) -> str:
    return TABLES + "".join(
        f"CREATE VIEW v{i} AS {KINDS[i % len(KINDS)].format(n=i + 2)};\n" for i in range(views)
    )


class Rows:
    """Input-log records: events with rising times and keys, and the dims they join."""

    def __init__(self) -> None:
        self.seq = 0
        self.events = 0

    def record(self, relation: str, row: dict[str, object]) -> tuple[int, str, int, str]:
        self.seq += 1
        return (self.seq, relation, 1, json.dumps(row))

    def events_step(self, count: int) -> list[tuple[int, str, int, str]]:
        rows = []
        for _ in range(count):
            self.events += 1
            t = START + dt.timedelta(milliseconds=10 * self.events)
            event = {"k": self.events, "v": self.events % 97, "t": t.isoformat(" ")}
            rows.append(self.record("events", event))
        return rows

    def dims_step(self, count: int) -> list[tuple[int, str, int, str]]:
        return [self.record("dims", {"k": k, "name": f"d{k}"}) for k in range(count)]


class Pipeline:
    """A program stepped through the engine with its state on disk."""

    def __init__(self, spark: SparkSession, sql: str, folder: Path) -> None:
        result = compile_program(sql)
        assert not result.has_errors, result.diagnostics_json()
        self.spark = spark
        self.engine = StepEngine(spark, result.to_json()["plan"], DiskStateStore(folder))
        self.rows = Rows()
        self.step_no = 0

    def step(self, records: list[tuple[int, str, int, str]]) -> float:
        """Run one step; its seconds."""
        self.step_no += 1
        batch: DataFrame = self.spark.createDataFrame(records, SCHEMA)
        began = time.perf_counter()
        # The runner names a step's relations from the count that starts it (driver.py).
        self.engine.step(self.step_no, batch, relations={relation for _, relation, *_ in records})
        return time.perf_counter() - began

    def small_steps(self, warm_up: int, measured: int) -> float:
        """The median seconds of `measured` small steps, after `warm_up` of them."""
        for _ in range(warm_up):
            self.step(self.rows.events_step(SMALL_STEP))
        return statistics.median(
            self.step(self.rows.events_step(SMALL_STEP)) for _ in range(measured)
        )


def by_views(spark: SparkSession, work: Path, counts: list[int], measured: int) -> dict[int, float]:
    """Seconds of a small step for programs of each number of views."""
    seconds = {}
    for views in counts:
        pipeline = Pipeline(spark, program(views), work / f"views-{views}")
        pipeline.step(pipeline.rows.dims_step(100) + pipeline.rows.events_step(100))
        seconds[views] = pipeline.small_steps(warm_up=1, measured=measured)
    return seconds


def by_state(spark: SparkSession, work: Path, sizes: list[int], measured: int) -> dict[int, float]:
    """Seconds of a small step of a 5-view program (one view of each kind) holding
    `size` events and `size` dims in its inputs' and operators' state."""
    seconds = {}
    for size in sizes:
        pipeline = Pipeline(spark, program(5), work / f"state-{size}")
        pipeline.step(pipeline.rows.dims_step(size) + pipeline.rows.events_step(size))
        seconds[size] = pipeline.small_steps(warm_up=1, measured=measured)
    return seconds


def replay_seconds(work: Path, views: int, steps: int) -> float:
    """Wall-clock seconds of `weir replay` (a new process: Python, Spark start and all)
    of a program of `views` views over `steps` steps of 10 events."""
    (work / "program.sql").write_text(program(views))
    rows = Rows()
    lines = []
    for _ in range(steps):
        step: dict[str, list[dict[str, object]]] = {"events": []}
        for _, _, _, row in rows.events_step(SMALL_STEP):
            step["events"].append({"insert": json.loads(row)})
        lines.append(json.dumps(step))
    (work / "steps.jsonl").write_text("\n".join(lines) + "\n")
    weir = [sys.executable, "-m", "backend.cli", "replay", str(work / "program.sql")]
    began = time.perf_counter()
    done = subprocess.run(
        [*weir, "--steps", str(work / "steps.jsonl"), "--format", "json"],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    elapsed = time.perf_counter() - began
    if done.returncode != 0:
        raise RuntimeError(f"weir replay failed: {done.stderr[-2000:]}")
    assert done.stdout.count('"step": 1,') >= 1, done.stdout[:500]
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer and smaller runs")
    quick = parser.parse_args().quick
    view_counts = [1, 5, 20]
    sizes = [1_000, 10_000] if quick else [1_000, 10_000, 100_000]
    measured = 2 if quick else 3
    spark = build_session("weir-bench-steps", "local[2]")
    with tempfile.TemporaryDirectory(prefix="weir-bench-steps-") as tmp:
        work = Path(tmp)
        by_views(spark, work / "warm", [1], measured=1)  # JIT and Python workers
        views = by_views(spark, work, view_counts, measured)
        state = by_state(spark, work, sizes, measured)
        spark.stop()
        replays = {views: replay_seconds(work, views, 10) for views in (1, 5)}

    print(f"A small step is {SMALL_STEP} inserted events; each time is the median of")
    print(f"{measured} such steps after a warm-up step.\n")
    print("**By number of views** (views of five kinds in turn: filter, aggregate,")
    print("join with a table, tumbling window, DISTINCT)\n")
    print("| views | small step ms | vs 1 view |")
    print("|---|---|---|")
    for count, seconds in views.items():
        print(f"| {count} | {seconds * 1000:.0f} | {seconds / views[1]:.1f}x |")
    print("\n**By rows in state** (5 views, one of each kind; N events and N dims stored)\n")
    print("| rows in state (N) | small step ms |")
    print("|---|---|")
    for size, seconds in state.items():
        print(f"| {size:,} | {seconds * 1000:.0f} |")
    print(f"\n**Replay**: `weir replay` over 10 steps of {SMALL_STEP} events, as a new process")
    print("(Python and Spark start included)\n")
    print("| program | seconds |")
    print("|---|---|")
    for count, seconds in replays.items():
        print(f"| {count} view{'s' * (count > 1)} | {seconds:.1f} |")
    print()
    print(
        charts.lines(
            "steps-by-views",
            "Small step by number of views",
            list(views),
            {"small step (ms)": [s * 1000 for s in views.values()]},
            "views in the program",
            "ms",
        )
    )
    print(
        charts.lines(
            "steps-by-state",
            "Small step by rows in state (5 views)",
            list(state),
            {"small step (ms)": [s * 1000 for s in state.values()]},
            "rows in state (N events and N dims)",
            "ms",
            log_x=True,
        )
    )


if __name__ == "__main__":
    main()
