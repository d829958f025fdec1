"""A program deployed from the command line exactly as a CI job does it."""

import json
import subprocess
import sys
import uuid
from pathlib import Path

from tests.live import LiveStack

PROGRAM = """\
CREATE TABLE readings (sensor VARCHAR NOT NULL, celsius DOUBLE, at TIMESTAMP);
CREATE VIEW hot AS SELECT sensor, celsius FROM readings WHERE celsius > 30;
"""


def weir(stack: LiveStack, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**stack.env, "WEIR_URL": stack.url, "WEIR_API_KEY": stack.api_key}
    return subprocess.run(
        [sys.executable, "-m", "backend.cli", *args],
        env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip


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
    assert json.loads(done.stdout)["views"] == [
        {"name": "hot", "rows": 1, "inserts_total": 1, "deletes_total": 0}
    ]
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
    assert f"pipeline {name}: program version 3" in done.stdout  # 2 was refused
    done = weir(stack, "status", name)
    assert done.returncode == 0 and f"{name}" in done.stdout and "running" in done.stdout
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
    env_key = {**stack.env, "WEIR_URL": stack.url, "WEIR_API_KEY": ""}
    done = subprocess.run(
        [sys.executable, "-m", "backend.cli", "status"], env=env_key, capture_output=True, text=True
    )
    assert done.returncode == 2 and "no API key" in done.stderr
