"""The Spark driver program of one pipeline.

It runs one Structured Streaming query (the input log in, a step sink out) and
moves the pipeline's state towards its desired state: there is no pause in
Spark, so pause stops the query (its checkpoint keeps the offsets) and resume
starts it again from the checkpoint; nothing is lost or done twice.
"""

import logging
import signal
import sys
import threading
import time
import traceback
from types import FrameType
from typing import Any

from django.conf import settings
from django.db import close_old_connections
from pyspark.errors import PySparkException
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F
from pyspark.sql.streaming import StreamingQuery

from backend.pipelines.config import effective_config, storage_root
from backend.pipelines.connectors import Connectors
from backend.pipelines.metrics import StepFigures
from backend.pipelines.models import DesiredState, Pipeline, State
from backend.pipelines.pumps import pump_states
from backend.pipelines.services import (
    pipeline_record_step,
    pipeline_runner_exited,
    pipeline_set_state,
    pipeline_step_done,
)
from worker.runner.adhoc import QueryServer, StreamRegistry
from worker.runner.blocks import released_blocks
from worker.runner.contents import Contents
from worker.runner.data_errors import data_error
from worker.runner.engine import Backfill, StepEngine
from worker.runner.lower import scanned
from worker.runner.session import build_session
from worker.runner.source import SOURCE_NAME, InputLogSource, register_once
from worker.runner.state import DiskStateStore
from worker.spares import fits_spares

log = logging.getLogger("weir.runner")
ACTOR = "runner"
CONTROL_POLL_S = 0.2
STALLED_S = 30  # a query this long at one stage is logged (StallWatch)
START_STUCK_S = 45  # a start of the query that has not returned after this is logged
# A query's status messages between its triggers (Spark's MicroBatchExecution).
IDLE_STATUSES = frozenset(("Waiting for data to arrive", "Waiting for next trigger", "Stopped"))
# Spark gives a Python worker it starts 10 s to connect back: a machine under heavy
# load can miss that while the query starts. Such a start is tried again, after a pause
# that grows with each try (the load may pass): 3, 6, 9 and 12 s.
TRANSIENT_START_ERROR = "Python worker failed to connect back"
START_ATTEMPTS = 5
START_RETRY_PAUSE_S = 3.0


class StallWatch:
    """A streaming query that stays at one stage STALLED_S seconds, logged once: what
    the runner's log says of a query that makes no step. A stage is the trigger's, or
    the query's own before its first trigger (its sources starting); waiting for input
    is none.

    >>> watch = StallWatch()
    >>> busy = {"message": "Getting offsets from InputLogSource", "isTriggerActive": True}
    >>> watch.see(busy, now=0.0), watch.see(busy, now=29.0)
    (None, None)
    >>> watch.see(busy, now=31.0)
    "the query has been at 'Getting offsets from InputLogSource' for 31 s"
    >>> watch.see(busy, now=90.0) is None  # once
    True
    >>> idle = {"message": "Waiting for data to arrive", "isTriggerActive": False}
    >>> watch.see(idle, now=91.0), watch.see(idle, now=500.0)  # idle is no stall
    (None, None)
    >>> starting = {"message": "Initializing sources", "isTriggerActive": False}
    >>> watch.see(starting, now=501.0), watch.see(starting, now=540.0)
    (None, "the query has been at 'Initializing sources' for 39 s")
    """

    def __init__(self) -> None:
        self.stage = ""
        self.since = 0.0
        self.logged = False

    def see(self, status: dict[str, Any], now: float) -> str | None:
        active = status["isTriggerActive"] or status["message"] not in IDLE_STATUSES
        stage = status["message"] if active else ""
        if stage != self.stage:
            self.stage, self.since, self.logged = stage, now, False
            return None
        if not stage or self.logged or now - self.since < STALLED_S:
            return None
        self.logged = True
        return f"the query has been at '{stage}' for {now - self.since:.0f} s"


class StepSink:
    """foreachBatch target: runs a step on the engine and records it once per batch.

    The engine's state is versioned by step number, so a batch Spark runs again
    after a crash (foreachBatch is at least once) starts from the state of the
    step before it; a batch already recorded is skipped. A step holds `lock`, so
    an ad-hoc query sees the state between two steps, never during one.
    """

    def __init__(
        self,
        pipeline_id: int,
        engine: StepEngine,
        lock: threading.Lock,
        streams: StreamRegistry,
        connectors: Connectors,
    ) -> None:
        self.pipeline_id = pipeline_id
        self.engine = engine
        self.lock = lock
        self.streams = streams
        self.connectors = connectors
        # A step's SQL error on its data, in one line (data_errors.py): the pipeline's
        # error, where the query's own would wrap it in Spark's and Python's stacks.
        self.failure: str | None = None

    def __call__(self, batch: DataFrame, batch_id: int) -> None:
        if pipeline_step_done(pipeline_id=self.pipeline_id, batch_id=batch_id):
            return
        with self.lock, released_blocks(self.engine.spark):
            self._step(batch, batch_id)

    def _step(self, batch: DataFrame, batch_id: int) -> None:
        log.info("batch %s arrived", batch_id)
        started = time.perf_counter()
        batch.persist()
        try:
            counted = (
                batch.groupBy("relation")
                .agg(F.count(F.lit(1)).alias("rows"), F.max("seq").alias("seq"))
                .collect()
            )
            input_rows = sum(int(r["rows"]) for r in counted)
            if input_rows == 0:
                return
            last_seq = max(int(r["seq"]) for r in counted)
            pipeline = Pipeline.objects.values("last_step", "processed_seq", "backfill_views").get(
                pk=self.pipeline_id
            )
            step_no = pipeline["last_step"] + 1
            backfill = None
            if pipeline["backfill_views"]:
                backfill = self._backfill(
                    step_no, pipeline["processed_seq"], pipeline["backfill_views"]
                )
            extra_views = self.streams.active()
            try:
                result = self.engine.step(
                    step_no,
                    batch,
                    pump_states(pipeline_id=self.pipeline_id),
                    backfill=backfill,
                    extra_views=extra_views,
                    relations={r["relation"] for r in counted},
                )
            except PySparkException as err:
                if (message := data_error(err)) is not None:
                    self.failure = f"step {step_no} failed: {message}"
                raise
        finally:
            batch.unpersist()
        figures = StepFigures(
            input_rows=input_rows,
            duration_ms=round((time.perf_counter() - started) * 1000, 3),
            processed_seq=last_seq,
            state_rows=result.state_rows,
            state_rows_by_key=result.state_rows_by_key,
            waterlines=result.waterlines,
        )
        step = pipeline_record_step(
            pipeline_id=self.pipeline_id,
            batch_id=batch_id,
            figures=figures,
            deltas=result.deltas,
            dropped=result.dropped,
            pumped=result.pumped,
            dropped_seqs=result.dropped_seqs,
            backfilled=backfill is not None,
        )
        if step is not None:
            self.streams.publish(step, result.extra)
        self.connectors.deliver()
        log.info("batch %s -> step %s (%s input rows)", batch_id, step, input_rows)

    def _backfill(self, step_no: int, processed_seq: int, views: list[str]) -> Backfill:
        """The contents, before this step, of what the views a deploy added read."""
        plan = self.engine.plan
        queries = [v["query"] for v in plan["views"] if v["name"] in views]
        contents = Contents(
            self.engine.spark,
            self.pipeline_id,
            plan,
            self.engine.state.load(before_step=step_no),
            processed_seq=processed_seq,
            through_step=step_no - 1,
        ).of(name for name in scanned(queries) if name not in views)
        log.info("step %s fills the new views %s", step_no, ", ".join(views))
        return Backfill(frozenset(views), contents)


class PipelineRunner:
    def __init__(self, pipeline_id: int, spark: SparkSession | None = None) -> None:
        self.pipeline_id = pipeline_id
        pipeline = Pipeline.objects.select_related("program_version").get(pk=pipeline_id)
        self.plan: dict[str, Any] = pipeline.program_version.plan
        config = effective_config(pipeline.config)
        storage = storage_root(pipeline_id, pipeline.config)
        self.checkpoint = storage / "checkpoint"
        state = DiskStateStore(storage / "state")
        self.trigger = f"{config['trigger_interval_ms']} milliseconds"
        # The process's session outlives the pipeline when it serves another one after
        # it (worker/spares.py); the pipeline's own session keeps its SQL settings,
        # data sources and queries apart from the ones before and after it.
        self.driver = spark or build_session(
            f"weir-pipeline-{pipeline.name}",
            config["spark_master"],
            cores=config["cores"],
            memory=config["memory"],
        )
        self.fits_spares = fits_spares(config)
        self.spark = self.driver.newSession()
        conf = self.spark.sparkContext.getConf()
        log.info(
            "Spark session: master=%s driver memory=%s partitions=%s trigger=%s storage=%s",
            self.spark.sparkContext.master,
            conf.get("spark.driver.memory"),
            self.spark.conf.get("spark.sql.shuffle.partitions"),
            self.trigger,
            storage,
        )
        register_once(self.spark, InputLogSource)
        self.engine = StepEngine(self.spark, self.plan, state)
        self.lock = threading.Lock()
        self.streams = StreamRegistry(pipeline_id)
        self.queries = QueryServer(self.spark, pipeline_id, self.plan, state, self.lock)
        self.connectors = Connectors(pipeline, config["connectors"])
        self.query: StreamingQuery | None = None
        self.stalls = StallWatch()
        # The JVM thread that serves this (the main) thread's calls (py4j pins one to each
        # Python thread), to show where a start of the query waits (start_query).
        self.jvm_thread = self.driver._jvm.java.lang.Thread.currentThread()
        self.failed_starts = 0
        self.next_start_at = 0.0  # time.monotonic() after a failed start
        self.terminated = False

    def start_query(self) -> None:
        """Start the query; a start that has not returned after START_STUCK_S seconds is
        logged with where it waits (a stalled query's StallWatch sees only a query that
        has started)."""
        log.info("starting the query")
        watch = threading.Timer(START_STUCK_S, self._log_stuck_start, (threading.get_ident(),))
        watch.daemon = True
        watch.start()
        try:
            self._start_query()
        finally:
            watch.cancel()

    def _log_stuck_start(self, thread_id: int) -> None:
        frame = sys._current_frames().get(thread_id)
        python = "".join(traceback.format_stack(frame)) if frame is not None else "(gone)\n"
        jvm = _jvm_stack(self.jvm_thread.getStackTrace())
        log.warning(
            "the query's start has not returned after %d s; where it waits, in Python:\n%s"
            "and in the JVM:\n%s",
            START_STUCK_S,
            python,
            jvm,
        )

    def _start_query(self) -> None:
        self.connectors.deliver()  # what a runner that died left undelivered
        stream = (
            self.spark.readStream.format(SOURCE_NAME)
            .option("dsn", settings.DATABASE_URL)
            .option("pipeline_id", str(self.pipeline_id))
            .load()
        )
        self.sink = StepSink(
            self.pipeline_id, self.engine, self.lock, self.streams, self.connectors
        )
        self.query = (
            stream.writeStream.foreachBatch(self.sink)
            .option("checkpointLocation", str(self.checkpoint))
            .trigger(processingTime=self.trigger)
            .queryName(f"pipeline_{self.pipeline_id}")
            .start()
        )

    def stop_query(self) -> None:
        if self.query is not None:
            self.query.stop()
            self.query = None

    def run(self) -> bool:
        """Follow the desired state until asked to stop, or until the query fails;
        whether the pipeline stopped as asked (neither failed nor terminated)."""
        error = None
        while not self.terminated:
            close_old_connections()
            desired = Pipeline.objects.values_list("desired_state", flat=True).get(
                pk=self.pipeline_id
            )
            if self.query is not None and self.query.exception() is not None:
                error = self.sink.failure or str(self.query.exception())
                if not self._start_failed_transiently(error):
                    break
                # Started again below, or not at all if the pipeline is stopping or
                # pausing meanwhile: either way the failed start is no error of the
                # pipeline's (it was, and a stop then ended in `failed`).
                self.query, error = None, None
            if desired == DesiredState.STOPPED:
                break
            if desired == DesiredState.RUNNING and self.query is None:
                if time.monotonic() >= self.next_start_at:  # not while a failed start waits
                    self.start_query()
                    self._acknowledge(State.RUNNING, frozenset({State.STARTING, State.RESUMING}))
            elif desired == DesiredState.PAUSED and self.query is not None:
                self.stop_query()
                self._acknowledge(State.PAUSED, frozenset({State.PAUSING}))
            elif desired == DesiredState.PAUSED:
                self._acknowledge(State.PAUSED, frozenset({State.STARTING, State.PAUSING}))
            if self.query is not None and (
                stalled := self.stalls.see(self.query.status, time.monotonic())
            ):
                log.warning("%s; where its thread is:\n%s", stalled, self._query_thread_stack())
            self.queries.serve(timeout=CONTROL_POLL_S)
        self.shutdown(error)
        return error is None and not self.terminated

    def _start_failed_transiently(self, error: str) -> bool:
        """Whether the query failed before its first step for a reason worth a new start."""
        assert self.query is not None
        if TRANSIENT_START_ERROR not in error or self.query.lastProgress is not None:
            return False
        self.failed_starts += 1
        log.warning("query start %d failed: %s", self.failed_starts, error.splitlines()[0])
        self.next_start_at = time.monotonic() + START_RETRY_PAUSE_S * self.failed_starts
        return self.failed_starts < START_ATTEMPTS

    def _query_thread_stack(self) -> str:
        """The JVM stack of the query's thread (Spark names it after the query), for a
        stalled query's log line: where it waits."""
        assert self.query is not None
        traces = self.driver._jvm.java.lang.Thread.getAllStackTraces()
        for thread in traces.keySet().toArray():
            if f"for {self.query.name} " in thread.getName():
                return _jvm_stack(traces.get(thread))
        return "  - (no thread of the query)"

    def _acknowledge(self, state: str, only_from: frozenset[str]) -> None:
        pipeline_set_state(
            pipeline_id=self.pipeline_id, to_state=state, actor=ACTOR, only_from=only_from
        )

    def shutdown(self, error: str | None) -> None:
        if error is not None:
            log.error("the query failed: %s", error)
        try:
            self.stop_query()
        finally:
            pipeline_runner_exited(
                pipeline_id=self.pipeline_id,
                actor=ACTOR,
                error=error,
                message="runner terminated" if self.terminated else "",
            )

    def terminate(self, signum: int, frame: FrameType | None) -> None:
        self.terminated = True


def _jvm_stack(frames: Any) -> str:
    """A JVM thread's stack frames, a line each, prefixed '  - ' rather than Java's
    '\tat ' (which tests/live.py leaves out of a failed test's runner log)."""
    return "\n".join(f"  - {frame.toString()}" for frame in frames)


def run_pipeline(pipeline_id: int, spark: SparkSession | None = None) -> SparkSession | None:
    """Run the pipeline until it stops; on `spark` when a warm spare built it already.

    The driver's session when it can serve another pipeline (the pipeline stopped as
    asked, on a session a spare would have: worker/spares.py); else None, the session
    stopped.
    """
    runner = PipelineRunner(pipeline_id, spark)
    signal.signal(signal.SIGTERM, runner.terminate)
    signal.signal(signal.SIGINT, runner.terminate)
    try:
        stopped_as_asked = runner.run()
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if stopped_as_asked and runner.fits_spares:
        return runner.driver
    runner.driver.stop()
    return None
