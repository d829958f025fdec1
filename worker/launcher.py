"""Starting, finding and ending Spark runner processes (one per pipeline)."""

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
from django.conf import settings

RUNNER_MODULE = "worker.runner"


def pipeline_dir(pipeline_id: int) -> Path:
    """Where a pipeline keeps its Spark checkpoints and its runner's log."""
    path = Path(settings.PIPELINE_STORAGE_DIR) / str(pipeline_id)
    path.mkdir(parents=True, exist_ok=True)
    return path


def runner_log(pipeline_id: int) -> Path:
    return pipeline_dir(pipeline_id) / "runner.log"


def runner_env() -> dict[str, str]:
    """The environment of a Spark runner process."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in [str(settings.REPO_DIR), env.get("PYTHONPATH", "")] if p
    )
    env.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    env["PYSPARK_PYTHON"] = sys.executable
    env["PYSPARK_DRIVER_PYTHON"] = sys.executable
    return env


def runner_command_line(pipeline_id: int) -> str:
    """How a pipeline's runner shows in the process list (a warm spare takes it too)."""
    return f"{sys.executable} -m {RUNNER_MODULE} --pipeline-id {pipeline_id}"


def spawn_runner(pipeline_id: int) -> int:
    """Start the runner in its own session so it outlives the task that started it."""
    with runner_log(pipeline_id).open("ab") as log:
        log.write(f"=== weir runner for pipeline {pipeline_id} starting\n".encode())
        log.flush()
        process = subprocess.Popen(
            runner_command_line(pipeline_id).split(" "),
            cwd=settings.REPO_DIR,
            env=runner_env(),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    _await_exec(process.pid)
    return process.pid


def _await_exec(pid: int, timeout_s: float = 5.0) -> None:
    """Wait until the new process shows its command line. Popen returns while the
    kernel may still be setting up the exec'd program, when /proc shows an empty
    command line: `runner_alive` would then take a healthy runner for a dead one."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            if psutil.Process(pid).cmdline():
                return
        except psutil.NoSuchProcess:
            return  # it exited already: runner_alive will say so
        except psutil.AccessDenied:
            pass
        time.sleep(0.01)


def runner_alive(pid: int | None, pipeline_id: int) -> bool:
    """Is `pid` still the runner of this pipeline (not a recycled pid)?"""
    if not pid:
        return False
    try:
        process = psutil.Process(pid)
        if process.status() == psutil.STATUS_ZOMBIE:
            process.wait(0)
            return False
        # A warm spare renamed itself (spares.py): its title may be one string.
        words = " ".join(process.cmdline()).split()
    except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.TimeoutExpired):
        return False
    return contains(words, [RUNNER_MODULE, "--pipeline-id", str(pipeline_id)])


def contains(words: list[str], part: list[str]) -> bool:
    """Does `part` occur in `words`, in a row?"""
    return any(words[i : i + len(part)] == part for i in range(len(words)))


def kill_runner(pid: int, pipeline_id: int) -> None:
    """End a runner and its Spark JVM (the whole process group)."""
    if runner_alive(pid, pipeline_id):
        kill_runner_group(pid)


def kill_runner_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)


def log_tail(pipeline_id: int, lines: int = 30) -> str:
    path = runner_log(pipeline_id)
    if not path.exists():
        return ""
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
