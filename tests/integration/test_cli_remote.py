"""A program deployed from the command line exactly as a CI job does it."""

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

from tests.integration.test_teams import member
from tests.live import LiveStack

PROGRAM = """\
CREATE TABLE readings (sensor VARCHAR NOT NULL, celsius DOUBLE, at TIMESTAMP);
CREATE VIEW hot AS SELECT sensor, celsius FROM readings WHERE celsius > 30;
"""


# The script `pip install` puts beside the interpreter, as a CI job runs it.
WEIR = Path(sys.executable).parent / "weir"


def weir(stack: LiveStack, *args: str, key: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run the installed `weir` as a CI job does: in a directory of its own, with only
    PATH, HOME and the two variables of the job's secrets (none of the server's settings)."""
    home = Path(stack.env["WEIR_STATE_DIR"]) / "ci-job"
    home.mkdir(exist_ok=True)
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(home),
        "WEIR_URL": stack.url,
        "WEIR_API_KEY": stack.api_key if key is None else key,
    }
    return subprocess.run(
        [str(WEIR), *args], env=env, cwd=home, capture_output=True, text=True, timeout=600
    )


def test_deploy_push_status_and_tail_from_the_command_line(
    stack: LiveStack, tmp_path: Path
) -> None:
    name = f"cli-{uuid.uuid4().hex[:6]}"
    broken = tmp_path / "broken.sql"
    broken.write_text(PROGRAM.replace("celsius > 30", "celcius > 30"))
    done = weir(stack, "deploy", str(broken), "--pipeline", name)
    assert done.returncode == 1
    assert f"{broken}:2:" in done.stderr and "SQL202" in done.stderr
    assert stack.api("GET", f"programs/{name}")[0] == 404, "nothing deployed"

    program = tmp_path / "program.sql"
    program.write_text(PROGRAM)
    done = weir(stack, "deploy", str(program), "--pipeline", name, "--start")
    assert done.returncode == 0, done.stderr
    assert f"pipeline {name}: running" in done.stdout

    rows = tmp_path / "rows.csv"
    rows.write_text("sensor,celsius,at\na,31.5,2026-01-01 10:00:00\nb,12,\n")
    done = weir(stack, "push", str(rows), "--pipeline", name, "--table", "readings")
    assert done.returncode == 0, done.stderr
    assert "accepted 2 changes" in done.stdout

    done = weir(stack, "tail", name, "--after-step", "0", "--steps", "1")
    assert done.returncode == 0, done.stderr
    delta = json.loads(done.stdout.splitlines()[0])
    assert (delta["step"], delta["changes"]) == (1, [{"insert": {"sensor": "a", "celsius": 31.5}}])

    done = weir(stack, "query", name, "SELECT sensor, celsius FROM readings ORDER BY sensor")
    assert done.returncode == 0, done.stderr
    assert [json.loads(line) for line in done.stdout.splitlines()] == [
        {"sensor": "a", "celsius": 31.5},
        {"sensor": "b", "celsius": 12.0},
    ]
    done = weir(stack, "stats", name)
    assert done.returncode == 0, done.stderr
    [hot] = json.loads(done.stdout)["views"]
    assert (hot["name"], hot["rows"], hot["inserts_total"], hot["inputs"]) == (
        "hot",
        1,
        1,
        ["readings"],
    )
    done = weir(stack, "push", "--bound", "2026-01-01 11:00:00", "--pipeline", name,
                "--table", "readings")  # fmt: skip
    assert done.returncode == 1 and "no column a rowtime bound moves" in done.stderr

    # A new version that changes a view of a running pipeline needs --reset-state; then
    # it is stopped, moved to the version (every input processed again) and started.
    program.write_text(PROGRAM.replace("> 30", "> 10"))
    done = weir(stack, "deploy", str(program), "--pipeline", name, "--start")
    assert done.returncode == 1
    assert "view hot: query changed" in done.stderr and "--reset-state" in done.stderr
    pipeline = stack.api("GET", f"pipelines/{name}")[1]
    assert (pipeline["state"], pipeline["program_version"]) == ("running", 1), "as it was"
    done = weir(stack, "deploy", str(program), "--pipeline", name, "--start", "--reset-state")
    assert done.returncode == 0, done.stderr
    # Version 2 was saved, then refused for the pipeline; the same text saves no other.
    assert f"program {name}: unchanged, version 2" in done.stdout
    assert f"pipeline {name}: program version 2" in done.stdout
    done = weir(stack, "status", name)
    assert done.returncode == 0 and f"{name}" in done.stdout and "running" in done.stdout
    assert "run 2 " in done.stdout, "the reset started the pipeline's second run"
    ndjson = tmp_path / "more.ndjson"
    ndjson.write_text('{"sensor": "c", "celsius": 15}\n')
    pushed = weir(stack, "push", str(ndjson), "--pipeline", name, "--table", "readings")
    assert pushed.returncode == 0, pushed.stderr
    expected = {("a", 31.5), ("b", 12.0), ("c", 15.0)}
    assert stack.wait_for_view(name, "hot", lambda rows: rows == expected) == expected
    stack.api("POST", f"pipelines/{name}/stop")
    stack.wait_for_state(name, "stopped")


def test_remote_commands_report_refusals(stack: LiveStack) -> None:
    done = weir(stack, "status", "no-such-pipeline")
    assert done.returncode == 1 and "404" in done.stderr
    done = weir(stack, "status", key="")
    assert done.returncode == 2 and "no API key" in done.stderr


def test_deploying_the_same_program_again_saves_nothing_and_restarts_nothing(
    stack: LiveStack, tmp_path: Path
) -> None:
    """CI deploys on every push: most pushes do not change a given program."""
    name = f"cli-{uuid.uuid4().hex[:6]}"
    program = tmp_path / "program.sql"
    program.write_text(PROGRAM)
    done = weir(stack, "deploy", str(program), "--pipeline", name, "--start")
    assert done.returncode == 0, done.stderr
    running = stack.api("GET", f"pipelines/{name}")[1]
    events = stack.api("GET", f"pipelines/{name}/events")[1]

    for args in (["--start"], []):
        done = weir(stack, "deploy", str(program), "--pipeline", name, *args)
        assert done.returncode == 0, (args, done.stderr)
        assert f"program {name}: unchanged, version 1" in done.stdout
        assert "nothing to deploy" in done.stdout and f"pipeline {name}: running" in done.stdout
    assert [v["version"] for v in stack.api("GET", f"programs/{name}/versions")[1]] == [1]
    assert stack.api("GET", f"pipelines/{name}/events")[1] == events, "no stop, no start"
    assert stack.api("GET", f"pipelines/{name}")[1]["runner_pid"] == running["runner_pid"]

    # A stopped pipeline on the same program is started by --start (and only started).
    stack.api("POST", f"pipelines/{name}/stop")
    stack.wait_for_state(name, "stopped")
    done = weir(stack, "deploy", str(program), "--pipeline", name, "--start")
    assert done.returncode == 0, done.stderr
    assert "nothing to deploy" in done.stdout and f"pipeline {name}: running" in done.stdout
    assert [v["version"] for v in stack.api("GET", f"programs/{name}/versions")[1]] == [1]

    # A changed program is a new version, and a running pipeline needs --start to move.
    program.write_text(
        PROGRAM + "CREATE VIEW cold AS SELECT sensor FROM readings WHERE celsius < 0;\n"
    )
    for _ in range(2):  # the second time the text is saved already: still refused
        done = weir(stack, "deploy", str(program), "--pipeline", name)
        assert done.returncode == 1 and "pass --start" in done.stderr
    assert [v["version"] for v in stack.api("GET", f"programs/{name}/versions")[1]] == [1, 2]
    done = weir(stack, "deploy", str(program), "--pipeline", name, "--start")
    assert done.returncode == 0, done.stderr
    assert f"pipeline {name}: program version 2" in done.stdout
    assert f"pipeline {name}: running" in done.stdout
    stack.api("POST", f"pipelines/{name}/stop")
    stack.wait_for_state(name, "stopped")


def test_a_user_in_several_teams_names_the_team_with_team(stack: LiveStack, tmp_path: Path) -> None:
    suffix = uuid.uuid4().hex[:6]
    a, b, name = f"ci-a-{suffix}", f"ci-b-{suffix}", f"cli-{suffix}"
    key = member(stack, a, b)
    program = tmp_path / "program.sql"
    program.write_text(PROGRAM)
    done = weir(stack, "deploy", str(program), "--pipeline", name, key=key)
    assert done.returncode == 1 and f"pass --team (one of: {a}, {b})" in done.stderr
    for team in (a, b):  # one name in each team
        done = weir(stack, "deploy", str(program), "--pipeline", name, "--team", team, key=key)
        assert done.returncode == 0, done.stderr
        assert f"pipeline {name}: created on program version 1" in done.stdout

    for command in (["status", name], ["stats", name], ["tail", name], ["query", name, "SELECT 1"]):
        done = weir(stack, *command, key=key)
        assert done.returncode == 1, command
        assert "team_required" not in done.stdout and f"one of: {a}, {b}" in done.stderr, command
    done = weir(stack, "status", name, "--team", b, key=key)
    assert done.returncode == 0 and b in done.stdout and a not in done.stdout
    done = weir(stack, "status", key=key)
    assert [line.split()[:2] for line in done.stdout.splitlines()] == [[name, a], [name, b]]

    # A new version deployed to one team's program leaves the other's alone.
    program.write_text(PROGRAM + "CREATE VIEW cold AS SELECT sensor FROM readings;\n")
    done = weir(stack, "deploy", str(program), "--pipeline", name, "--team", b, key=key)
    assert done.returncode == 0, done.stderr
    assert f"pipeline {name}: program version 2" in done.stdout
    versions = {
        team: stack.api("GET", f"pipelines/{name}?team={team}", key=key)[1]["program_version"]
        for team in (a, b)
    }
    assert versions == {a: 1, b: 2}
