"""A real Weir on this machine for integration and browser tests.

A fresh database on the configured PostgreSQL, the ASGI web server and a Celery
worker as real processes, and Spark runners started by that worker. Tests talk
to it only through HTTP and websockets, as users do.
"""

import contextlib
import http.client
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
from websockets.sync.client import ClientConnection, connect

from backend import devstack
from backend.embedded import free_port

STATE_TIMEOUT_S = 240
USER, PASSWORD, TEAM = "tester", "tester-password", "testers"
# Small limits, so that tests can exceed them cheaply.
MAX_REQUEST_BYTES, MAX_CHANGES = 1_000_000, 5_000
DEFAULT = object()
# Spark's and the JVM's own log lines and stack frames, as runner logs hold them.
SPARK_LOG_LINE = re.compile(r"\s+at |\d\d/\d\d/\d\d \d\d:\d\d:\d\d (INFO|WARN) |\s*$")


@dataclass
class LiveStack:
    port: int
    env: dict[str, str]
    api_key: str = ""
    web: subprocess.Popen[bytes] | None = None
    worker: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start_web(self) -> None:
        """Start the web server; on another free port if another process took this one
        between free_port() choosing it and the server binding it."""
        for attempt in range(3):
            self.web = devstack.web_server(self.env, self.port)
            try:
                devstack.wait_for_http(f"{self.url}/api/v1/health", server=self.web)
                return
            except devstack.ServerExited:
                if attempt == 2:
                    raise
                self.port = free_port()

    def start_worker(self) -> None:
        self.worker = devstack.celery_worker(self.env)

    def kill(self, process: subprocess.Popen[bytes] | None) -> None:
        """kill -9 a server process of this stack (its own session: all of it)."""
        assert process is not None and process.poll() is None
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)

    def stop_pipelines(self) -> None:
        """Ask every pipeline of the test team that still runs to stop (without waiting):
        an idle runner still polls its input, and the next tests need the cores."""
        if self.web is None or self.web.poll() is not None:
            return  # a test killed the web server (and its stack is going)
        status, pipelines = self.api("GET", "pipelines")
        assert status == 200, pipelines
        for pipeline in pipelines:
            if pipeline["desired_state"] != "stopped":
                self.api("POST", f"pipelines/{pipeline['name']}/stop")

    def stop(self) -> None:
        devstack.stop_processes([p for p in (self.web, self.worker) if p is not None])

    def pipeline_id(self, name: str) -> int:
        """The number of the test team's pipeline `name`, as runners' logs and command
        lines know it (the API names pipelines)."""
        with psycopg.connect(self.env["DATABASE_URL"]) as conn:
            row = conn.execute(
                "SELECT id FROM pipelines_pipeline WHERE name = %s", (name,)
            ).fetchone()
        assert row is not None, name
        return int(row[0])

    def runner_log(self, pipeline_id: int) -> str:
        return (self.pipelines_dir() / str(pipeline_id) / "runner.log").read_text()

    def pipelines_dir(self) -> Path:
        return Path(self.env["WEIR_STATE_DIR"]) / "pipelines"

    def runner_logs(self, lines: int = 80) -> str:
        """The last lines Weir's runners and spares logged (Spark's own lines left out),
        for a failed test's report: what the runners did is not otherwise in it. The
        log written last comes last, where a report cut short in its middle keeps it."""
        folder = self.pipelines_dir()
        parts = []
        for path in sorted(folder.glob("**/*.log"), key=lambda path: path.stat().st_mtime):
            text = path.read_text(errors="replace").splitlines()
            ours = [line for line in text if not SPARK_LOG_LINE.match(line)]
            parts.append(f"--- {path.relative_to(folder)}\n" + "\n".join(ours[-lines:]))
        return "\n".join(parts)

    def manage(self, *args: str) -> str:
        """Run a manage.py command against this stack's database; its output."""
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=devstack.REPO_DIR, env=self.env, check=True, capture_output=True, text=True,
        )  # fmt: skip
        return done.stdout.strip()

    def api(
        self,
        method: str,
        path: str,
        body: Any = None,
        raw: bytes | None = None,
        key: Any = DEFAULT,
    ) -> tuple[int, Any]:
        """Call the API as the test user's write key (or `key`, None for no key)."""
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        headers = {"Content-Type": "application/json"}
        key = self.api_key if key is DEFAULT else key
        if key:
            headers["Authorization"] = f"Bearer {key}"
        request = urllib.request.Request(
            f"{self.url}/api/v1/{path}", data=data, method=method, headers=headers
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, _body(response.read())
        except urllib.error.HTTPError as err:
            return err.code, _body(err.read())

    @contextlib.contextmanager
    def stream(
        self, path: str, body: Any = None, key: Any = DEFAULT, timeout: float = 120
    ) -> Iterator["JsonLines"]:
        """A streamed answer (GET, or POST with `body`) read line by line; each read waits
        at most `timeout` seconds. Leaving the block disconnects."""
        key = self.api_key if key is DEFAULT else key
        headers = {"Content-Type": "application/json"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request(
                "GET" if body is None else "POST",
                f"/api/v1/{path}",
                body=None if body is None else json.dumps(body),
                headers=headers,
            )
            yield JsonLines(connection.getresponse())
        finally:
            connection.close()

    def websocket(self, path: str, key: Any = DEFAULT) -> ClientConnection:
        ws_url = self.url.replace("http://", "ws://") + path
        key = self.api_key if key is DEFAULT else key
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        return connect(ws_url, additional_headers=headers, open_timeout=30)

    def wait_for_event(
        self, pipeline: str, *, actor: str, to_state: str, timeout: float = 60
    ) -> dict[str, Any]:
        """Poll the pipeline's events until one by `actor` moved it to `to_state`."""
        deadline = time.monotonic() + timeout
        while True:
            for event in self.api("GET", f"pipelines/{pipeline}/events")[1]:
                if event["actor"] == actor and event["to_state"] == to_state:
                    return event  # type: ignore[no-any-return]
            assert time.monotonic() < deadline, f"no event of {actor} to {to_state}"
            time.sleep(0.2)

    def view_rows(self, pipeline: str, view: str) -> set[tuple[Any, ...]]:
        """The view's content: its stored deltas added up (every row counted once here)."""
        rows: dict[tuple[Any, ...], int] = {}
        for delta in self.api("GET", f"pipelines/{pipeline}/deltas")[1]:
            if delta["view"] != view:
                continue
            for change in delta["changes"]:
                ((kind, row),) = change.items()
                key = tuple(row.values())
                rows[key] = rows.get(key, 0) + (1 if kind == "insert" else -1)
        return {key for key, weight in rows.items() if weight > 0}

    def wait_for_view(
        self, pipeline: str, view: str, done: Any, timeout: float = 120
    ) -> set[tuple[Any, ...]]:
        """Poll the view's integrated content until `done(rows)`; the rows."""
        rows: set[tuple[Any, ...]] = set()

        def reached() -> bool:
            nonlocal rows
            rows = self.view_rows(pipeline, view)
            return bool(done(rows))

        self.wait_for(reached, timeout, lambda: f"{view} is still {rows}")
        return rows

    def wait_for(
        self, condition: Any, timeout: float = 120, message: Any = lambda: "timed out"
    ) -> None:
        """Poll `condition()` until it is true; fail with `message()` after `timeout` s."""
        deadline = time.monotonic() + timeout
        while not condition():
            assert time.monotonic() < deadline, message()
            time.sleep(0.3)

    def wait_for_state(
        self, pipeline: str, state: str, timeout: float = STATE_TIMEOUT_S
    ) -> dict[str, Any]:
        """Poll until the pipeline reaches `state`; fail at once if it failed instead."""
        deadline = time.monotonic() + timeout
        while True:
            status, body = self.api("GET", f"pipelines/{pipeline}")
            assert status == 200, body
            if body["state"] == state:
                return body
            if body["state"] == "failed" and state != "failed":
                events = self.api("GET", f"pipelines/{pipeline}/events")[1]
                raise AssertionError(f"{body['error']}\nevents: {events}")
            assert time.monotonic() < deadline, f"{pipeline} still {body['state']}, not {state}"
            time.sleep(0.2)


@dataclass
class JsonLines:
    response: http.client.HTTPResponse

    @property
    def status(self) -> int:
        return self.response.status

    def next(self) -> Any:
        """The next line, decoded (waits at most the stream's timeout)."""
        text = self.response.readline()
        assert text, "the stream ended"
        return json.loads(text)

    def body(self) -> Any:
        """The whole answer, decoded (for an error answer)."""
        return _body(self.response.read())


def _body(raw: bytes) -> Any:
    """JSON answers decoded; anything else (the HTML docs page) as text."""
    try:
        return json.loads(raw or b"null")
    except ValueError:
        return raw.decode(errors="replace")


def next_message(ws: ClientConnection, type_: str, timeout: float = 120) -> dict[str, Any]:
    """The next websocket message of the given type (others are skipped)."""
    deadline = time.monotonic() + timeout
    while True:
        message = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        if message["type"] == type_:
            return message


def _admin_connection(database_url: str) -> psycopg.Connection[Any]:
    return psycopg.connect(devstack.with_database(database_url, "postgres"), autocommit=True)


RUNNING_STACKS: list["LiveStack"] = []  # this test process's stacks, while they run
STACKS_PER_PROCESS = 5  # live stacks one test process may start (Redis has 16 databases)
_stacks_started = 0


def redis_database(url: str) -> str:
    """`url` on a Redis database of this stack's own: the stacks of parallel test
    processes (pytest-xdist workers gw0, gw1, ...), and a module's own stack beside the
    session's, each have a Celery queue, channel layer and query bus no other reads."""
    global _stacks_started
    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw"))
    index = 1 + worker * STACKS_PER_PROCESS + _stacks_started % STACKS_PER_PROCESS
    _stacks_started += 1
    return urlunsplit(urlsplit(url)._replace(path=f"/{index}"))


def live_stack(state_dir: Path, extra_env: dict[str, str] | None = None) -> Iterator[LiveStack]:
    """A running stack on a fresh database of DATABASE_URL's server (or `extra_env`'s)."""
    base_url = (extra_env or {}).get("DATABASE_URL") or os.environ["DATABASE_URL"]
    redis_url = (extra_env or {}).get("REDIS_URL") or redis_database(os.environ["REDIS_URL"])
    name = f"weir_it_{uuid.uuid4().hex[:10]}"
    with _admin_connection(base_url) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    env = {
        **os.environ,
        **(extra_env or {}),
        "DATABASE_URL": devstack.with_database(base_url, name),
        "REDIS_URL": redis_url,
        "DJANGO_SETTINGS_MODULE": "backend.config.settings.test",
        "WEIR_STATE_DIR": str(state_dir),
        "WEIR_MAX_REQUEST_BYTES": str(MAX_REQUEST_BYTES),
        "WEIR_INGRESS_MAX_CHANGES": str(MAX_CHANGES),
    }
    stack = LiveStack(port=free_port(), env=env)
    stack.manage("migrate", "--no-input", "-v", "0")
    try:
        stack.api_key = stack.manage(
            "weir_user", USER, "--team", TEAM, "--password", PASSWORD, "--api-key", "tests"
        )
        stack.start_worker()
        stack.start_web()
        RUNNING_STACKS.append(stack)
        yield stack
    finally:
        if stack in RUNNING_STACKS:
            RUNNING_STACKS.remove(stack)
        try:
            stack.manage("weir_stop_runners")
        finally:  # the servers go even when the database is gone
            stack.stop()
        with _admin_connection(base_url) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
