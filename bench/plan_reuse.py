"""What a plan built once per pipeline could save: each small step's one collect, timed
by phase, and then run a second time on the very same DataFrame, so that Spark runs
again the physical plan it already has (no py4j building, analysis, optimisation or
planning). Both runs give the same rows (checked).

    .venv/bin/python -m bench.plan_reuse

The programs and steps are bench/steps.py's (views of five kinds in turn, 10-event
steps); each time is the median of 4 steps after 3 warm-up steps. Prints Markdown for
docs/benchmarks.md.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pyspark.sql.classic.dataframe import DataFrame

from bench.steps import SMALL_STEP, Pipeline, program
from worker.runner.session import build_session

PHASES = ("optimise", "plan", "run", "run again")


@contextmanager
def timed_collects(times: dict[str, list[float]]) -> Iterator[None]:
    """Every DataFrame.collect meanwhile: its phases' seconds added to `times`, and run
    twice."""
    collect = DataFrame.collect

    def phased(self: DataFrame) -> list[Any]:
        execution = self._jdf.queryExecution()
        began = time.perf_counter()
        execution.optimizedPlan()
        optimised = time.perf_counter()
        execution.executedPlan()
        planned = time.perf_counter()
        rows = collect(self)
        ran = time.perf_counter()
        again = collect(self)
        times["run again"].append(time.perf_counter() - ran)
        assert sorted(map(str, again)) == sorted(map(str, rows)), "a re-run differs"
        times["optimise"].append(optimised - began)
        times["plan"].append(planned - optimised)
        times["run"].append(ran - planned)
        return rows

    DataFrame.collect = phased  # type: ignore[method-assign]
    try:
        yield
    finally:
        DataFrame.collect = collect  # type: ignore[method-assign]


def main() -> None:
    spark = build_session("weir-bench-plan-reuse", "local[2]")
    figures: dict[int, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="weir-bench-reuse-") as tmp:
        for views in (1, 5, 20):
            pipeline = Pipeline(spark, program(views), Path(tmp) / f"views-{views}")
            pipeline.step(pipeline.rows.dims_step(100) + pipeline.rows.events_step(100))
            for _ in range(3):
                pipeline.step(pipeline.rows.events_step(SMALL_STEP))
            times: dict[str, list[float]] = defaultdict(list)
            with timed_collects(times):
                steps = [pipeline.step(pipeline.rows.events_step(SMALL_STEP)) for _ in range(4)]
            assert len(times["run"]) == len(steps), "one collect a step"
            figures[views] = {
                "step": statistics.median(steps),
                **{phase: statistics.median(times[phase]) for phase in PHASES},
            }
    spark.stop()
    print(f"A small step is {SMALL_STEP} inserted events; medians of 4 steps (the step's")
    print("time includes its collect's second run, which is left out of the step below).\n")
    print("| views | step ms | collect: optimise | plan | run | the same plan run again |")
    print("|---|---|---|---|---|---|")
    for views, f in figures.items():
        step = (f["step"] - f["run again"]) * 1000
        print(
            f"| {views} | {step:.0f} | {f['optimise'] * 1000:.0f} | {f['plan'] * 1000:.0f} "
            f"| {f['run'] * 1000:.0f} | {f['run again'] * 1000:.0f} |"
        )
    ratio = figures[20]["run again"] / figures[1]["run again"]
    print(f"\nThe same plan run again, 20 views vs 1 view: {ratio:.1f}x.")


if __name__ == "__main__":
    main()
