"""Warm spares: after a pipeline starts, a Spark driver waits ready for the next one;
a runner whose pipeline stops becomes such a spare again."""

import time
import uuid
from collections.abc import Iterator
from urllib.parse import urlsplit

import psutil
import pytest
import redis

from tests.live import LiveStack, live_stack
from worker.spares import WAITING_SPARES

SOCKET_TIMEOUT_S = 5
DOUBLED = "CREATE TABLE t (x INT);\nCREATE VIEW doubled AS SELECT x * 2 AS y FROM t;\n"
# The same table name with other columns, on a driver that ran DOUBLED before.
NEGATED = (
    "CREATE TABLE t (x INT, label VARCHAR);\nCREATE VIEW negated AS SELECT -x AS y, label FROM t;\n"
)


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveStack]:
    """A stack of this module's own: no other module's runners wait as its spares."""
    yield from live_stack(tmp_path_factory.mktemp("spares-state"))


def _pipeline(stack: LiveStack, prefix: str, sql: str = DOUBLED) -> str:
    name = f"{prefix}-{uuid.uuid4().hex[:8]}"
    assert stack.api("POST", "programs", {"name": name, "sql": sql})[0] == 201
    assert stack.api("POST", "pipelines", {"name": name, "program": name})[0] == 201
    return name


def _waiting_spares(stack: LiveStack) -> list[int]:
    """Spares of this stack ready for a pipeline: on its Redis list, alive."""
    database = urlsplit(stack.env["DATABASE_URL"]).path.lstrip("/")
    waiting = redis.Redis.from_url(stack.env["REDIS_URL"]).lrange(f"weir:spares:{database}", 0, -1)
    return [int(pid) for pid in waiting if psutil.pid_exists(int(pid)) and not _gone(int(pid))]


def _start(stack: LiveStack, pipeline: str) -> int:
    """Start the pipeline; its runner's pid."""
    assert stack.api("POST", f"pipelines/{pipeline}/start")[0] == 202
    return int(stack.wait_for_state(pipeline, "running")["runner_pid"])


def _stop(stack: LiveStack, pipeline: str) -> None:
    assert stack.api("POST", f"pipelines/{pipeline}/stop")[0] == 202
    stack.wait_for_state(pipeline, "stopped")


def test_pipelines_start_on_warm_spares_and_stopped_runners_wait_as_spares(
    stack: LiveStack,
) -> None:
    first = _pipeline(stack, "cold")
    cold_runner = _start(stack, first)
    stack.wait_for(lambda: _waiting_spares(stack), 240, lambda: "no spare became ready")
    (spare,) = _waiting_spares(stack)
    # A spare waits in BLPOP for longer than redis-py's default socket timeout (5 s):
    # every spare once died there, so a start a little later was always cold.
    time.sleep(SOCKET_TIMEOUT_S + 2)
    assert _waiting_spares(stack) == [spare]

    second = _pipeline(stack, "warm")
    assert _start(stack, second) == spare
    assert spare not in _waiting_spares(stack)
    assert stack.api("POST", f"pipelines/{second}/ingress/t", [{"x": 21}])[0] == 200
    assert stack.wait_for_view(second, "doubled", lambda rows: rows) == {(42,)}

    # Stopping hands the runner back: it waits as a spare again, and the next pipeline,
    # of another program, runs on it as on a new driver.
    _stop(stack, second)
    stack.wait_for(lambda: spare in _waiting_spares(stack), 60, lambda: "not a spare again")
    third = _pipeline(stack, "again", NEGATED)
    waiting = set(_waiting_spares(stack))
    third_runner = _start(stack, third)
    assert third_runner in waiting
    assert stack.api("POST", f"pipelines/{third}/ingress/t", [{"x": 5, "label": "a"}])[0] == 200
    assert stack.wait_for_view(third, "negated", lambda rows: rows) == {(-5, "a")}

    # With WAITING_SPARES waiting, a runner whose pipeline stops ends.
    _stop(stack, first)
    stack.wait_for(lambda: cold_runner in _waiting_spares(stack), 60, lambda: "not a spare")
    stack.wait_for(lambda: len(_waiting_spares(stack)) == WAITING_SPARES, 240)
    _stop(stack, third)
    stack.wait_for(lambda: _gone(third_runner), 60, lambda: "the third runner still runs")
    assert len(_waiting_spares(stack)) == WAITING_SPARES


def _gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True
