"""GET /pipelines/{name}/egress/{view}: a view's changes as JSON lines, stored then live.

Each read of a line waits on the stream; the test moves on only through stored
state (a step recorded), never through time."""

from tests.integration.test_auth import other_user
from tests.integration.test_control_plane import deployed, push_step, start, stop
from tests.live import LiveStack


def test_egress_sends_a_snapshot_then_each_changing_step_once_in_order(stack: LiveStack) -> None:
    pipeline = deployed(stack)
    start(stack, pipeline)
    push_step(stack, pipeline, "clicks", [{"page": "/a", "ms": 500}, {"page": "/z", "ms": 1}])

    with stack.stream(f"pipelines/{pipeline}/egress/slow?snapshot=true") as lines:
        assert lines.status == 200
        assert lines.response.headers["Content-Type"] == "application/x-ndjson"
        assert lines.next() == {
            "snapshot": True,
            "run": 1,
            "step": 1,
            "rows": [{"page": "/a", "ms": 500}],
        }
        push_step(stack, pipeline, "clicks", [{"page": "/b", "ms": 700}])
        assert lines.next() == {
            "run": 1,
            "step": 2,
            "changes": [{"insert": {"page": "/b", "ms": 700}}],
        }
        push_step(stack, pipeline, "clicks", [{"page": "/quick", "ms": 2}])  # step 3: no change
        push_step(stack, pipeline, "clicks", [{"page": "/c", "ms": 900}])
        assert lines.next() == {
            "run": 1,
            "step": 4,
            "changes": [{"insert": {"page": "/c", "ms": 900}}],
        }

    with stack.stream(f"pipelines/{pipeline}/egress/SLOW?from=1") as lines:
        assert [lines.next()["step"], lines.next()["step"]] == [2, 4], "stored, in order"
        push_step(stack, pipeline, "clicks", [{"page": "/d", "ms": 101}])
        assert lines.next() == {
            "run": 1,
            "step": 5,
            "changes": [{"insert": {"page": "/d", "ms": 101}}],
        }

    with stack.stream(f"pipelines/{pipeline}/egress/slow?from=0&snapshot=true") as lines:
        assert lines.next() == {"snapshot": True, "run": 1, "step": 0, "rows": []}
        assert [lines.next()["step"] for _ in range(4)] == [1, 2, 4, 5]
    stop(stack, pipeline)


def test_egress_refuses_bad_requests_and_other_teams(stack: LiveStack) -> None:
    pipeline = deployed(stack)
    for query, status, code in [
        ("slow?from=1", 400, "invalid"),  # no step 1 yet
        ("slow?from=later", 400, "invalid"),
        ("slow?snapshot=maybe", 400, "invalid"),
        ("slow?run=0", 400, "invalid"),
        ("slow?run=2&from=later", 400, "invalid"),
        ("nope", 404, "not_found"),
        ("clicks", 404, "not_found"),
    ]:
        with stack.stream(f"pipelines/{pipeline}/egress/{query}") as lines:
            assert (lines.status, lines.body()["code"]) == (status, code), query
    with stack.stream(f"pipelines/{pipeline}/egress/slow", key=other_user(stack)) as lines:
        assert lines.status == 404
    with stack.stream(f"pipelines/{pipeline}/egress/slow", key=None) as lines:
        assert lines.status == 401
    reader = other_user_in_team(stack)
    with stack.stream(f"pipelines/{pipeline}/egress/slow?snapshot=true", key=reader) as lines:
        assert lines.next() == {"snapshot": True, "run": 1, "step": 0, "rows": []}


def other_user_in_team(stack: LiveStack) -> str:
    """A read-scoped key of the test user's team."""
    return stack.manage("weir_user", "egress-reader", "--team", "testers", "--api-key", "ro",
                        "--scope", "read")  # fmt: skip
