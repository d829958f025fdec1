"""A warm-up for a Spark driver that will run pipelines later (a spare, worker/spares.py).

A new driver's first step takes several seconds more than later ones: Spark loads
and JIT-compiles its planner and operators, and starts its Python workers, on first
use. One step of a small program with an aggregate and a join, on rows that are
thrown away, does that before any pipeline waits for it.
"""

from pyspark.sql import SparkSession

from backend.compiler import compile_program
from worker.runner.engine import StepEngine
from worker.runner.source import SCHEMA
from worker.runner.state import MemoryStateStore

PROGRAM = """
CREATE TABLE t (k INT, v BIGINT, ts TIMESTAMP LATENESS INTERVAL '1' MINUTE);
CREATE TABLE u (k INT, name VARCHAR);
CREATE VIEW totals AS SELECT k, COUNT(*) AS n, SUM(v) AS s, MAX(ts) AS last FROM t GROUP BY k;
CREATE VIEW named AS SELECT t.k, u.name, t.v FROM t JOIN u ON t.k = u.k WHERE t.v > 0;
"""
ROWS = [
    (1, "t", 1, '{"k": 1, "v": 5, "ts": "2020-01-01 00:00:00"}'),
    (2, "t", 1, '{"k": 2, "v": 7, "ts": "2020-01-01 00:00:01"}'),
    (3, "u", 1, '{"k": 1, "name": "a"}'),
]


def warm_up(spark: SparkSession) -> None:
    """Run a step of a small program on `spark`; keeps nothing."""
    result = compile_program(PROGRAM)
    assert result.spec is not None, result.diagnostics_json()
    engine = StepEngine(spark, result.to_json()["plan"], MemoryStateStore())
    engine.step(1, spark.createDataFrame(ROWS, SCHEMA))
