"""`weir deploy | status | push | tail | query | stats`: the control plane's API from a terminal
or a CI job.

Each command reads the server from `--url` (or WEIR_URL) and the API key from
`--api-key` (or WEIR_API_KEY). Names are unique within a team: a key's user in
several teams says which with `--team` when more than one of them has the name.
Exit status: 0 done, 1 the program has errors or the server refused, 2 usage
errors or an unreachable server.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_USAGE = 2
DEFAULT_URL = "http://127.0.0.1:8000"


class Refused(Exception):
    """The server answered with an error envelope."""

    def __init__(self, status: int, body: Any) -> None:
        message = body.get("message") if isinstance(body, dict) else str(body)
        super().__init__(f"{status}: {message}")
        self.status = status
        self.body = body


class Client:
    def __init__(self, url: str, api_key: str, team: str | None = None) -> None:
        self.url = url.rstrip("/")
        self.api_key = api_key
        self.team = team

    def named(self, path: str, team: str | None = None) -> str:
        """`path` (a route under a program's or pipeline's name) for the team meant: `team`,
        else --team, else none (the server finds the name among all the key's teams)."""
        team = team or self.team
        if team is None:
            return path
        separator = "&" if "?" in path else "?"
        return f"{path}{separator}team={urllib.parse.quote(team)}"

    def call(
        self, method: str, path: str, body: Any = None, *, raw: bytes | None = None,
        content_type: str = "application/json",
    ) -> Any:  # fmt: skip
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        request = urllib.request.Request(
            f"{self.url}/api/v1/{path}",
            data=data,
            method=method,
            headers={"Authorization": f"Bearer {self.api_key}", "Content-Type": content_type},
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as err:
            raw_body = err.read()
            try:
                error_body = json.loads(raw_body)
            except ValueError:
                error_body = raw_body.decode(errors="replace")
            raise Refused(err.code, error_body) from err

    def lines(self, method: str, path: str, body: Any = None) -> Iterator[Any]:
        """A streamed answer (JSON lines) line by line, decoded; a plain JSON answer whole."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            f"{self.url}/api/v1/{path}",
            data=data,
            method=method,
            headers={"Authorization": f"Bearer {self.api_key}", "Content-Type": "application/json"},
        )
        try:
            response = urllib.request.urlopen(request, timeout=None)
        except urllib.error.HTTPError as err:
            raw_body = err.read()
            try:
                error_body = json.loads(raw_body)
            except ValueError:
                error_body = raw_body.decode(errors="replace")
            raise Refused(err.code, error_body) from err
        with response:
            if response.headers.get_content_type() != "application/x-ndjson":
                yield json.loads(response.read() or b"null")
                return
            for line in response:
                if line.strip():
                    yield json.loads(line)

    def exists(self, path: str) -> bool:
        try:
            self.call("GET", path)
        except Refused as refused:
            if refused.status == 404:
                return False
            raise
        return True


def add_remote_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    deploy_cmd = _command(commands, "deploy", "compile and deploy a program to a pipeline")
    deploy_cmd.add_argument("file", help="the program (.sql)")
    deploy_cmd.add_argument("--pipeline", required=True)
    deploy_cmd.add_argument("--program", help="the program's name (default: the pipeline's)")
    deploy_cmd.add_argument("--start", action="store_true", help="start (or restart) it")
    deploy_cmd.add_argument(
        "--reset-state",
        action="store_true",
        help="process every accepted input again when the new plan changes existing views",
    )
    deploy_cmd.set_defaults(handler=partial(run_remote, action=deploy))

    status_cmd = _command(commands, "status", "show pipelines and their states")
    status_cmd.add_argument("pipeline", nargs="?", help="one pipeline (default: all)")
    status_cmd.set_defaults(handler=partial(run_remote, action=status))

    push_cmd = _command(commands, "push", "send rows from a JSON, NDJSON or CSV file to a table")
    push_cmd.add_argument(
        "file", nargs="?", help="rows or changes: .json (an array), .ndjson or .csv"
    )
    push_cmd.add_argument("--pipeline", required=True)
    push_cmd.add_argument("--table", required=True)
    push_cmd.add_argument("--bound", help="send a rowtime bound (a time) instead of a file")
    push_cmd.add_argument("--strict", action="store_true", help="the bound is strict")
    push_cmd.set_defaults(handler=partial(run_remote, action=push))

    tail_cmd = _command(commands, "tail", "follow a pipeline's view changes (JSON lines)")
    tail_cmd.add_argument("pipeline")
    tail_cmd.add_argument("--view", help="only this view (default: all)")
    tail_cmd.add_argument(
        "--after-step", type=int, default=None, help="replay stored steps after N"
    )
    tail_cmd.add_argument(
        "--run",
        type=int,
        default=None,
        help="the run --after-step counts in (default: the current one); of a run that is "
        "over, a reset line comes first, then the current run from its start",
    )
    tail_cmd.add_argument("--steps", type=int, default=None, help="stop after this many steps")
    tail_cmd.set_defaults(handler=partial(run_remote, action=tail_deltas))

    query_cmd = _command(commands, "query", "run a SELECT on a live pipeline (JSON lines)")
    query_cmd.add_argument("pipeline")
    query_cmd.add_argument("sql", help="SELECT ... (rows now) or SELECT STREAM ... (changes)")
    query_cmd.add_argument(
        "--steps", type=int, default=None, help="SELECT STREAM: stop after this many steps"
    )
    query_cmd.set_defaults(handler=partial(run_remote, action=query))

    stats_cmd = _command(commands, "stats", "show a pipeline's progress, lag, rates and views")
    stats_cmd.add_argument("pipeline")
    stats_cmd.set_defaults(handler=partial(run_remote, action=stats))


def _command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], name: str, help_: str
) -> argparse.ArgumentParser:
    parser = commands.add_parser(name, help=help_, description=help_)
    parser.add_argument("--url", default=os.environ.get("WEIR_URL", DEFAULT_URL))
    parser.add_argument("--api-key", default=os.environ.get("WEIR_API_KEY", ""))
    parser.add_argument(
        "--team",
        default=os.environ.get("WEIR_TEAM") or None,
        help="the team whose program or pipeline the name means (or WEIR_TEAM): needed "
        "when the key's user is in several teams",
    )
    return parser


def run_remote(
    args: argparse.Namespace, action: Callable[[Client, argparse.Namespace], int]
) -> int:
    """Run a remote command, turning the server's refusals into messages and exit codes."""
    if not args.api_key:
        print("weir: error: no API key: pass --api-key or set WEIR_API_KEY", file=sys.stderr)
        return EXIT_USAGE
    try:
        return int(action(Client(args.url, args.api_key, args.team), args))
    except Refused as refused:
        print(f"weir: error: {refused}", file=sys.stderr)
        if isinstance(refused.body, dict) and refused.body.get("code") == "team_required":
            teams = (refused.body.get("details") or {}).get("teams") or []
            print(f"weir: pass --team (one of: {', '.join(teams)})", file=sys.stderr)
        return EXIT_REFUSED
    except urllib.error.URLError as err:
        print(f"weir: error: cannot reach {args.url}: {err.reason}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as err:
        print(f"weir: error: {err}", file=sys.stderr)
        return EXIT_USAGE


def _print_diagnostics(filename: str, diagnostics: list[dict[str, Any]]) -> None:
    for d in diagnostics:
        print(
            f"{filename}:{d['start_line_number']}:{d['start_column']}: "
            f"{d['severity']}[{d['code']}]: {d['message']}",
            file=sys.stderr,
        )


def deploy(client: Client, args: argparse.Namespace) -> int:
    """Validate, save a new program version, point the pipeline at it, (re)start it.

    Idempotent, as a CI job running on every push needs: when the program's latest
    version has the same SQL and the same plan (the server's compiler may plan the same
    text differently after an upgrade) and the pipeline runs that version already, no
    version is saved and nothing is restarted; `--start` starts it only if it is stopped.
    """
    sql = Path(args.file).read_text(encoding="utf-8")
    program = args.program or args.pipeline
    checked = client.call("POST", "validate", {"sql": sql})
    _print_diagnostics(args.file, checked["diagnostics"])
    if any(d["severity"] == "error" for d in checked["diagnostics"]):
        print(f"weir: {args.file} has errors; nothing deployed", file=sys.stderr)
        return EXIT_REFUSED
    latest = _latest(client, program)
    if latest is not None and _unchanged(client, latest, sql, checked["plan"]):
        saved = latest
        print(f"program {program}: unchanged, version {saved['version']}")
    elif latest is not None:
        saved = client.call(
            "PUT", client.named(f"programs/{program}", latest["team"]), {"sql": sql}
        )
        print(f"program {program}: version {saved['version']}")
    else:
        body = {"name": program, "sql": sql, **({"team": args.team} if args.team else {})}
        saved = client.call("POST", "programs", body)
        print(f"program {program}: version {saved['version']}")
    # The pipeline runs the program: it is the one of the program's team.
    client.team = saved["team"]
    if not client.exists(client.named(f"pipelines/{args.pipeline}")):
        pipeline = client.call(
            "POST", "pipelines", {"name": args.pipeline, "program": program, "team": client.team}
        )
        print(f"pipeline {args.pipeline}: created on program version {saved['version']}")
    else:
        pipeline = client.call("GET", client.named(f"pipelines/{args.pipeline}"))
        if pipeline["program_version"] == saved["version"] and not args.reset_state:
            print(
                f"pipeline {args.pipeline}: already on program version {saved['version']}; "
                "nothing to deploy"
            )
        else:
            pipeline = _move_to_latest(client, args, pipeline)
            if pipeline is None:
                return EXIT_REFUSED
            print(f"pipeline {args.pipeline}: program version {pipeline['program_version']}")
    if args.start and pipeline["state"] in ("stopped", "failed"):
        client.call("POST", client.named(f"pipelines/{args.pipeline}/start"))
        pipeline = _wait_for(client, args.pipeline, {"running", "failed"})
        if pipeline["state"] == "failed":
            print(f"weir: pipeline failed: {pipeline['error']}", file=sys.stderr)
            return EXIT_REFUSED
    print(f"pipeline {args.pipeline}: {pipeline['state']}")
    return EXIT_OK


def _latest(client: Client, program: str) -> Any:
    """The program's latest version, or None when there is no such program."""
    try:
        return client.call("GET", client.named(f"programs/{program}"))
    except Refused as refused:
        if refused.status == 404:
            return None
        raise


def _unchanged(client: Client, latest: Any, sql: str, plan: Any) -> bool:
    """Does the latest version have this SQL and this plan?"""
    if latest["sql"] != sql:
        return False
    path = f"programs/{latest['name']}/versions/{latest['version']}"
    stored = client.call("GET", client.named(path, latest["team"]))
    return bool(stored["plan"] == plan)


def _move_to_latest(client: Client, args: argparse.Namespace, pipeline: Any) -> Any:
    """Deploy the program's latest version to the pipeline, stopping it first (with
    --start) if it runs; the pipeline after, or None when refused (reported)."""
    stopped_here = False
    if pipeline["state"] not in ("stopped", "failed"):
        if not args.start:
            print(
                f"weir: pipeline {args.pipeline} is {pipeline['state']}: "
                "pass --start to restart it on the new version",
                file=sys.stderr,
            )
            return None
        client.call("POST", client.named(f"pipelines/{args.pipeline}/stop"))
        _wait_for(client, args.pipeline, {"stopped", "failed"})
        stopped_here = True
    try:
        return client.call(
            "POST",
            client.named(f"pipelines/{args.pipeline}/deploy"),
            {"reset_state": args.reset_state},
        )
    except Refused as refused:
        if not isinstance(refused.body, dict) or refused.body.get("code") != (
            "state_reset_required"
        ):
            raise
        for change in refused.body["details"]["changes"]:
            print(f"weir: {args.pipeline}: {change}", file=sys.stderr)
        print(
            f"weir: the new version changes what {args.pipeline}'s state was computed "
            "for: pass --reset-state to process every accepted input again",
            file=sys.stderr,
        )
        if stopped_here:  # leave it as it was found: running its deployed version
            client.call("POST", client.named(f"pipelines/{args.pipeline}/start"))
            _wait_for(client, args.pipeline, {"running", "failed"})
        return None


def _wait_for(client: Client, pipeline: str, states: set[str], timeout: float = 300) -> Any:
    import time

    deadline = time.monotonic() + timeout
    while True:
        body = client.call("GET", client.named(f"pipelines/{pipeline}"))
        if body["state"] in states:
            return body
        if time.monotonic() > deadline:
            raise Refused(408, {"message": f"{pipeline} is still {body['state']}"})
        time.sleep(0.5)


def status(client: Client, args: argparse.Namespace) -> int:
    if args.pipeline:
        rows = [client.call("GET", client.named(f"pipelines/{args.pipeline}"))]
    else:
        rows = [p for p in client.call("GET", "pipelines") if client.team in (None, p["team"])]
    for p in rows:
        error = f"  {p['error'].splitlines()[0]}" if p["error"] else ""
        print(
            f"{p['name']:<24} {p['team']:<16} {p['state']:<9} {p['program']} "
            f"v{p['program_version']}  run {p['run']} step {p['last_step']}{error}"
        )
    return EXIT_OK


def push(client: Client, args: argparse.Namespace) -> int:
    target = f"pipelines/{args.pipeline}/ingress/{urllib.parse.quote(args.table)}"
    if (args.file is None) == (args.bound is None):
        print("weir: error: give a FILE or --bound TIME (one of them)", file=sys.stderr)
        return EXIT_USAGE
    if args.bound is not None:
        answer = client.call(
            "POST", client.named(f"{target}/bound"), {"bound": args.bound, "strict": args.strict}
        )
        print(f"accepted the bound (sequence number {answer['seq']})")
        return EXIT_OK
    path = Path(args.file)
    if path.suffix.lower() == ".csv":
        answer = client.call("POST", client.named(f"{target}?format=csv"), raw=path.read_bytes(),
                             content_type="text/csv")  # fmt: skip
    else:
        text = path.read_text(encoding="utf-8")
        if path.suffix.lower() == ".ndjson":
            changes = [json.loads(line) for line in text.splitlines() if line.strip()]
        else:
            changes = json.loads(text)
        answer = client.call("POST", client.named(target), changes)
    print(f"accepted {answer['accepted']} changes (up to sequence number {answer['seq']})")
    return EXIT_OK


def tail_deltas(client: Client, args: argparse.Namespace) -> int:
    """Print each delta message of the pipeline's websocket as one JSON line, and each
    reset (a deploy with reset_state started a new run, numbered from step 1 again)."""
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    # Which pipeline the name means (404, or 400 team_required, in the error envelope).
    pipeline = client.call("GET", client.named(f"pipelines/{args.pipeline}"))
    url = client.url.replace("http://", "ws://", 1).replace("https://", "wss://", 1)
    params = {"after_step": args.after_step, "run": args.run, "team": pipeline["team"]}
    query = urllib.parse.urlencode({k: v for k, v in params.items() if v is not None})
    headers = {"Authorization": f"Bearer {client.api_key}"}
    steps_seen: set[tuple[int, int]] = set()
    try:
        ws = connect(f"{url}/ws/pipelines/{args.pipeline}/?{query}", additional_headers=headers)
    except InvalidStatus as refused:
        raise Refused(
            refused.response.status_code, {"message": f"no pipeline '{args.pipeline}' for this key"}
        ) from refused
    with ws:
        for raw in ws:
            message = json.loads(raw)
            if message["type"] == "reset":
                print(json.dumps(message), flush=True)
                continue
            if message["type"] != "delta" or (args.view and message["view"] != args.view):
                continue
            print(json.dumps(message), flush=True)
            steps_seen.add((message["run"], message["step"]))
            if args.steps is not None and len(steps_seen) >= args.steps:
                break
    return EXIT_OK


def query(client: Client, args: argparse.Namespace) -> int:
    """Print a plain SELECT's rows, or a SELECT STREAM's columns and steps, as JSON lines."""
    steps = 0
    path = client.named(f"pipelines/{args.pipeline}/query")
    for answer in client.lines("POST", path, {"sql": args.sql}):
        if "rows" in answer:  # a plain SELECT: one answer
            for row in answer["rows"]:
                print(json.dumps(row, ensure_ascii=False))
            if answer.get("truncated"):
                print("weir: more rows than the server answers; add a LIMIT", file=sys.stderr)
            continue
        print(json.dumps(answer, ensure_ascii=False), flush=True)
        if "step" in answer:
            steps += 1
            if args.steps is not None and steps >= args.steps:
                break
    return EXIT_OK


def stats(client: Client, args: argparse.Namespace) -> int:
    print(
        json.dumps(client.call("GET", client.named(f"pipelines/{args.pipeline}/stats")), indent=2)
    )
    return EXIT_OK
