"""What a step keeps in Spark's block manager, released when the step ends.

A step materialises its input and large stored state with `localCheckpoint` (read by
many parts of one job). Spark frees such blocks only once the JVM has collected the
RDD, which a busy driver may not do for a long time: blocks piled up over thousands
of steps until an aggregate found no memory left (AGGREGATE_OUT_OF_MEMORY).
"""

import contextlib
from collections.abc import Iterator
from typing import Any

from pyspark.sql import SparkSession


@contextlib.contextmanager
def released_blocks(spark: SparkSession) -> Iterator[None]:
    """Unpersist, when the block ends, every RDD persisted while it ran.

    Steps of one session run one at a time (the runner's step lock), so what was
    persisted meanwhile is the step's own.
    """
    jsc = spark.sparkContext._jsc
    before = _persisted(jsc)
    try:
        yield
    finally:
        persisted = jsc.getPersistentRDDs()
        for rdd_id in _persisted(jsc) - before:
            persisted.get(rdd_id).unpersist(False)


def _persisted(jsc: Any) -> set[int]:
    """The ids of the persisted RDDs, in four py4j calls (walking the Java map from
    Python costs two calls an entry, and a driver may hold many: other pipelines')."""
    text = jsc.sc().getPersistentRDDs().keys().mkString(",")  # "3,17"
    return {int(item) for item in text.split(",") if item}
