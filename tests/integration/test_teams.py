"""Names are unique within a team: two teams may both have a program and a pipeline named
alike, neither learns of the other's, and a user in both says which one with ?team=."""

import json
import urllib.request
import uuid
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus

from tests.integration.test_auth import PROGRAM
from tests.live import LiveStack, next_message


def member(stack: LiveStack, *teams: str) -> str:
    """A write key of a new user in each of `teams`."""
    user = f"user-{uuid.uuid4().hex[:6]}"
    for team in teams[:-1]:
        stack.manage("weir_user", user, "--team", team)
    return stack.manage("weir_user", user, "--team", teams[-1], "--api-key", "k")


@pytest.fixture(scope="module")
def teams(stack: LiveStack) -> dict[str, Any]:
    """Teams a and b, each with a program and a pipeline named `name`; keys of a member of
    a, of b, and of a user in both."""
    suffix = uuid.uuid4().hex[:6]
    a, b, name = f"a-{suffix}", f"b-{suffix}", f"shared-{suffix}"
    key_a, key_b, key_both = member(stack, a), member(stack, b), member(stack, a, b)
    for key, sql in ((key_a, PROGRAM), (key_b, PROGRAM.replace("x FROM t", "x * 2 AS y FROM t"))):
        status, body = stack.api("POST", "programs", {"name": name, "sql": sql}, key=key)
        assert status == 201, body
        status, body = stack.api("POST", "pipelines", {"name": name, "program": name}, key=key)
        assert status == 201, body
    return {"a": a, "b": b, "name": name, "key_a": key_a, "key_b": key_b, "both": key_both}


def test_two_teams_each_have_their_own_object_of_one_name(
    stack: LiveStack, teams: dict[str, Any]
) -> None:
    name = teams["name"]
    for team in ("a", "b"):
        key = teams[f"key_{team}"]
        status, pipeline = stack.api("GET", f"pipelines/{name}", key=key)
        assert (status, pipeline["team"]) == (200, teams[team])
        assert [p["team"] for p in stack.api("GET", "pipelines", key=key)[1]] == [teams[team]]
        status, program = stack.api("GET", f"programs/{name}", key=key)
        assert (status, program["team"]) == (200, teams[team])
    assert "* 2" in stack.api("GET", f"programs/{name}", key=teams["key_b"])[1]["sql"]
    assert "* 2" not in stack.api("GET", f"programs/{name}", key=teams["key_a"])[1]["sql"]

    # Within a team a name is still taken once; the answer names only the caller's team.
    status, body = stack.api("POST", "programs", {"name": name, "sql": PROGRAM}, key=teams["key_a"])
    assert (status, body["code"]) == (409, "conflict")
    assert teams["a"] in body["message"] and teams["b"] not in body["message"]
    status, body = stack.api(
        "POST", "pipelines", {"name": name, "program": name}, key=teams["key_b"]
    )
    assert (status, body["code"]) == (409, "conflict") and teams["a"] not in body["message"]

    # Another team's name asked for as yours is not found, never "ambiguous".
    status, body = stack.api("GET", f"pipelines/{name}?team={teams['b']}", key=teams["key_a"])
    assert (status, body["code"]) == (404, "not_found")


def test_a_user_in_both_teams_says_which_one(stack: LiveStack, teams: dict[str, Any]) -> None:
    name, both = teams["name"], teams["both"]
    listed = [(p["name"], p["team"]) for p in stack.api("GET", "pipelines", key=both)[1]]
    assert listed == [(name, teams["a"]), (name, teams["b"])]
    expected_teams = sorted([teams["a"], teams["b"]])
    for path in (
        f"pipelines/{name}",
        f"pipelines/{name}/events",
        f"pipelines/{name}/stats",
        f"programs/{name}",
        f"programs/{name}/versions/1",
    ):
        status, body = stack.api("GET", path, key=both)
        assert (status, body["code"]) == (400, "team_required"), path
        assert body["details"] == {"teams": expected_teams}, path
    status, body = stack.api("POST", f"pipelines/{name}/ingress/t", [{"x": 1}], key=both)
    assert (status, body["code"]) == (400, "team_required")

    for team in ("a", "b"):
        status, pipeline = stack.api("GET", f"pipelines/{name}?team={teams[team]}", key=both)
        assert (status, pipeline["team"]) == (200, teams[team])
        status, stats = stack.api("GET", f"pipelines/{name}/stats?team={teams[team]}", key=both)
        assert (status, stats["team"]) == (200, teams[team])
    status, program = stack.api("GET", f"programs/{name}?team={teams['b']}", key=both)
    assert "* 2" in program["sql"]
    status, body = stack.api("GET", f"pipelines/{name}?team=nobodys", key=both)
    assert (status, body["code"]) == (404, "not_found")

    # Changing one changes that one only.
    status, _ = stack.api(
        "PATCH", f"pipelines/{name}?team={teams['b']}", {"config": {"cores": 1}}, key=both
    )
    assert status == 200
    assert stack.api("GET", f"pipelines/{name}", key=teams["key_b"])[1]["config"]["cores"] == 1
    assert stack.api("GET", f"pipelines/{name}", key=teams["key_a"])[1]["config"]["cores"] == 2
    status, version = stack.api(
        "PUT", f"programs/{name}?team={teams['a']}", {"sql": PROGRAM + "\n"}, key=both
    )
    assert (status, version["version"], version["team"]) == (200, 2, teams["a"])
    assert stack.api("GET", f"programs/{name}", key=teams["key_b"])[1]["version"] == 1


def test_creating_in_one_of_several_teams_names_it(stack: LiveStack, teams: dict[str, Any]) -> None:
    both, name = teams["both"], teams["name"]
    other = f"{name}-new"
    status, body = stack.api("POST", "programs", {"name": other, "sql": PROGRAM}, key=both)
    assert (status, body["code"]) == (400, "team_required")
    status, body = stack.api(
        "POST", "programs", {"name": other, "sql": PROGRAM, "team": teams["b"]}, key=both
    )
    assert (status, body["team"]) == (201, teams["b"])
    # A pipeline goes to its program's team: an unambiguous program says which.
    status, body = stack.api("POST", "pipelines", {"name": other, "program": other}, key=both)
    assert (status, body["team"]) == (201, teams["b"])
    status, body = stack.api("POST", "pipelines", {"name": "p2", "program": name}, key=both)
    assert (status, body["code"], body["details"]["teams"]) == (
        400,
        "team_required",
        sorted([teams["a"], teams["b"]]),
    )
    status, body = stack.api(
        "POST", "pipelines", {"name": f"{name}-p2", "program": name, "team": teams["a"]}, key=both
    )
    assert (status, body["team"], body["program"]) == (201, teams["a"], name)


def test_websockets_and_egress_follow_the_pipeline_of_the_team_named(
    stack: LiveStack, teams: dict[str, Any]
) -> None:
    name, both = teams["name"], teams["both"]
    with stack.websocket(f"/ws/pipelines/{name}/", key=both) as ws:
        error = json.loads(ws.recv(timeout=30))
        assert (error["type"], error["code"], error["details"]) == (
            "error",
            "team_required",
            {"teams": sorted([teams["a"], teams["b"]])},
        )
    with pytest.raises(InvalidStatus):  # another team's name is not found
        stack.websocket(f"/ws/pipelines/{name}/?team={teams['b']}", key=teams["key_a"])
    with stack.stream(f"pipelines/{name}/egress/v", key=both) as lines:
        assert (lines.status, lines.body()["code"]) == (400, "team_required")
    with stack.stream(f"pipelines/{name}/egress/v?team={teams['a']}&snapshot=true",
                      key=both) as lines:  # fmt: skip
        assert lines.next() == {"snapshot": True, "run": 1, "step": 0, "rows": []}

    # Each socket hears its own pipeline only, though the two have one name.
    with (
        stack.websocket(f"/ws/pipelines/{name}/?team={teams['a']}", key=both) as ws_a,
        stack.websocket(f"/ws/pipelines/{name}/", key=teams["key_b"]) as ws_b,
    ):
        assert next_message(ws_a, "state")["state"] == "stopped"
        assert next_message(ws_b, "state")["state"] == "stopped"
        for team, trigger in (("a", 3), ("b", 4)):
            status, _ = stack.api(
                "PATCH",
                f"pipelines/{name}",
                {"config": {"cores": trigger}},
                key=teams[f"key_{team}"],
            )
            assert status == 200
        assert "cores" in next_message(ws_a, "event", timeout=30)["message"]
        assert "cores" in next_message(ws_b, "event", timeout=30)["message"]
        for ws in (ws_a, ws_b):  # the other team's change did not come here
            with pytest.raises(TimeoutError):
                next_message(ws, "event", timeout=2)


def test_prometheus_keeps_pipelines_of_one_name_apart(
    stack: LiveStack, teams: dict[str, Any]
) -> None:
    request = urllib.request.Request(
        f"{stack.url}/api/v1/metrics", headers={"Authorization": f"Bearer {teams['both']}"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        text = response.read().decode()
    name = teams["name"]
    states = [
        line
        for line in text.splitlines()
        if line.startswith("weir_pipeline_state{") and f'pipeline="{name}",' in line
    ]
    assert sorted(states) == [
        f'weir_pipeline_state{{team="{teams[t]}",pipeline="{name}",state="stopped"}} 1'
        for t in ("a", "b")
    ]
