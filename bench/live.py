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
import itertools
import json
import os
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from backend import devstack
from bench import charts
from tests.live import PASSWORD, USER, LiveStack, live_stack

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


WARM_UP_STEPS = 5
ROW_IDS = itertools.count(1)  # the ids of the rows whose latency is measured


def _warm_pipeline(stack: LiveStack) -> str:
    """A running pipeline that has made a few steps (Spark's Python workers are up, the
    JIT has seen a step)."""
    pipeline = _new_pipeline(stack)
    _timed_start(stack, pipeline)
    for n in range(WARM_UP_STEPS):
        row = {"id": -1000 - n, "sent": time.time(), "payload": "warm-up"}
        assert stack.api("POST", f"pipelines/{pipeline}/ingress/events", [row])[0] == 200
        stack.wait_for_view(pipeline, "seen", lambda rows, n=n: len(rows) == n + 1)
    return pipeline


def _timed_start(stack: LiveStack, pipeline: str) -> float:
    began = time.perf_counter()
    assert stack.api("POST", f"pipelines/{pipeline}/start")[0] == 202
    stack.wait_for_state(pipeline, "running")
    return time.perf_counter() - began


def pipeline_start(stack: LiveStack) -> list[str]:
    """Start request to `running`. The stack has just started, so the first start finds
    no warm spare driver (cold); once it stops, its driver waits as a spare (warm)."""
    first = _new_pipeline(stack)
    cold = _timed_start(stack, first)
    _stop(stack, first)
    warm = [_timed_start(stack, first)]
    _stop(stack, first)
    second = _new_pipeline(stack)
    warm.append(_timed_start(stack, second))
    _stop(stack, second)
    return [
        "| start | seconds |",
        "|---|---|",
        f"| cold: a new pipeline, no spare driver waiting (a Spark driver starts) | {cold:.1f} |",
        f"| warm: the same pipeline again after stop (checkpoint kept) | {warm[0]:.1f} |",
        f"| warm: a new pipeline on the spare driver | {warm[1]:.1f} |",
    ]


def _stop(stack: LiveStack, pipeline: str) -> None:
    assert stack.api("POST", f"pipelines/{pipeline}/stop")[0] == 202
    stack.wait_for_state(pipeline, "stopped")


class DeltaClock:
    """When each row id's delta reached a websocket of the pipeline, as it arrives."""

    def __init__(self, stack: LiveStack, pipeline: str) -> None:
        self.arrived: dict[int, float] = {}
        self._done = threading.Event()
        self._sockets = contextlib.ExitStack()
        self._ws = self._sockets.enter_context(stack.websocket(f"/ws/pipelines/{pipeline}/"))
        self._listener = threading.Thread(target=self._listen)
        self._listener.start()

    def _listen(self) -> None:
        while not self._done.is_set():
            try:
                message = json.loads(self._ws.recv(timeout=0.5))
            except TimeoutError:
                continue
            if message["type"] == "delta":
                now = time.perf_counter()
                for change in message["changes"]:
                    self.arrived.setdefault(change["insert"]["id"], now)

    def close(self) -> None:
        self._done.set()
        self._listener.join()
        self._sockets.close()


def latency_samples(stack: LiveStack, pipelines: list[str], rate: float, count: int) -> list[float]:
    """Ingress answered -> the row's delta on a websocket, in ms: `count` rows, one per
    request, `rate` requests a second in all, to the pipelines in turn."""
    clocks = {pipeline: DeltaClock(stack, pipeline) for pipeline in pipelines}
    answered: dict[int, tuple[str, float]] = {}
    try:
        for index in range(count):
            pipeline = pipelines[index % len(pipelines)]
            row_id = next(ROW_IDS)
            row = {"id": row_id, "sent": time.time(), "payload": "x"}
            status, _ = stack.api("POST", f"pipelines/{pipeline}/ingress/events", [row])
            assert status == 200
            answered[row_id] = (pipeline, time.perf_counter())
            time.sleep(1 / rate)  # the benchmark's input rate, not a test's wait
        stack.wait_for(lambda: all(i in clocks[p].arrived for i, (p, _) in answered.items()), 300)
    finally:
        for clock in clocks.values():
            clock.close()
    return [(clocks[p].arrived[i] - at) * 1000 for i, (p, at) in answered.items()]


def latency(stack: LiveStack, rates: list[tuple[str, float, int]]) -> tuple[list[str], str]:
    """At each (label, requests/s, rows): p50/p95/p99 of ingress answered -> websocket."""
    pipeline = _warm_pipeline(stack)
    lines = ["| input rate | rows | p50 ms | p95 ms | p99 ms |", "|---|---|---|---|---|"]
    figures: dict[str, list[float]] = {}
    for label, rate, count in rates:
        samples = latency_samples(stack, [pipeline], rate, count)
        figures[f"{label} ({rate:g}/s)"] = [percentile(samples, p) for p in (50, 95, 99)]
        lines.append(
            f"| {label} ({rate:g} requests/s) | {count} | {percentile(samples, 50):.0f} | "
            f"{percentile(samples, 95):.0f} | {percentile(samples, 99):.0f} |"
        )
    _stop(stack, pipeline)
    chart = charts.bars(
        "latency",
        "Ingress answered to delta on a websocket",
        ["p50", "p95", "p99"],
        figures,
        "ms",
    )
    return lines, chart


def by_pipelines(stack: LiveStack, counts: list[int], rows: int) -> tuple[list[str], str]:
    """Latency with 1, 2, ... pipelines running on this machine at once, each sent one
    row a second."""
    lines = ["| pipelines running | rows | p50 ms | p95 ms |", "|---|---|---|---|"]
    p50s = []
    running: list[str] = []
    for count in counts:
        while len(running) < count:
            running.append(_warm_pipeline(stack))
        samples = latency_samples(stack, running, rate=float(count), count=rows * count)
        p50s.append(percentile(samples, 50))
        lines.append(
            f"| {count} | {rows * count} | {percentile(samples, 50):.0f} | "
            f"{percentile(samples, 95):.0f} |"
        )
    for pipeline in running:
        _stop(stack, pipeline)
    chart = charts.lines(
        "latency-by-pipelines",
        "Latency p50 by pipelines running on one machine",
        counts,
        {"p50 (ms)": p50s},
        "pipelines running (each 1 row/s)",
        "ms",
    )
    return lines, chart


def keystroke_to_markers(stack: LiveStack, samples: int) -> list[str]:
    """In headless Chromium: a key typed in the editor that breaks (or mends) a table
    name, to the error squiggle appearing (or going); debounce, validate request and
    Monaco's drawing included."""
    from playwright.sync_api import sync_playwright

    from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, sign_in

    name = f"bench-{uuid.uuid4().hex[:8]}"
    sql = PROGRAM + "CREATE VIEW probe AS SELECT id FROM events"
    assert stack.api("POST", "programs", {"name": name, "sql": sql})[0] == 201
    broke, mended = [], []
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        page = context.new_page()
        sign_in(page, f"{stack.url}/programs/{name}", USER, PASSWORD)
        editor = page.get_by_test_id("editor")
        editor.get_by_text("probe").wait_for(timeout=60_000)
        squiggle = editor.locator(".squiggly-error")
        editor.locator(".view-lines").click()
        page.keyboard.press("Control+End")
        for _ in range(samples):
            began = time.perf_counter()
            page.keyboard.type("x")
            squiggle.first.wait_for(state="attached", timeout=30_000)
            broke.append((time.perf_counter() - began) * 1000)
            began = time.perf_counter()
            page.keyboard.press("Backspace")
            squiggle.first.wait_for(state="detached", timeout=30_000)
            mended.append((time.perf_counter() - began) * 1000)
        context.close()
    return [
        "| keystroke | samples | p50 ms | p95 ms |",
        "|---|---|---|---|",
        f"| breaks a name: squiggle appears | {samples} | {percentile(broke, 50):.0f} | "
        f"{percentile(broke, 95):.0f} |",
        f"| mends it: squiggle goes | {samples} | {percentile(mended, 50):.0f} | "
        f"{percentile(mended, 95):.0f} |",
    ]


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
    _stop(stack, pipeline)
    return [
        "| clients | rounds | p50 ms | p99 ms | slowest ms |",
        "|---|---|---|---|---|",
        f"| {clients} | {rounds} | {percentile(samples, 50):.0f} | "
        f"{percentile(samples, 99):.0f} | {max(samples):.0f} |",
    ]


@contextlib.contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """The stack's servers and runners inherit file descriptor 1: while they run it
    points at stderr, so that stdout carries only this benchmark's Markdown."""
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    try:
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer samples (a smoke run)")
    quick = parser.parse_args().quick
    with (
        stdout_to_stderr(),
        tempfile.TemporaryDirectory(prefix="weir-bench-live-") as tmp,
        devstack.services(Path(tmp) / "services") as urls,
    ):
        os.environ.update(urls)
        # Room for the control-plane benchmark's stored pipelines beside the others.
        room = {"WEIR_TEAM_MAX_PIPELINES": "1000"}
        for stack in live_stack(Path(tmp) / "state", room):
            # In this order: the first start must find no spare driver yet.
            start_table = pipeline_start(stack)
            rates: list[tuple[str, float, int]] = [
                ("low", 2, 10 if quick else 30),
                ("high", 50, 50 if quick else 500),
            ]
            latency_table, latency_chart = latency(stack, rates)
            pipelines_table, pipelines_chart = by_pipelines(
                stack, [1, 2] if quick else [1, 2, 4], rows=5 if quick else 10
            )
            control_table = control_plane(stack, 10 if quick else 100, 2 if quick else 5)
            fan_out_table = fan_out(stack, 10 if quick else 100, 2 if quick else 3)
            keystroke_table = keystroke_to_markers(stack, 5 if quick else 20)
    sections = [
        ("Pipeline start", start_table, ""),
        ("Latency: ingress answered to delta on a websocket", latency_table, latency_chart),
        ("Latency by pipelines running on one machine", pipelines_table, pipelines_chart),
        ("Control plane", control_table, ""),
        ("Websocket fan-out", fan_out_table, ""),
        ("Keystroke to markers in the browser", keystroke_table, ""),
    ]
    for title, lines, chart in sections:
        print(f"**{title}**\n")
        print("\n".join(lines) + "\n")
        if chart:
            print(chart + "\n")


if __name__ == "__main__":
    main()
