"""POST /pipelines/{name}/deploy keeps the state when the new plan only adds; anything else
needs {"reset_state": true} (409 state_reset_required, naming the changes)."""

import json
from collections.abc import Callable
from typing import Any

from tests.integration.test_control_plane import push_step, start, stop, unique
from tests.live import LiveStack, next_message

V1 = """\
CREATE TABLE t (x INT NOT NULL);
CREATE TABLE k (id INT NOT NULL PRIMARY KEY, label VARCHAR);
CREATE VIEW positive AS SELECT x FROM t WHERE x > 0;
"""
V2 = (
    V1
    + """\
CREATE VIEW doubled AS SELECT x * 2 AS y FROM positive;
CREATE VIEW total AS SELECT COUNT(*) AS n, SUM(x) AS s FROM t;
CREATE VIEW labels AS SELECT label FROM k;
"""
)
V3 = V2.replace("x > 0", "x > 1")


def deploy(stack: LiveStack, pipeline: str, sql: str, body: object = None) -> tuple[int, dict]:
    assert stack.api("PUT", f"programs/{pipeline}", {"sql": sql})[0] == 200
    return stack.api("POST", f"pipelines/{pipeline}/deploy", body)


def test_added_views_keep_the_state_and_are_filled_from_what_is_there(stack: LiveStack) -> None:
    pipeline = unique("redeploy")
    stack.api("POST", "programs", {"name": pipeline, "sql": V1})
    stack.api("POST", "pipelines", {"name": pipeline, "program": pipeline})
    start(stack, pipeline)
    push_step(stack, pipeline, "t", [{"x": -1}, {"x": 2}, {"x": 3}, {"delete": {"x": 3}}])
    push_step(stack, pipeline, "k", [{"id": 1, "label": "a"}, {"id": 1, "label": "b"}])
    stop(stack, pipeline)

    status, body = deploy(stack, pipeline, V2)
    assert (status, body["program_version"], body["last_step"]) == (200, 2, 2), body
    events = stack.api("GET", f"pipelines/{pipeline}/events")[1]
    assert "new views filled at the next step: doubled, total, labels" in events[-1]["message"]
    start(stack, pipeline)
    assert stack.wait_for_view(pipeline, "doubled", lambda rows: rows) == {(4,)}
    assert stack.wait_for_view(pipeline, "total", lambda rows: rows) == {(2, 1)}
    assert stack.wait_for_view(pipeline, "labels", lambda rows: rows) == {("b",)}
    deltas = stack.api("GET", f"pipelines/{pipeline}/deltas")[1]
    assert [(d["step"], d["view"]) for d in deltas if d["view"] == "positive"] == [(1, "positive")]
    # The new views go on incrementally from there.
    push_step(stack, pipeline, "t", [{"x": 5}, {"delete": {"x": 2}}])
    assert stack.wait_for_view(pipeline, "doubled", lambda rows: rows == {(10,)}) == {(10,)}
    assert stack.wait_for_view(pipeline, "total", lambda rows: rows == {(2, 4)}) == {(2, 4)}
    stop(stack, pipeline)

    status, body = deploy(stack, pipeline, V3)
    assert (status, body["code"]) == (409, "state_reset_required")
    assert body["details"]["changes"] == ["view positive: query changed"]
    for bad in ({"reset_state": "maybe"}, [True]):
        status, body = stack.api("POST", f"pipelines/{pipeline}/deploy", bad)
        assert (status, body["code"]) == (400, "invalid"), bad
    status, body = stack.api("POST", f"pipelines/{pipeline}/deploy", {"reset_state": True})
    assert (status, body["program_version"], body["last_step"]) == (200, 3, 0)
    start(stack, pipeline)
    assert stack.wait_for_view(pipeline, "positive", lambda rows: rows == {(5,)}) == {(5,)}
    stop(stack, pipeline)


def positive_rows(messages: list[dict[str, Any]]) -> set[int]:
    """The rows of view `positive` the delta messages add up to."""
    rows: dict[int, int] = {}
    for message in messages:
        for change in message["changes"]:
            ((kind, row),) = change.items()
            rows[row["x"]] = rows.get(row["x"], 0) + (1 if kind == "insert" else -1)
    return {x for x, weight in rows.items() if weight > 0}


def is_reset(message: dict[str, Any]) -> bool:
    """A websocket's reset message, or an egress stream's reset line."""
    return message.get("type") == "reset" or message.get("reset") is True


def follow_until(next_: Callable[[], dict[str, Any]], rows: set[int]) -> list[dict[str, Any]]:
    """Messages from `next_` (deltas of `positive`, or a reset) until the deltas since the
    last reset add up to `rows`; every message read."""
    read: list[dict[str, Any]] = []
    while True:
        read.append(next_())
        last_reset = max((i for i, m in enumerate(read) if is_reset(m)), default=-1)
        since = [m for m in read[last_reset + 1 :] if "changes" in m]
        if since and positive_rows(since) == rows:
            return read


def test_a_websocket_and_an_egress_stream_open_across_a_reset_start_over_with_the_new_run(
    stack: LiveStack,
) -> None:
    """A reset numbers steps from 1 again: followers used to take the new run's first steps
    for ones they had sent, and dropped them."""
    pipeline = unique("reset-follow")
    stack.api("POST", "programs", {"name": pipeline, "sql": V1})
    stack.api("POST", "pipelines", {"name": pipeline, "program": pipeline})
    start(stack, pipeline)
    for x in (1, 2, 3):
        push_step(stack, pipeline, "t", [{"x": x}])
    assert stack.api("GET", f"pipelines/{pipeline}")[1]["run"] == 1

    def ws_next(ws: Any) -> Callable[[], dict[str, Any]]:
        def read() -> dict[str, Any]:
            while True:
                message = json.loads(ws.recv(timeout=120))
                if message["type"] == "reset" or (
                    message["type"] == "delta" and message["view"] == "positive"
                ):
                    return message  # type: ignore[no-any-return]

        return read

    with (
        stack.websocket(f"/ws/pipelines/{pipeline}/?after_step=0") as ws,
        stack.stream(f"pipelines/{pipeline}/egress/positive?from=0") as lines,
    ):
        old_ws = follow_until(ws_next(ws), {1, 2, 3})
        assert {(m["run"], m["step"]) for m in old_ws} == {(1, 1), (1, 2), (1, 3)}
        assert [lines.next() for _ in range(3)] == [
            {"run": 1, "step": step, "changes": [{"insert": {"x": step}}]} for step in (1, 2, 3)
        ]
        stop(stack, pipeline)
        status, body = stack.api("POST", f"pipelines/{pipeline}/deploy", {"reset_state": True})
        assert (status, body["run"], body["last_step"]) == (200, 2, 0)
        assert ws_next(ws)() == {"type": "reset", "run": 2}
        assert lines.next() == {"reset": True, "run": 2}

        start(stack, pipeline)  # the new run processes every accepted input again
        new_ws = follow_until(ws_next(ws), {1, 2, 3})
        new_egress = follow_until(lines.next, {1, 2, 3})
        push_step(stack, pipeline, "t", [{"x": 4}])
        last = stack.api("GET", f"pipelines/{pipeline}")[1]["last_step"]
        new_ws += follow_until(ws_next(ws), {4})
        new_egress += follow_until(lines.next, {4})
        for new in (new_ws, new_egress):
            assert all(m["run"] == 2 for m in new)
            steps = [m["step"] for m in new]
            assert steps == sorted(steps) and steps[0] == 1 and steps[-1] == last
            assert positive_rows(new) == {1, 2, 3, 4}

    # Resuming at a step of the run that is over: a reset, then the new run from its start.
    with stack.websocket(f"/ws/pipelines/{pipeline}/?after_step=3&run=1") as ws:
        assert next_message(ws, "state")["run"] == 2
        assert ws_next(ws)() == {"type": "reset", "run": 2}
        resumed = follow_until(ws_next(ws), {1, 2, 3, 4})
        assert [m["step"] for m in resumed] == [m["step"] for m in new_ws]
    with stack.websocket(f"/ws/pipelines/{pipeline}/?after_step={last - 1}&run=2") as ws:
        assert ws_next(ws)()["step"] == last, "the same run: after_step counts in it"
    with stack.stream(f"pipelines/{pipeline}/egress/positive?from=3&run=1") as lines:
        assert lines.next() == {"reset": True, "run": 2}
        assert positive_rows(follow_until(lines.next, {1, 2, 3, 4})) == {1, 2, 3, 4}
    with stack.stream(f"pipelines/{pipeline}/egress/positive?from={last - 1}&run=2") as lines:
        assert lines.next() == {"run": 2, "step": last, "changes": [{"insert": {"x": 4}}]}
    stop(stack, pipeline)
