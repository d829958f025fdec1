"""The walking skeleton end to end on the real stack: REST, Celery, Spark, websockets."""

import os
import signal
import time
import uuid

from tests.live import MAX_CHANGES, MAX_REQUEST_BYTES, USER, LiveStack, next_message

PROGRAM = """\
CREATE TABLE orders (
    id BIGINT NOT NULL,
    customer VARCHAR NOT NULL,
    amount DECIMAL(10, 2) NOT NULL
);

CREATE VIEW large_orders AS
SELECT customer AS who, id
FROM orders
WHERE amount >= 100;
"""


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def key_actor(stack: LiveStack) -> str:
    """How events name the test user acting with the stack's API key."""
    prefix = stack.api_key.split("_")[1]
    return f"{USER} (key {prefix})"


def test_program_is_compiled_when_saved_and_versions_are_kept(stack: LiveStack) -> None:
    name = unique("prog")
    status, created = stack.api("POST", "programs", {"name": name, "sql": PROGRAM})
    assert status == 201, created
    assert (created["version"], created["status"], created["diagnostics"]) == (1, "ok", [])
    relations = {r["name"]: r["kind"] for r in created["catalog"]["relations"]}
    assert relations == {"orders": "table", "large_orders": "view"}

    status, updated = stack.api("PUT", f"programs/{name}", {"sql": PROGRAM.replace("100", "500")})
    assert (status, updated["version"]) == (200, 2)
    status, versions = stack.api("GET", f"programs/{name}/versions")
    assert [v["version"] for v in versions] == [1, 2]
    assert "plan" not in versions[0], "the list stays small"

    status, first = stack.api("GET", f"programs/{name}/versions/1")
    assert (status, first["version"], first["sql"]) == (200, 1, PROGRAM)
    assert first["catalog"] == created["catalog"]
    [view] = first["plan"]["views"]
    assert view["name"] == "large_orders"
    condition = view["query"]["input"]["condition"]
    assert condition["args"][1]["value"] == 100, "version 1's plan, not version 2's"
    status, second = stack.api("GET", f"programs/{name}/versions/2")
    assert status == 200 and second["plan"] != first["plan"]
    for missing, message in [(f"{name}/versions/3", "no version 3"),
                             ("no-such-program/versions/1", "No program named")]:  # fmt: skip
        status, body = stack.api("GET", f"programs/{missing}")
        assert (status, body["code"]) == (404, "not_found") and message in body["message"]


def test_validate_reports_errors_with_exact_spans(stack: LiveStack) -> None:
    sql = "CREATE TABLE t (x INT);\nCREATE VIEW v AS SELECT y FROM t;\n"
    status, body = stack.api("POST", "validate", {"sql": sql})
    assert status == 200
    (diagnostic,) = body["diagnostics"]
    assert diagnostic["severity"] == "error"
    assert "'y'" in diagnostic["message"]
    span = [
        diagnostic[k]
        for k in ("start_line_number", "start_column", "end_line_number", "end_column")
    ]
    assert span == [2, 25, 2, 26]
    assert body["plan"] is None
    status, body = stack.api("POST", "validate", {"sql": sql.replace("SELECT y", "SELECT x")})
    assert (status, body["diagnostics"]) == (200, [])
    assert [v["name"] for v in body["plan"]["views"]] == ["v"]
    assert body["catalog"]["pumps"] == []


def test_bad_requests_get_the_error_envelope(stack: LiveStack) -> None:
    status, body = stack.api("POST", "programs", {"name": "no spaces allowed", "sql": ""})
    assert status == 400 and set(body) == {"message", "code", "details"}
    status, body = stack.api("GET", "pipelines/does-not-exist")
    assert (status, body["code"]) == (404, "not_found")
    status, body = stack.api("POST", "validate", raw=b"{not json")
    assert status == 400 and body["code"] == "parse_error"
    for method, path in [("GET", "nope"), ("POST", "pipelines/does-not-exist/restart")]:
        for key in (stack.api_key, None):  # an unknown URL is unknown to everyone
            status, body = stack.api(method, path, key=key)
            assert (status, body["code"]) == (404, "not_found"), (method, path, body)
            assert set(body) == {"message", "code", "details"}
    # PostgreSQL text holds no NUL, so nothing is named with one: such a name is unknown.
    program, pipeline = unique("prog"), unique("pipe")
    assert stack.api("POST", "programs", {"name": program, "sql": PROGRAM})[0] == 201
    assert stack.api("POST", "pipelines", {"name": pipeline, "program": program})[0] == 201
    for method, path in [
        ("GET", f"pipelines/{pipeline}?team=a%00b"),
        ("POST", f"pipelines/{pipeline}/pumps/p%00/stop"),
        ("POST", f"pipelines/{pipeline}/ingress/orders%00"),
        ("GET", f"pipelines/{pipeline}/egress/large_orders%00"),
        ("DELETE", "api_keys/k%00"),
    ]:
        status, body = stack.api(method, path)
        assert (status, body["code"]) == (404, "not_found"), (method, path, body)


def test_pipeline_runs_on_spark_and_pause_resume_stop_lose_no_row(stack: LiveStack) -> None:
    program, pipeline = unique("prog"), unique("pipe")
    assert stack.api("POST", "programs", {"name": program, "sql": PROGRAM})[0] == 201
    status, created = stack.api("POST", "pipelines", {"name": pipeline, "program": program})
    assert (status, created["state"]) == (201, "stopped")

    with stack.websocket(f"/ws/pipelines/{pipeline}/") as ws:
        assert next_message(ws, "state")["state"] == "stopped"
        status, body = stack.api("POST", f"pipelines/{pipeline}/start")
        assert (status, body["state"]) == (202, "starting")
        # Every recorded event is pushed too: who moved the pipeline where, and when.
        event = next_message(ws, "event")
        assert event["actor"] == key_actor(stack), "the user and the key they acted with"
        assert (event["from_state"], event["to_state"]) == ("stopped", "starting")
        listed = {e["id"]: e for e in stack.api("GET", f"pipelines/{pipeline}/events")[1]}
        assert listed[event["id"]] == {k: v for k, v in event.items() if k != "type"}
        event = next_message(ws, "event")
        assert (event["actor"], event["to_state"]) == ("runner", "running")
        stack.wait_for_state(pipeline, "running")

        rows = [
            {"id": 1, "customer": "ada", "amount": 250},
            {"insert": {"id": 2, "customer": "bob", "amount": "99.99"}},
        ]
        assert stack.api("POST", f"pipelines/{pipeline}/ingress/orders", rows) == (
            200,
            {"accepted": 2, "seq": 2},
        )
        delta = next_message(ws, "delta")
        assert delta == {
            "type": "delta",
            "run": 1,
            "step": 1,
            "view": "large_orders",
            "changes": [{"insert": {"id": 1, "who": "ada"}}],
        }
        assert list(delta["changes"][0]["insert"]) == ["who", "id"], "the view's column order"

        deleted = [{"delete": {"id": 1, "customer": "ada", "amount": 250}}]
        assert stack.api("POST", f"pipelines/{pipeline}/ingress/orders", deleted)[0] == 200
        delta = next_message(ws, "delta")
        assert (delta["step"], delta["changes"]) == (2, [{"delete": {"id": 1, "who": "ada"}}])

        assert stack.api("POST", f"pipelines/{pipeline}/pause")[0] == 202
        paused = stack.wait_for_state(pipeline, "paused")
        late = [{"id": 3, "customer": "cy", "amount": 300}]
        assert stack.api("POST", f"pipelines/{pipeline}/ingress/orders", late)[0] == 200
        # Paused means the Spark query is stopped: no step can have happened.
        assert stack.api("GET", f"pipelines/{pipeline}")[1]["last_step"] == paused["last_step"] == 2

        assert stack.api("POST", f"pipelines/{pipeline}/resume")[0] == 202
        delta = next_message(ws, "delta")
        assert (delta["step"], delta["changes"]) == (3, [{"insert": {"id": 3, "who": "cy"}}])
        stack.wait_for_state(pipeline, "running")

        assert stack.api("POST", f"pipelines/{pipeline}/stop")[0] == 202
        stack.wait_for_state(pipeline, "stopped")

    # A restart resumes from the checkpoint: old input is not processed again.
    assert stack.api("POST", f"pipelines/{pipeline}/start")[0] == 202
    stack.wait_for_state(pipeline, "running")
    more = [{"id": 4, "customer": "dee", "amount": 100}]
    assert stack.api("POST", f"pipelines/{pipeline}/ingress/orders", more)[0] == 200
    with stack.websocket(f"/ws/pipelines/{pipeline}/?after_step=3") as ws:
        delta = next_message(ws, "delta")
        assert (delta["step"], delta["changes"]) == (4, [{"insert": {"id": 4, "who": "dee"}}])

    status, deltas = stack.api("GET", f"pipelines/{pipeline}/deltas")
    assert list(deltas[0]["changes"][0]["insert"]) == ["who", "id"], "stored in column order"
    assert [(d["step"], d["changes"]) for d in deltas] == [
        (1, [{"insert": {"id": 1, "who": "ada"}}]),
        (2, [{"delete": {"id": 1, "who": "ada"}}]),
        (3, [{"insert": {"id": 3, "who": "cy"}}]),
        (4, [{"insert": {"id": 4, "who": "dee"}}]),
    ]
    status, events = stack.api("GET", f"pipelines/{pipeline}/events")
    states = [e["to_state"] for e in events]
    assert states[:3] == ["starting", "running", "pausing"]
    assert stack.api("POST", f"pipelines/{pipeline}/stop")[0] == 202
    stack.wait_for_state(pipeline, "stopped")


def test_bad_ingress_names_row_and_column_and_applies_nothing(stack: LiveStack) -> None:
    program, pipeline = unique("prog"), unique("pipe")
    stack.api("POST", "programs", {"name": program, "sql": PROGRAM})
    stack.api("POST", "pipelines", {"name": pipeline, "program": program})

    status, body = stack.api("POST", f"pipelines/{pipeline}/ingress/orders", [{"id": 1}])
    assert (status, body["code"]) == (409, "conflict"), "a stopped pipeline takes no input"

    stack.api("POST", f"pipelines/{pipeline}/pause")  # refused: not running
    assert stack.api("POST", f"pipelines/{pipeline}/start")[0] == 202
    stack.wait_for_state(pipeline, "running")
    bad = [
        {"id": 1, "customer": "ok", "amount": 1},
        {"id": 2, "customer": "bad", "amount": "lots"},
    ]
    status, body = stack.api("POST", f"pipelines/{pipeline}/ingress/orders", bad)
    assert status == 400
    assert body["details"] == {"index": 1, "column": "amount"}
    status, body = stack.api("POST", f"pipelines/{pipeline}/ingress/large_orders", [])
    assert (status, body["code"]) == (400, "not_an_input")
    status, body = stack.api("POST", f"pipelines/{pipeline}/ingress/nope", [])
    assert status == 404

    too_many = [{"id": i, "customer": "x", "amount": 1} for i in range(MAX_CHANGES + 1)]
    status, body = stack.api("POST", f"pipelines/{pipeline}/ingress/orders", too_many)
    assert (status, body["code"]) == (400, "too_many_changes")
    huge = b"[" + b" " * MAX_REQUEST_BYTES + b"]"
    status, body = stack.api("POST", f"pipelines/{pipeline}/ingress/orders", raw=huge)
    assert (status, body["code"]) == (413, "too_large")
    status, body = stack.api("POST", f"pipelines/{pipeline}/ingress/orders", raw=b"\xff\xfe[")
    assert status == 400 and set(body) == {"message", "code", "details"}

    good = [{"id": 5, "customer": "eve", "amount": 101}]
    assert stack.api("POST", f"pipelines/{pipeline}/ingress/orders", good) == (
        200,
        {"accepted": 1, "seq": 1},
    ), "the refused request took no sequence numbers"
    stack.api("POST", f"pipelines/{pipeline}/stop")
    stack.wait_for_state(pipeline, "stopped")


def test_a_killed_spark_runner_is_noticed_and_restarted_from_its_checkpoint(
    stack: LiveStack,
) -> None:
    program, pipeline = unique("prog"), unique("pipe")
    stack.api("POST", "programs", {"name": program, "sql": PROGRAM})
    body = {"name": pipeline, "program": program, "on_runner_failure": "restart"}
    assert stack.api("POST", "pipelines", body)[1]["on_runner_failure"] == "restart"
    stack.api("POST", f"pipelines/{pipeline}/start")
    stack.wait_for_state(pipeline, "running")
    first = [{"id": 1, "customer": "ada", "amount": 250}]
    stack.api("POST", f"pipelines/{pipeline}/ingress/orders", first)
    with stack.websocket(f"/ws/pipelines/{pipeline}/?after_step=0") as ws:
        assert next_message(ws, "delta")["step"] == 1

    os.killpg(stack.api("GET", f"pipelines/{pipeline}")[1]["runner_pid"], signal.SIGKILL)
    stack.wait_for_event(pipeline, actor="monitor", to_state="failed")
    stack.wait_for_state(pipeline, "running")

    second = [{"id": 2, "customer": "bob", "amount": 300}]
    stack.api("POST", f"pipelines/{pipeline}/ingress/orders", second)
    with stack.websocket(f"/ws/pipelines/{pipeline}/?after_step=1") as ws:
        delta = next_message(ws, "delta")
    assert (delta["step"], delta["changes"]) == (2, [{"insert": {"id": 2, "who": "bob"}}])
    stack.api("POST", f"pipelines/{pipeline}/stop")
    stack.wait_for_state(pipeline, "stopped")


def test_a_dead_driver_fails_the_pipeline_within_seconds_with_its_error(
    stack: LiveStack,
) -> None:
    """The monitor's default mode (`fail`): the pipeline turns failed, carries the
    runner's last log lines, and waits for an operator; who did what is recorded."""
    program, pipeline = unique("prog"), unique("pipe")
    stack.api("POST", "programs", {"name": program, "sql": PROGRAM})
    status, created = stack.api("POST", "pipelines", {"name": pipeline, "program": program})
    assert (status, created["on_runner_failure"]) == (201, "fail"), "the default"
    assert stack.api("POST", f"pipelines/{pipeline}/start")[0] == 202
    running = stack.wait_for_state(pipeline, "running")

    status, body = stack.api("POST", f"pipelines/{pipeline}/deploy", {})
    assert (status, body["code"], body["details"]) == (409, "conflict", {"state": "running"})

    killed_at = time.monotonic()
    os.killpg(running["runner_pid"], signal.SIGKILL)
    while (state := stack.api("GET", f"pipelines/{pipeline}")[1])["state"] != "failed":
        assert time.monotonic() - killed_at < 120, state
        time.sleep(0.2)
    noticed_s = time.monotonic() - killed_at
    assert noticed_s < 15, f"noticed {noticed_s:.1f} s after the kill"
    assert state["desired_state"] == "stopped"
    first, *tail = state["error"].splitlines()
    assert first == "Spark runner died" and tail, "with the runner's last log lines"
    logs = stack.pipelines_dir().glob("*/runner.log")
    assert any(p.read_text().rstrip().endswith(tail[-1]) for p in logs), tail[-1]
    events = stack.api("GET", f"pipelines/{pipeline}/events")[1]
    assert [(e["actor"], e["to_state"]) for e in events] == [
        (key_actor(stack), "starting"),
        ("runner", "running"),
        ("monitor", "failed"),
    ]
    assert events[-1]["message"] == state["error"]

    # `fail` means an operator starts it again, not the monitor.
    deadline = time.monotonic() + 3 * 2  # three monitor rounds (WEIR_MONITOR_INTERVAL 2 s)
    while time.monotonic() < deadline:
        assert stack.api("GET", f"pipelines/{pipeline}")[1]["state"] == "failed"
        time.sleep(0.5)
    assert stack.api("POST", f"pipelines/{pipeline}/start")[0] == 202
    stack.wait_for_state(pipeline, "running")
    assert stack.api("POST", f"pipelines/{pipeline}/stop")[0] == 202
    stack.wait_for_state(pipeline, "stopped")
    events = stack.api("GET", f"pipelines/{pipeline}/events")[1]
    mine = [e["to_state"] for e in events if e["actor"] == key_actor(stack)]
    assert mine == ["starting", "starting", "stopping"], "each action names who asked"


def test_a_division_by_zero_fails_the_pipeline_with_the_sql_error_in_one_line(
    stack: LiveStack,
) -> None:
    """A step's SQL error on its data fails the pipeline; its error (API, runner log)
    is the SQL error and the step, not Spark's and Python's stacks."""
    program, pipeline = unique("prog"), unique("pipe")
    sql = "CREATE TABLE t (a INT, b INT);\nCREATE VIEW v AS SELECT a / b AS q FROM t;\n"
    stack.api("POST", "programs", {"name": program, "sql": sql})
    stack.api("POST", "pipelines", {"name": pipeline, "program": program})
    stack.api("POST", f"pipelines/{pipeline}/start")
    stack.wait_for_state(pipeline, "running")
    stack.api("POST", f"pipelines/{pipeline}/ingress/t", [{"a": 6, "b": 3}])
    with stack.websocket(f"/ws/pipelines/{pipeline}/?after_step=0") as ws:
        delta = next_message(ws, "delta")
    assert (delta["step"], delta["changes"]) == (1, [{"insert": {"q": 2}}])
    error = "[DIVIDE_BY_ZERO] Division by zero. SQLSTATE: 22012"
    query = {"sql": "SELECT a / (b - 3) AS r FROM t"}
    status, body = stack.api("POST", f"pipelines/{pipeline}/query", query)
    assert (status, body["code"]) == (400, "query_failed")
    assert body["message"] == f"The query failed: {error}"
    assert stack.api("GET", f"pipelines/{pipeline}")[1]["state"] == "running", "a query's error"

    stack.api("POST", f"pipelines/{pipeline}/ingress/t", [{"a": 1, "b": 0}])
    failed = stack.wait_for_state(pipeline, "failed")
    error = f"step 2 failed: {error}"
    assert failed["error"] == error
    event = stack.wait_for_event(pipeline, actor="runner", to_state="failed")
    assert event["message"] == error
    logs = stack.pipelines_dir().glob("*/runner.log")
    assert any(f"the query failed: {error}" in p.read_text() for p in logs)

    # The way out (docs/operations.md): a program that avoids the error, deployed to
    # the failed pipeline with a reset, runs every accepted input again.
    stack.api("PUT", f"programs/{program}", {"sql": sql.replace("/ b", "/ NULLIF(b, 0)")})
    status, body = stack.api("POST", f"pipelines/{pipeline}/deploy", {"reset_state": True})
    assert status == 200, body
    stack.api("POST", f"pipelines/{pipeline}/start")
    stack.wait_for_state(pipeline, "running")
    stack.wait_for_view(pipeline, "v", lambda rows: rows == {(2,), (None,)})
