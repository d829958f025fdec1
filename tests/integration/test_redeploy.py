"""POST /pipelines/{name}/deploy keeps the state when the new plan only adds; anything else
needs {"reset_state": true} (409 state_reset_required, naming the changes)."""

from tests.integration.test_control_plane import push_step, start, stop, unique
from tests.live import LiveStack

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
