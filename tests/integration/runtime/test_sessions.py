"""A driver runs pipelines one after another, each on a session of its own
(worker/spares.py): what one session registered never stands in the next one's way."""

from pyspark.sql import SparkSession

from worker.runner.warmup import warm_up


def test_each_new_session_registers_the_python_sources_and_runs_a_step(
    spark: SparkSession,
) -> None:
    """The warm-up registers its Python source and steps a streaming query over it, as a
    pipeline's runner does: on the driver's session, then on two new sessions of it
    (Spark registered with the active session: the second session found the name taken)."""
    try:
        for session in (spark, spark.newSession(), spark.newSession()):
            warm_up(session)
    finally:
        spark._jvm.SparkSession.setActiveSession(spark._jsparkSession)
