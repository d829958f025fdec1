"""The SparkSession a runner drives."""

import os
import sys

from pyspark.sql import SparkSession

# With a trigger interval of 0 a step starts as soon as input waits; an idle query
# looks for input this often (Spark's default, 10 ms, would poll Postgres 100 times
# a second per pipeline).
IDLE_POLL_MS = 100


def build_session(
    app_name: str, master: str, *, cores: int = 2, memory: str = "1g", short_lived: bool = False
) -> SparkSession:
    """A session on `master`: `cores` is the parallelism of a step's shuffles (and the
    cores a cluster gives the pipeline), `memory` the driver's and each executor's heap.
    `short_lived`: a driver that runs a few steps and exits (`weir replay`)."""
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
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.streaming.forceDeleteTempCheckpointLocation", "true")
        .config("spark.sql.streaming.pollingDelay", f"{IDLE_POLL_MS}ms")
    )
    if short_lived:
        # The JIT's optimising compiler (C2) spends more CPU on a short run's hot
        # methods than its code saves before the run ends: measured here (on a busy
        # machine), a 10-step replay of 1 or 5 views took 0.45-0.65 of the time with
        # the quick compiler (C1) alone.
        builder = builder.config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1")
    if master.startswith("local"):
        # Nothing outside this machine talks to a local driver; a cluster's executors
        # must reach the driver at the address Spark finds (SPARK_LOCAL_IP).
        builder = builder.config("spark.driver.bindAddress", "127.0.0.1").config(
            "spark.driver.host", "127.0.0.1"
        )
    session = builder.getOrCreate()
    session.sparkContext.setLogLevel("WARN")
    return session
