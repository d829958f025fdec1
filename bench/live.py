"""Figures of Weir running for real (web server, Celery, Spark runners, Postgres, Redis):
latency from ingress to websocket, pipeline start, control-plane load, websocket
fan-out.

    .venv/bin/python -m bench.live [--quick]

Uses DATABASE_URL and REDIS_URL when set, else embedded services (as `make run`).
Prints Markdown for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from backend import devstack
from tests.live import LiveStack, live_stack

PROGRAM = """\
CREATE TABLE events (id BIGINT NOT NULL, sent DOUBLE NOT NULL, payload VARCHAR);
CREATE VIEW seen AS SELECT id, sent FROM events;
"""


def percentile(samples: list[float], p: float) -> float:
    """The p-th percentile (nearest rank) of `samples`.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 50)
    2.0
    """
    ordered = sorted(samples)
    rank = max(1, round(p / 100 * len(ordered) + 0.4999))
    return ordered[min(rank, len(ordered)) - 1]


def _new_pipeline(stack: LiveStack, sql: str = PROGRAM) -> str:
    name = f"bench-{uuid.uuid4().hex[:8]}"
    assert stack.api("POST", "programs", {"name": name, "sql": sql})[0] == 201
    assert stack.api("POST", "pipelines", {"name": name, "program": name})[0] == 201
    return name


def _warm_pipeline(stack: LiveStack) -> str:
    """A running pipeline that has made its first step (Spark's Python workers are up)."""
    pipeline = _new_pipeline(stack)
    _timed_start(stack, pipeline)
    row = {"id": 0, "sent": time.time(), "payload": "warm-up"}
    assert stack.api("POST", f"pipelines/{pipeline}/ingress/events", [row])[0] == 200
    stack.wait_for_view(pipeline, "seen", lambda rows: len(rows) == 1)
    return pipeline


def _timed_start(stack: LiveStack, pipeline: str) -> float:
    began = time.perf_counter()
    assert stack.api("POST", f"pipelines/{pipeline}/start")[0] == 202
    stack.wait_for_state(pipeline, "running")
    return time.perf_counter() - began


def pipeline_start(stack: LiveStack) -> list[str]:
    """Start request to `running`: the first start of a new pipeline, then again after stop."""
    pipeline = _new_pipeline(stack)
    cold = _timed_start(stack, pipeline)
    stack.api("POST", f"pipelines/{pipeline}/stop")
    stack.wait_for_state(pipeline, "stopped")
    warm = _timed_start(stack, pipeline)
    stack.api("POST", f"pipelines/{pipeline}/stop")
    stack.wait_for_state(pipeline, "stopped")
    return [
        "| start | seconds |",
        "|---|---|",
        f"| first start of a new pipeline | {cold:.1f} |",
        f"| start again after stop (checkpoint kept) | {warm:.1f} |",
    ]


def latency(stack: LiveStack, rates: list[tuple[str, float, int]]) -> list[str]:
    """Ingress answered -> the row's delta on a websocket, at each (label, rows/s, count)."""
    pipeline = _warm_pipeline(stack)
    lines = ["| input rate | rows | p50 ms | p95 ms | p99 ms |", "|---|---|---|---|---|"]
    next_id = 0
    for label, rate, count in rates:
        arrived: dict[int, float] = {}
        answered: dict[int, float] = {}
        with stack.websocket(f"/ws/pipelines/{pipeline}/") as ws:
            done = threading.Event()

            def listen(ws: Any = ws, arrived: dict[int, float] = arrived, done: Any = done) -> None:
                while not done.is_set():
                    try:
                        message = json.loads(ws.recv(timeout=0.5))
                    except TimeoutError:
                        continue
                    if message["type"] == "delta":
                        now = time.perf_counter()
                        for change in message["changes"]:
                            arrived.setdefault(change["insert"]["id"], now)

            listener = threading.Thread(target=listen)
            listener.start()
            for _ in range(count):
                next_id += 1
                row = {"id": next_id, "sent": time.time(), "payload": "x"}
                status, _ = stack.api("POST", f"pipelines/{pipeline}/ingress/events", [row])
                assert status == 200
                answered[next_id] = time.perf_counter()
                time.sleep(1 / rate)  # the benchmark's input rate, not a test's wait
            stack.wait_for(lambda a=answered, b=arrived: a.keys() <= b.keys(), 120)
            done.set()
            listener.join()
        samples = [(arrived[i] - answered[i]) * 1000 for i in answered]
        lines.append(
            f"| {label} ({rate:g} requests/s) | {count} | {percentile(samples, 50):.0f} | "
            f"{percentile(samples, 95):.0f} | {percentile(samples, 99):.0f} |"
        )
    stack.api("POST", f"pipelines/{pipeline}/stop")
    stack.wait_for_state(pipeline, "stopped")
    return lines


def _load(call: Callable[[], Any], seconds: float, threads: int) -> tuple[float, float]:
    """Requests per second and p99 ms of `call` from `threads` clients for `seconds`."""
    deadline = time.perf_counter() + seconds

    def client() -> list[float]:
        samples = []
        while time.perf_counter() < deadline:
            began = time.perf_counter()
            call()
            samples.append((time.perf_counter() - began) * 1000)
        return samples

    began = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        samples = [s for part in pool.map(lambda _: client(), range(threads)) for s in part]
    return len(samples) / (time.perf_counter() - began), percentile(samples, 99)


def control_plane(stack: LiveStack, pipelines: int, seconds: float) -> list[str]:
    """Status and list calls with `pipelines` stored pipelines, 8 concurrent clients."""
    names = [_new_pipeline(stack) for _ in range(pipelines)]

    def ok(path: str) -> Callable[[], None]:
        def call() -> None:
            status, body = stack.api("GET", path)
            assert status == 200, body

        return call

    lines = ["| call | requests/s | p99 ms |", "|---|---|---|"]
    for label, path in (
        (f"GET /pipelines/{{name}} ({pipelines} stored)", f"pipelines/{names[0]}"),
        (f"GET /pipelines (list of {len(names)}+)", "pipelines"),
        ("GET /health", "health"),
    ):
        rate, p99 = _load(ok(path), seconds, threads=8)
        lines.append(f"| `{label}` | {rate:,.0f} | {p99:.0f} |")
    return lines


def fan_out(stack: LiveStack, clients: int, rounds: int) -> list[str]:
    """One row in; the time until each of `clients` websockets has its delta."""
    pipeline = _warm_pipeline(stack)
    sockets = contextlib.ExitStack()
    opened = [
        sockets.enter_context(stack.websocket(f"/ws/pipelines/{pipeline}/")) for _ in range(clients)
    ]
    samples: list[float] = []
    for round_ in range(rounds):
        sent = time.perf_counter()
        row = {"id": -1 - round_, "sent": time.time(), "payload": "x"}
        assert stack.api("POST", f"pipelines/{pipeline}/ingress/events", [row])[0] == 200

        def receive(ws: Any, round_: int = round_, sent: float = sent) -> float:
            while True:
                message = json.loads(ws.recv(timeout=120))
                if message["type"] == "delta" and any(
                    c["insert"]["id"] == -1 - round_ for c in message["changes"]
                ):
                    return (time.perf_counter() - sent) * 1000

        with ThreadPoolExecutor(32) as pool:
            samples.extend(pool.map(receive, opened))
    sockets.close()
    stack.api("POST", f"pipelines/{pipeline}/stop")
    stack.wait_for_state(pipeline, "stopped")
    return [
        "| clients | rounds | p50 ms | p99 ms | slowest ms |",
        "|---|---|---|---|---|",
        f"| {clients} | {rounds} | {percentile(samples, 50):.0f} | "
        f"{percentile(samples, 99):.0f} | {max(samples):.0f} |",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer samples (a smoke run)")
    args = parser.parse_args()
    quick = args.quick
    with (
        tempfile.TemporaryDirectory(prefix="weir-bench-live-") as tmp,
        devstack.services(Path(tmp) / "services") as urls,
    ):
        os.environ.update(urls)
        for stack in live_stack(Path(tmp) / "state"):
            sections = [
                ("Pipeline start", pipeline_start(stack)),
                (
                    "Latency: ingress answered to delta on a websocket",
                    latency(
                        stack,
                        [("low", 2, 10 if quick else 40), ("high", 50, 50 if quick else 500)],
                    ),
                ),
                ("Control plane", control_plane(stack, 10 if quick else 100, 2 if quick else 10)),
                ("Websocket fan-out", fan_out(stack, 10 if quick else 100, 2 if quick else 5)),
            ]
    for title, lines in sections:
        print(f"**{title}**\n")
        print("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
