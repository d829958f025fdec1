"""POST /pipelines/{name}/query: a plain SELECT on the live state, a SELECT STREAM as lines.

Waits are on stored state (a step recorded) or on the next streamed line."""

import time
from typing import Any

import redis

from tests.integration.test_control_plane import deployed, push_step, start, stop
from tests.live import LiveStack

PROGRAM = """\
CREATE TABLE orders (
    id BIGINT NOT NULL PRIMARY KEY, customer VARCHAR NOT NULL, amount INT NOT NULL
);
CREATE TABLE notes (txt VARCHAR);
CREATE STREAM clicks (page VARCHAR NOT NULL, ms INT NOT NULL);
CREATE VIEW big AS SELECT customer, amount FROM orders WHERE amount >= 100;
CREATE LOCAL VIEW shouted AS SELECT UPPER(txt) AS loud FROM notes;
CREATE VIEW counted AS SELECT COUNT(*) AS n FROM shouted;
CREATE TABLE trips (id BIGINT, s TIMESTAMP, e TIMESTAMP, tm TIME);
CREATE VIEW took AS SELECT id, (e - s) HOUR TO MINUTE AS h, tm FROM trips;
"""


def query(stack: LiveStack, pipeline: str, sql: str) -> tuple[int, Any]:
    return stack.api("POST", f"pipelines/{pipeline}/query", {"sql": sql})


def rows(stack: LiveStack, pipeline: str, sql: str) -> list[dict[str, Any]]:
    status, body = query(stack, pipeline, sql)
    assert status == 200, body
    return body["rows"]  # type: ignore[no-any-return]


def test_a_plain_select_sees_tables_and_views_as_they_are_now(stack: LiveStack) -> None:
    pipeline = deployed(stack, PROGRAM)
    status, body = query(stack, pipeline, "SELECT * FROM orders")
    assert (status, body["code"]) == (409, "pipeline_not_running")
    start(stack, pipeline)
    answer = query(stack, pipeline, "SELECT id FROM orders")
    assert answer == (
        200,
        {"step": 0, "columns": [{"name": "id", "type": "BIGINT"}], "rows": [], "truncated": False},
    ), answer
    orders = [
        {"id": 1, "customer": "ada", "amount": 50},
        {"id": 2, "customer": "bob", "amount": 300},
        {"id": 3, "customer": "ada", "amount": 120},
    ]
    push_step(stack, pipeline, "orders", orders)
    push_step(stack, pipeline, "orders", [{"id": 1, "customer": "ada", "amount": 500}])  # upsert
    notes = [{"txt": "hi"}, {"txt": "hi"}, {"txt": None}, {"delete": {"txt": "hi"}}]
    stats = push_step(stack, pipeline, "notes", notes)

    status, body = query(
        stack, pipeline,
        "SELECT customer, SUM(amount) AS total, COUNT(*) AS n FROM orders "
        "GROUP BY customer ORDER BY total DESC",
    )  # fmt: skip
    assert status == 200, body
    assert body["step"] == stats["last_step"] == 3
    assert body["columns"] == [
        {"name": "customer", "type": "VARCHAR"},
        {"name": "total", "type": "BIGINT"},
        {"name": "n", "type": "BIGINT"},
    ]
    assert body["rows"] == [
        {"customer": "ada", "total": 620, "n": 2},
        {"customer": "bob", "total": 300, "n": 1},
    ]
    assert rows(stack, pipeline, "SELECT * FROM big WHERE customer = 'ada' ORDER BY amount;") == [
        {"customer": "ada", "amount": 120},
        {"customer": "ada", "amount": 500},
    ]
    assert rows(stack, pipeline, "SELECT loud FROM shouted ORDER BY loud") == [
        {"loud": None},  # NULLs first in ascending order, as the compiler sorts
        {"loud": "HI"},
    ]
    assert rows(stack, pipeline, "SELECT n FROM counted") == [{"n": 2}]
    # A view's published interval and TIME read back as they are kept (its text is
    # Feldera's: '+0:45', '13:23:44.456').
    trip = {"id": 7, "s": "2026-01-01 08:30:00", "e": "2026-01-01 09:15:00", "tm": "13:23:44.456"}
    push_step(stack, pipeline, "trips", [trip])
    assert rows(stack, pipeline, "SELECT h, tm FROM took") == [{"h": "+0:45", "tm": "13:23:44.456"}]
    assert rows(
        stack, pipeline,
        "SELECT id FROM took WHERE tm = TIME '13:23:44.456' "
        "AND h = CAST('+0:45' AS INTERVAL HOUR TO MINUTE)",
    ) == [{"id": 7}]  # fmt: skip
    joined = rows(
        stack, pipeline,
        "SELECT o.customer, b.amount FROM orders o JOIN big b ON o.customer = b.customer "
        "WHERE o.id = 2",
    )  # fmt: skip
    assert joined == [{"customer": "bob", "amount": 300}]

    assert stack.api("POST", f"pipelines/{pipeline}/pause")[0] == 202
    stack.wait_for_state(pipeline, "paused")
    assert rows(stack, pipeline, "SELECT COUNT(*) AS n FROM notes") == [{"n": 2}]
    assert stack.api("POST", f"pipelines/{pipeline}/resume")[0] == 202
    stack.wait_for_state(pipeline, "running")
    stop(stack, pipeline)


def test_bad_queries_get_clear_refusals(stack: LiveStack) -> None:
    pipeline = deployed(stack, PROGRAM)
    start(stack, pipeline)
    status, body = query(stack, pipeline, "SELECT amout\nFROM orders")
    assert (status, body["code"]) == (400, "query_has_errors")
    (diagnostic,) = body["details"]["diagnostics"]
    assert (diagnostic["start_line_number"], diagnostic["start_column"]) == (1, 8)
    assert diagnostic["snippet"] == "SELECT amout"
    status, body = query(stack, pipeline, "SELECT 1 AS one; CREATE TABLE sneaky (x INT)")
    assert (status, body["code"]) == (400, "query_has_errors")
    status, body = query(
        stack, pipeline,
        "SELECT STREAM FLOOR(rowtime TO HOUR) AS h, COUNT(*) AS n FROM clicks "
        "GROUP BY FLOOR(rowtime TO HOUR)",
    )  # fmt: skip
    assert (status, body["code"]) == (400, "query_not_supported")
    assert "define it in the program" in body["message"]
    for payload in ({"sql": ""}, {"sql": 1}, {"query": "SELECT 1"}, ["SELECT 1"]):
        status, body = stack.api("POST", f"pipelines/{pipeline}/query", payload)
        assert (status, body["code"]) == (400, "invalid"), payload
    assert query(stack, "no-such-pipeline", "SELECT 1 AS one")[0] == 404
    stop(stack, pipeline)


def test_select_stream_tails_each_step_from_now_on(stack: LiveStack) -> None:
    pipeline = deployed(stack, PROGRAM)
    start(stack, pipeline)
    push_step(stack, pipeline, "clicks", [{"page": "/before", "ms": 900}])
    sql = "SELECT STREAM page, ms * 2 AS double FROM clicks WHERE ms > 100"
    with stack.stream(f"pipelines/{pipeline}/query", {"sql": sql}) as lines:
        assert lines.status == 200
        assert lines.response.headers["Content-Type"] == "application/x-ndjson"
        assert lines.next() == {
            "columns": [{"name": "page", "type": "VARCHAR"}, {"name": "double", "type": "INTEGER"}]
        }
        clicks = [{"page": "/a", "ms": 500}, {"page": "/b", "ms": 5}]
        push_step(stack, pipeline, "clicks", clicks)
        assert lines.next() == {"step": 2, "changes": [{"insert": {"page": "/a", "double": 1000}}]}
        push_step(stack, pipeline, "clicks", [{"page": "/c", "ms": 1}])
        assert lines.next() == {"step": 3, "changes": []}
    # The registration goes with the client.
    registrations = redis.Redis.from_url(stack.env["REDIS_URL"])
    deadline = time.monotonic() + 30
    while any(registrations.hlen(key) for key in registrations.scan_iter("weir:streams:*")):
        assert time.monotonic() < deadline, "the stream query is still registered"
        time.sleep(0.2)
    stop(stack, pipeline)
