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

KEY names the installation (its database), so installations that share a Redis
server or a machine never take each other's spares.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import psutil
import redis
from django.conf import settings

from backend.pipelines import querybus
from worker import launcher

log = logging.getLogger("weir.spares")
ASSIGN_WAIT_S = 10.0  # how long a taken spare may take to become the pipeline's runner
POLL_S = 0.05
WAIT_FOR_PIPELINE_S = 5  # one BLPOP of a waiting spare


def spare_key() -> str:
    return f"weir:spares:{settings.DATABASES['default']['NAME']}"


def session_config(config: dict[str, Any]) -> tuple[str, int, str]:
    """What a runner's SparkSession is built from: a spare fits a pipeline when equal."""
    return (config["spark_master"], int(config["cores"]), str(config["memory"]))


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
    from backend.pipelines.config import defaults

    if session_config(config) != session_config(defaults()):
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


def serve(key: str) -> None:
    """The spare's own loop: warm up, wait for a pipeline, become its runner."""
    from backend.pipelines.config import defaults
    from worker.runner.driver import run_pipeline
    from worker.runner.session import build_session
    from worker.runner.warmup import warm_up

    master, cores, memory = session_config(defaults())
    spark = build_session("weir-pipeline", master, cores=cores, memory=memory)
    warm_up(spark)
    connection = _redis()
    pid = os.getpid()
    connection.rpush(key, pid)
    log.info("spare %s ready", pid)
    while True:
        item = connection.blpop([f"{key}:{pid}"], timeout=WAIT_FOR_PIPELINE_S)
        if item is not None:
            pipeline_id = int(item[1])
            break
    _become_runner(pipeline_id)
    run_pipeline(pipeline_id, spark)


def _become_runner(pipeline_id: int) -> None:
    """Look and log like a runner spawned for the pipeline (launcher.spawn_runner)."""
    import setproctitle

    log_file = launcher.runner_log(pipeline_id).open("ab")
    log_file.write(f"=== weir runner for pipeline {pipeline_id} starting (warm)\n".encode())
    log_file.flush()
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
        os.dup2(log_file.fileno(), stream.fileno())
    setproctitle.setproctitle(launcher.runner_command_line(pipeline_id))
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
