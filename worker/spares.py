"""Warm spare runners: a Spark driver started ahead of time, so a pipeline starts in
about a second instead of the 10-20 s a new JVM, SparkSession and first step take.

A spare is `python -m worker.runner --spare KEY`. It builds a SparkSession with the
default runtime configuration, runs one tiny step to load and JIT the engine's
classes, puts its pid on the Redis list KEY and waits for a pipeline id on
`KEY:{pid}`. The start task takes a spare whose session fits the pipeline's
configuration (`take_spare`); the spare renames its process to a runner's command
line and runs the pipeline as a freshly spawned runner would (`worker/runner/driver.py`).
After each start the task makes sure one spare is on its way (`ensure_spare`), so
only the first start of an installation is cold.

A runner whose pipeline stops as asked, on a session that fits, becomes a spare
again (unless WAITING_SPARES already wait), JIT-compiled code and Python workers
and all: starting and stopping pipelines costs no new JVM. Measured here: a new
spare took 28 CPU-seconds (19 s) to build its session and warm up.

KEY names the installation (its database), so installations that share a Redis
server or a machine never take each other's spares.
"""

from __future__ import annotations

import contextlib
import logging
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import psutil
import redis
import setproctitle
from django.conf import settings

from backend.pipelines import querybus
from worker import launcher

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

log = logging.getLogger("weir.spares")
ASSIGN_WAIT_S = 10.0  # how long a taken spare may take to become the pipeline's runner
POLL_S = 0.05
WAIT_FOR_PIPELINE_S = 5  # one BLPOP of a waiting spare
WAITING_SPARES = 2  # a runner whose pipeline stops waits as a spare unless this many do
# A driver serves this many pipelines one after another at most, then exits: whatever
# a JVM keeps of each (generated classes, listeners) stays bounded.
PIPELINES_PER_DRIVER = 10


def spare_key() -> str:
    return f"weir:spares:{settings.DATABASES['default']['NAME']}"


def session_config(config: dict[str, Any]) -> tuple[str, int, str]:
    """What a runner's SparkSession is built from: a spare fits a pipeline when equal."""
    return (config["spark_master"], int(config["cores"]), str(config["memory"]))


def fits_spares(config: dict[str, Any]) -> bool:
    """Whether a runner of this configuration has a spare's session (spares are built
    with the default runtime configuration)."""
    from backend.pipelines.config import defaults

    return session_config(config) == session_config(defaults())


def _redis() -> redis.Redis:
    # A waiting spare blocks in BLPOP: redis-py's default socket timeout (5 s) must
    # not end that wait (it did, and every spare died 5 s after it was ready).
    return querybus.client(blocking_s=WAIT_FOR_PIPELINE_S)


def _spares_log() -> Path:
    folder = Path(settings.PIPELINE_STORAGE_DIR)
    folder.mkdir(parents=True, exist_ok=True)
    return folder / "spares.log"


def spare_pids(key: str | None = None) -> list[int]:
    """The live spare processes of this installation (waiting or still warming up)."""
    wanted = ["--spare", key or spare_key()]
    found = []
    for process in psutil.process_iter(["cmdline"]):
        words = " ".join(process.info["cmdline"] or []).split()
        if launcher.RUNNER_MODULE in words and launcher.contains(words, wanted):
            found.append(process.pid)
    return found


def ensure_spare() -> None:
    """Start a spare unless one is already waiting or warming up."""
    if spare_pids():
        return
    with _spares_log().open("ab") as out:
        subprocess.Popen(
            [sys.executable, "-m", launcher.RUNNER_MODULE, "--spare", spare_key()],
            cwd=settings.REPO_DIR,
            env=launcher.runner_env(),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def take_spare(pipeline_id: int, config: dict[str, Any]) -> int | None:
    """Hand the pipeline to a waiting spare that fits its configuration: the runner's
    pid once it runs as the pipeline's runner, or None (then start one cold)."""
    if not fits_spares(config):
        return None
    connection = _redis()
    key = spare_key()
    while (popped := connection.lpop(key)) is not None:
        pid = int(popped)
        if pid not in spare_pids(key):
            continue  # it died while waiting
        connection.rpush(f"{key}:{pid}", pipeline_id)
        if _became_runner(pid, pipeline_id):
            log.info("pipeline %s runs on spare %s", pipeline_id, pid)
            return pid
        launcher.kill_runner_group(pid)  # taken but not answering: never use it again
    return None


def _became_runner(pid: int, pipeline_id: int) -> bool:
    deadline = time.monotonic() + ASSIGN_WAIT_S
    while time.monotonic() < deadline:
        if launcher.runner_alive(pid, pipeline_id):
            return True
        if not psutil.pid_exists(pid):
            return False
        time.sleep(POLL_S)
    return False


def stop_spares() -> None:
    for pid in spare_pids():
        launcher.kill_runner_group(pid)
    with contextlib.suppress(redis.RedisError):
        _redis().delete(spare_key())


def serve(key: str, spark: SparkSession | None = None) -> None:
    """The spare's own loop: warm up (unless `spark` is the warm session of a runner
    whose pipeline stopped), wait for a pipeline, run it as its runner, and wait again
    once it stops, until the driver has served its share or enough spares wait."""
    from worker.runner.driver import run_pipeline

    if spark is None:
        spark = _warm_session()
    for _ in range(PIPELINES_PER_DRIVER):
        if len(set(spare_pids(key)) - {os.getpid()}) >= WAITING_SPARES:
            break
        pipeline_id = _wait_for_pipeline(key)
        _become_runner(pipeline_id)
        reusable = run_pipeline(pipeline_id, spark)
        if reusable is None:
            return  # run_pipeline stopped the session
        spark = reusable
    spark.stop()


def _warm_session() -> SparkSession:
    from backend.pipelines.config import defaults
    from worker.runner.session import build_session
    from worker.runner.warmup import warm_up

    master, cores, memory = session_config(defaults())
    spark = build_session("weir-pipeline", master, cores=cores, memory=memory)
    warm_up(spark)
    return spark


def _wait_for_pipeline(key: str) -> int:
    """Wait on the spares' list KEY for a pipeline to run; its id."""
    _become_spare(key)
    connection = _redis()
    pid = os.getpid()
    connection.rpush(key, pid)
    log.info("spare %s ready", pid)
    while True:
        item = connection.blpop([f"{key}:{pid}"], timeout=WAIT_FOR_PIPELINE_S)
        if item is not None:
            return int(item[1])


def _become_spare(key: str) -> None:
    """Look and log like a spare (a runner whose pipeline stopped becomes one again)."""
    _log_to(_spares_log())
    setproctitle.setproctitle(f"{sys.executable} -m {launcher.RUNNER_MODULE} --spare {key}")


def _become_runner(pipeline_id: int) -> None:
    """Look and log like a runner spawned for the pipeline (launcher.spawn_runner)."""
    header = f"=== weir runner for pipeline {pipeline_id} starting (warm)\n"
    _log_to(launcher.runner_log(pipeline_id), header)
    setproctitle.setproctitle(launcher.runner_command_line(pipeline_id))


def _log_to(path: Path, header: str = "") -> None:
    """This process's standard output and error go to `path` from now on."""
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    with path.open("ab") as log_file:
        log_file.write(header.encode())
        log_file.flush()
        for fd in (sys.stdout.fileno(), sys.stderr.fileno()):
            os.dup2(log_file.fileno(), fd)
