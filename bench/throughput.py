"""Throughput: Nexmark-style queries through Weir's step engine vs hand-written PySpark.

    .venv/bin/python -m bench.throughput [--steps 10] [--per-step 5000]

Both sides are Structured Streaming queries on the same local SparkSession,
reading the same JSON-lines files (one file = one step = one micro-batch,
`maxFilesPerTrigger` 1, `availableNow`) and writing to the same kind of sink (a
`foreachBatch` that brings the batch's result to the driver). Weir's side runs
the compiled program's plan through `StepEngine`, with state in memory, exactly
as a pipeline's runner does; the hand-written side uses Spark's native
streaming operators with a watermark. Spark's ceilings are the same file source
into the `noop` sink, and the rate source into the `noop` sink.

Prints a Markdown table for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

from backend.compiler import compile_program
from bench import charts
from bench.nexmark import SCHEMA_SQL, write_steps
from worker.runner.engine import StepEngine
from worker.runner.session import build_session
from worker.runner.source import SCHEMA
from worker.runner.state import MemoryStateStore

BID = "auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING, date_time TIMESTAMP"
AUCTION = (
    "id BIGINT, seller BIGINT, category INT, initial_bid BIGINT, expires TIMESTAMP, "
    "date_time TIMESTAMP"
)


@dataclass(frozen=True)
class Query:
    name: str
    sql: str  # the view `q`
    hand_written: Callable[[dict[str, DataFrame]], DataFrame]
    output_mode: str = "append"


def _tumble(inputs: dict[str, DataFrame], mode: str) -> DataFrame:
    bids = inputs["bid"].withWatermark("date_time", "10 seconds")
    return bids.groupBy(F.window("date_time", "10 seconds"), "auction").count()


def _top_prices(inputs: dict[str, DataFrame], k: int) -> DataFrame:
    """Spark refuses ROW_NUMBER on a stream: a hand-written top-k keeps each auction's
    prices in an aggregate and takes the k highest, numbered from 1."""
    top = F.slice(F.sort_array(F.collect_list("price"), asc=False), 1, k)
    return (
        inputs["bid"]
        .groupBy("auction")
        .agg(top.alias("top"))
        .select("auction", F.posexplode("top").alias("rn", "price"))
        .select("auction", "price", (F.col("rn") + 1).alias("rn"))
    )


QUERIES = [
    Query("pass-through", "SELECT * FROM bid", lambda i: i["bid"]),
    Query(
        "projection",
        "SELECT auction, bidder, price * 0.908 AS euro, date_time FROM bid",
        lambda i: i["bid"].select(
            "auction", "bidder", (F.col("price") * F.lit(0.908)).alias("euro"), "date_time"
        ),
    ),
    Query(
        "filter",
        "SELECT auction, price FROM bid WHERE auction % 123 = 0",
        lambda i: i["bid"].where(F.col("auction") % 123 == 0).select("auction", "price"),
    ),
    Query(
        "tumbling window count",
        "SELECT auction, TUMBLE_START(date_time, INTERVAL '10' SECOND) AS window_start, "
        "COUNT(*) AS bids FROM bid GROUP BY TUMBLE(date_time, INTERVAL '10' SECOND), auction",
        lambda i: _tumble(i, "update"),
        output_mode="update",
    ),
    Query(
        "hopping window count",
        "SELECT auction, window_start, COUNT(*) AS bids FROM TABLE(HOP(TABLE bid, "
        "DESCRIPTOR(date_time), INTERVAL '2' SECOND, INTERVAL '10' SECOND)) "
        "GROUP BY window_start, auction",
        lambda i: (
            i["bid"]
            .withWatermark("date_time", "10 seconds")
            .groupBy(F.window("date_time", "10 seconds", "2 seconds"), "auction")
            .count()
        ),
        output_mode="update",
    ),
    Query(
        "stream-stream join",
        "SELECT b.auction, b.price, a.seller FROM bid AS b JOIN auction AS a ON b.auction = a.id",
        lambda i: (
            i["bid"]
            .join(i["auction"], F.col("auction") == F.col("id"))
            .select("auction", "price", "seller")
        ),
    ),
    Query(
        "top-3 prices per auction",
        "SELECT auction, price, rn FROM (SELECT auction, price, ROW_NUMBER() OVER "
        "(PARTITION BY auction ORDER BY price DESC) AS rn FROM bid) WHERE rn <= 3",
        lambda i: _top_prices(i, 3),
        output_mode="update",
    ),
    Query(
        "emit_final tumbling window",
        "SELECT auction, TUMBLE_START(date_time, INTERVAL '10' SECOND) AS window_start, "
        "COUNT(*) AS bids FROM bid GROUP BY TUMBLE(date_time, INTERVAL '10' SECOND), auction",
        lambda i: _tumble(i, "append"),
    ),
]
EMIT_FINAL = {"emit_final tumbling window": "window_start"}


def _source(spark: SparkSession, folder: Path) -> DataFrame:
    return spark.readStream.schema(SCHEMA).option("maxFilesPerTrigger", 1).json(str(folder))


def _parsed(source: DataFrame) -> dict[str, DataFrame]:
    def rows(relation: str, schema: str) -> DataFrame:
        part = source.where(F.col("relation") == relation)
        return part.select(F.from_json("row", schema).alias("r")).select("r.*")

    return {"bid": rows("bid", BID), "auction": rows("auction", AUCTION)}


def _timed(spark: SparkSession, start: Callable[[], object]) -> float:
    began = time.perf_counter()
    query = start()
    query.awaitTermination()  # type: ignore[attr-defined]
    if query.exception() is not None:  # type: ignore[attr-defined]
        raise RuntimeError(str(query.exception()))  # type: ignore[attr-defined]
    return time.perf_counter() - began


def run_weir(spark: SparkSession, query: Query, folder: Path, work: Path) -> float:
    with_final = ""
    if query.name in EMIT_FINAL:
        with_final = f" WITH ('emit_final' = '{EMIT_FINAL[query.name]}')"
    result = compile_program(f"{SCHEMA_SQL}\nCREATE VIEW q{with_final} AS {query.sql};")
    assert not result.has_errors, result.diagnostics_json()
    engine = StepEngine(spark, result.to_json()["plan"], MemoryStateStore())

    def step(batch: DataFrame, batch_id: int) -> None:
        engine.step(batch_id + 1, batch)

    def start() -> object:
        return (
            _source(spark, folder)
            .writeStream.foreachBatch(step)
            .option("checkpointLocation", str(work / f"weir-{query.name}"))
            .trigger(availableNow=True)
            .start()
        )

    return _timed(spark, start)


def run_hand_written(spark: SparkSession, query: Query, folder: Path, work: Path) -> float:
    def start() -> object:
        result = query.hand_written(_parsed(_source(spark, folder)))
        return (
            result.writeStream.outputMode(query.output_mode)
            .foreachBatch(lambda batch, _: batch.collect())
            .option("checkpointLocation", str(work / f"pyspark-{query.name}"))
            .trigger(availableNow=True)
            .start()
        )

    return _timed(spark, start)


def run_file_ceiling(spark: SparkSession, folder: Path, work: Path) -> float:
    def start() -> object:
        return (
            _source(spark, folder)
            .writeStream.format("noop")
            .option("checkpointLocation", str(work / "noop"))
            .trigger(availableNow=True)
            .start()
        )

    return _timed(spark, start)


def rate_ceiling(spark: SparkSession, seconds: float = 10) -> float:
    """Rows per second Spark's rate source delivers into the noop sink here."""
    query = (
        spark.readStream.format("rate")
        .option("rowsPerSecond", 2_000_000)
        .load()
        .writeStream.format("noop")
        .start()
    )
    time.sleep(seconds)  # a benchmark's fixed measuring window, not a test's wait
    progress = query.recentProgress
    query.stop()
    rows = sum(p["numInputRows"] for p in progress[1:])
    elapsed = sum(p["durationMs"]["triggerExecution"] for p in progress[1:]) / 1000
    return rows / elapsed if elapsed else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--per-step", type=int, default=2000)
    args = parser.parse_args()
    # The same driver heap as a pipeline's runner gets (Spark's default, 1 GiB).
    spark = build_session("weir-bench", "local[2]")
    with tempfile.TemporaryDirectory(prefix="weir-bench-") as tmp:
        work = Path(tmp)
        events = write_steps(work / "steps", args.steps, args.per_step)
        run_hand_written(spark, QUERIES[0], work / "steps", work / "warm")  # JIT and workers
        ceiling = events / run_file_ceiling(spark, work / "steps", work)
        print(f"{events:,} events in {args.steps} steps of {args.per_step:,}.\n")
        print("| query | Weir events/s | hand-written PySpark events/s | Weir / PySpark |")
        print("|---|---|---|---|")
        figures: dict[str, tuple[float, float]] = {}
        for query in QUERIES:
            hand = events / run_hand_written(spark, query, work / "steps", work)
            try:
                weir = events / run_weir(spark, query, work / "steps", work)
            except Exception as err:  # reported in the table: a figure, not a crash
                reason = "out of memory" if "OutOfMemoryError" in str(err) else type(err).__name__
                print(f"| {query.name} | failed: {reason} | {hand:,.0f} | - |", flush=True)
                continue
            figures[query.name] = (weir, hand)
            print(f"| {query.name} | {weir:,.0f} | {hand:,.0f} | {weir / hand:.2f}x |", flush=True)
        print(f"\nCeilings: the same file source into the noop sink {ceiling:,.0f} events/s; ")
        print(f"the rate source into the noop sink {rate_ceiling(spark):,.0f} rows/s.\n")
    print(
        charts.bars(
            "throughput",
            f"Events per second (file-source ceiling: {ceiling:,.0f})",
            list(figures),
            {
                "Weir": [weir for weir, _ in figures.values()],
                "hand-written PySpark": [hand for _, hand in figures.values()],
            },
            "events/s",
        )
    )
    spark.stop()


if __name__ == "__main__":
    main()
