"""The SparkSession a runner drives."""

import logging
import os
import sys
from collections.abc import Sequence

from pyspark.logger import PySparkLogger
from pyspark.sql import SparkSession

from worker.runner import class_archive
from worker.runner.jvm_lookups import remember_lookups

# With a trigger interval of 0 a step starts as soon as input waits; an idle query
# looks for input this often (Spark's default, 10 ms, would poll Postgres 100 times
# a second per pipeline).
IDLE_POLL_MS = 100


def build_session(
    app_name: str,
    master: str,
    *,
    cores: int = 2,
    memory: str = "1g",
    short_lived: bool = False,
    java_options: Sequence[str] = (),
) -> SparkSession:
    """A session on `master`: `cores` is the parallelism of shuffles (and the cores a
    cluster gives the pipeline), `memory` the driver's and each executor's heap.
    `short_lived`: a driver that runs a few steps and exits (`weir replay`).
    `java_options`: more options of the driver's JVM."""
    # The driver maps the archive of the classes it will load (class_archive.py).
    java_options = [*class_archive.java_options(), *java_options]
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = (
        SparkSession.builder.appName(app_name)
        .master(master)
        .config("spark.driver.memory", memory)
        .config("spark.executor.memory", memory)
        .config("spark.cores.max", str(cores))
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", str(cores))
        # A step's plan is new each step, so whole-stage code generation compiles it
        # anew every time: measured here, steps of 20 and of 20,000 rows ran 1.3x to
        # 2x faster without it.
        .config("spark.sql.codegen.wholeStage", "false")
        # PySpark records the Python call site of every column function in the JVM for
        # error messages: several py4j round trips per call, two thirds of those a step made.
        .config("spark.python.sql.dataFrameDebugging.enabled", "false")
        .config("spark.default.parallelism", str(cores))
        # A step's input and state are read as single partitions (engine.py): a join
        # or aggregate over single partitions then needs no shuffle whatever the
        # optimiser guesses of their size (a checkpoint's size is unknown to it, and
        # above this limit Spark shuffles them). Measured here, a 20-view small step
        # ran in 77 stages with shuffles and 5 without, 1.6 times faster; steps of
        # 2,000 events 1.1 to 1.5 times faster.
        .config("spark.sql.maxSinglePartitionBytes", str(2**63 - 1) + "b")
        # Nor a broadcast, which is one more job: single partitions join in place.
        .config("spark.sql.autoBroadcastJoinThreshold", "-1")
        # Catalyst's constraint propagation failed to optimise some steps ("key not
        # found: c1#..." in PruneFilters), for instance RIGHT JOINs over a filtered
        # aggregate, nested (tests/integration/runtime/test_engine_oracle.py,
        # `right_joins_over_a_having`). The filters it infers only spare work.
        .config("spark.sql.constraintPropagation.enabled", "false")
        # Catalyst adds up the constants of a chain of + first (`x + 9223372036854775807
        # + 1` as x + (9223372036854775807 + 1)), which overflows where SQL's order, left
        # to right, does not (Calcite's agg.iq).
        .config(
            "spark.sql.optimizer.excludedRules",
            "org.apache.spark.sql.catalyst.optimizer.ReorderAssociativeOperator",
        )
        # Each task of a new plan generates the code of its expressions again (the
        # compiled classes are cached, the generating is not): a step's plan is new
        # and its rows few, so interpreting them is quicker. Measured here: 5- and
        # 20-view small steps 1.2 times faster (docs/benchmarks.md).
        .config("spark.sql.codegen.factoryMode", "NO_CODEGEN")
        # Spark's status store keeps the last 1,000 SQL executions (their plans: some
        # 2,000 nodes a step for 17 views), jobs and stages even with the UI off; nothing
        # in Weir reads them. Measured here after 15 such steps: a live heap of 349 MB
        # with the defaults, 160 MB with these.
        .config("spark.sql.ui.retainedExecutions", "20")
        .config("spark.ui.retainedJobs", "100")
        .config("spark.ui.retainedStages", "100")
        .config("spark.ui.retainedTasks", "1000")
        # Each hash aggregate or sort of a task holds at least one page, one array on
        # the heap: 8-16 MB by default, which a driver's busy 1 GB heap failed to find in
        # one piece ("Failed to allocate a page", then AGGREGATE_OUT_OF_MEMORY). A step's
        # data is small and its plan has many such operators.
        .config("spark.buffer.pageSize", "2m")
        # A key twice in MAP[...] or MAP_CONCAT: the last value wins, as in Feldera (Spark
        # fails the step by default).
        .config("spark.sql.mapKeyDedupPolicy", "LAST_WIN")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.streaming.forceDeleteTempCheckpointLocation", "true")
        .config("spark.sql.streaming.pollingDelay", f"{IDLE_POLL_MS}ms")
    )
    if short_lived:
        # The JIT's optimising compiler (C2) spends more CPU on a short run's hot
        # methods than its code saves before the run ends: measured here (on a busy
        # machine), a 10-step replay of 1 or 5 views took 0.45-0.65 of the time with
        # the quick compiler (C1) alone.
        java_options.append("-XX:TieredStopAtLevel=1")
    if java_options:
        builder = builder.config("spark.driver.extraJavaOptions", " ".join(java_options))
    if master.startswith("local"):
        # Nothing outside this machine talks to a local driver; a cluster's executors
        # must reach the driver at the address Spark finds (SPARK_LOCAL_IP).
        builder = builder.config("spark.driver.bindAddress", "127.0.0.1").config(
            "spark.driver.host", "127.0.0.1"
        )
    session = builder.getOrCreate()
    session.sparkContext.setLogLevel("WARN")
    # PySpark prints every SQL error it raises as a JSON line with the JVM's whole
    # stack, on stderr; whoever catches the error reports it (data_errors.py).
    for name in ("DataFrameQueryContextLogger", "SQLQueryContextLogger"):
        PySparkLogger.getLogger(name).setLevel(logging.CRITICAL)  # it logs at ERROR
    remember_lookups()
    return session
