"""The pipeline's input log (a Postgres table) as a replayable Spark stream source.

One source carries every table's changes, tagged with the table name, so a
micro-batch is one atomic step across all inputs. Offsets are input sequence
numbers; the ingress commits them in order, so `ingested_seq` is a safe end.
"""

from collections.abc import Iterator, Sequence
from typing import Any

from pyspark.sql import SparkSession
from pyspark.sql.datasource import DataSource, DataSourceStreamReader, InputPartition
from pyspark.sql.types import LongType, ShortType, StringType, StructField, StructType

SOURCE_NAME = "weir_input"
SCHEMA = StructType(
    [
        StructField("seq", LongType(), False),
        StructField("relation", StringType(), False),
        StructField("weight", ShortType(), False),
        StructField("row", StringType(), False),
    ]
)
INPUT_TABLE = "pipelines_inputchange"
PIPELINE_TABLE = "pipelines_pipeline"


class SeqRange(InputPartition):  # type: ignore[misc]
    def __init__(self, start: int, end: int) -> None:
        self.start = start
        self.end = end


def _connect(options: dict[str, str]) -> Any:
    import psycopg  # imported in Spark's Python workers, not at module load

    return psycopg.connect(options["dsn"], autocommit=True)


class InputLogReader(DataSourceStreamReader):  # type: ignore[misc]
    def __init__(self, options: dict[str, str]) -> None:
        self.options = options
        self.pipeline_id = int(options["pipeline_id"])
        self._offsets: Any = None  # one connection for the idle query's frequent polls

    def __getstate__(self) -> dict[str, Any]:
        """A reader shipped to a Spark worker leaves its connection behind."""
        return {**self.__dict__, "_offsets": None}

    def initialOffset(self) -> dict[str, int]:
        return {"seq": 0}

    def latestOffset(self, start: dict[str, int], limit: Any) -> dict[str, int]:
        if self._offsets is None or self._offsets.closed:
            self._offsets = _connect(self.options)
        try:
            row = self._offsets.execute(
                f"SELECT ingested_seq FROM {PIPELINE_TABLE} WHERE id = %s", (self.pipeline_id,)
            ).fetchone()
        except Exception:
            self._offsets.close()  # a new connection on the next poll (Postgres restarted)
            raise
        return {"seq": max(int(row[0]), start["seq"])} if row else start

    def partitions(self, start: dict[str, int], end: dict[str, int]) -> Sequence[SeqRange]:
        return [SeqRange(start["seq"], end["seq"])]

    def read(self, partition: SeqRange) -> Iterator[tuple[int, str, int, str]]:
        with _connect(self.options) as conn:
            cursor = conn.execute(
                f"SELECT seq, relation, weight, row::text FROM {INPUT_TABLE} "
                "WHERE pipeline_id = %s AND seq > %s AND seq <= %s ORDER BY seq",
                (self.pipeline_id, partition.start, partition.end),
            )
            yield from cursor

    def commit(self, end: dict[str, int]) -> None:
        """The input log is kept: it is the pipeline's durable record of its inputs."""


class InputLogSource(DataSource):  # type: ignore[misc]
    @classmethod
    def name(cls) -> str:
        return SOURCE_NAME

    def schema(self) -> StructType:
        return SCHEMA

    def streamReader(self, schema: StructType) -> InputLogReader:
        return InputLogReader(self.options)


def register_once(spark: SparkSession, source: type[DataSource]) -> None:
    """Register a Python data source with `spark` unless it has it already.

    Spark 4.3 registers with the thread's active session, whichever session it is
    called on: a driver that runs one pipeline after another, each on a session of its
    own (worker/spares.py), found the name taken (DATA_SOURCE_ALREADY_EXISTS) and the
    source missing from the new session. So `spark` becomes the active session first.
    """
    spark._jvm.SparkSession.setActiveSession(spark._jsparkSession)
    manager = spark._jsparkSession.sessionState().dataSourceManager()
    if not manager.dataSourceExists(source.name()):
        spark.dataSource.register(source)
