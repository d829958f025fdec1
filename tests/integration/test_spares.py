"""Warm spares: after a pipeline starts, a Spark driver waits ready for the next one."""

import time
import uuid
from urllib.parse import urlsplit

import psutil
import redis

from tests.live import LiveStack

SOCKET_TIMEOUT_S = 5
PROGRAM = "CREATE TABLE t (x INT);\nCREATE VIEW doubled AS SELECT x * 2 AS y FROM t;\n"


def _pipeline(stack: LiveStack, prefix: str) -> str:
    name = f"{prefix}-{uuid.uuid4().hex[:8]}"
    assert stack.api("POST", "programs", {"name": name, "sql": PROGRAM})[0] == 201
    assert stack.api("POST", "pipelines", {"name": name, "program": name})[0] == 201
    return name


def _waiting_spares(stack: LiveStack) -> list[int]:
    """Spares of this stack ready for a pipeline: on its Redis list, alive."""
    database = urlsplit(stack.env["DATABASE_URL"]).path.lstrip("/")
    waiting = redis.Redis.from_url(stack.env["REDIS_URL"]).lrange(f"weir:spares:{database}", 0, -1)
    return [int(pid) for pid in waiting if psutil.pid_exists(int(pid))]


def test_a_pipeline_started_after_another_runs_on_a_warm_spare(stack: LiveStack) -> None:
    first = _pipeline(stack, "cold")
    assert stack.api("POST", f"pipelines/{first}/start")[0] == 202
    stack.wait_for_state(first, "running")
    stack.wait_for(lambda: _waiting_spares(stack), 240, lambda: "no spare became ready")
    (spare,) = _waiting_spares(stack)
    # A spare waits in BLPOP for longer than redis-py's default socket timeout (5 s):
    # every spare once died there, so a start a little later was always cold.
    time.sleep(SOCKET_TIMEOUT_S + 2)
    assert _waiting_spares(stack) == [spare]

    second = _pipeline(stack, "warm")
    assert stack.api("POST", f"pipelines/{second}/start")[0] == 202
    body = stack.wait_for_state(second, "running")
    assert body["runner_pid"] == spare
    assert spare not in _waiting_spares(stack)
    assert stack.api("POST", f"pipelines/{second}/ingress/t", [{"x": 21}])[0] == 200
    assert stack.wait_for_view(second, "doubled", lambda rows: rows) == {(42,)}

    # Stopping ends the runner the spare became, like any runner.
    assert stack.api("POST", f"pipelines/{second}/stop")[0] == 202
    stack.wait_for_state(second, "stopped")
    stack.wait_for(lambda: not psutil.pid_exists(spare) or _zombie(spare), 60)
    assert stack.api("POST", f"pipelines/{first}/stop")[0] == 202
    stack.wait_for_state(first, "stopped")


def _zombie(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True
