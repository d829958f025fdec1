"""Runtime configuration, rowtime bounds through the ingress, stats and metrics, on the real
stack. Every wait is on stored state (steps, views), never on time alone."""

import re
import time
import uuid
from pathlib import Path
from typing import Any

from tests.live import LiveStack

PROGRAM = """\
CREATE STREAM clicks (page VARCHAR NOT NULL, ms INT NOT NULL);
CREATE TABLE visits (who VARCHAR NOT NULL, at TIMESTAMP NOT NULL LATENESS INTERVAL '1' HOUR);

CREATE VIEW per_hour AS
SELECT STREAM FLOOR(rowtime TO HOUR) AS hour, COUNT(*) AS clicks
FROM clicks GROUP BY FLOOR(rowtime TO HOUR);

CREATE VIEW slow AS SELECT page, ms FROM clicks WHERE ms > 100;
"""


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def deployed(stack: LiveStack, sql: str = PROGRAM) -> str:
    name = unique("ctl")
    assert stack.api("POST", "programs", {"name": name, "sql": sql})[0] == 201
    assert stack.api("POST", "pipelines", {"name": name, "program": name})[0] == 201
    return name


def start(stack: LiveStack, pipeline: str) -> None:
    assert stack.api("POST", f"pipelines/{pipeline}/start")[0] == 202
    stack.wait_for_state(pipeline, "running")


def stop(stack: LiveStack, pipeline: str) -> None:
    assert stack.api("POST", f"pipelines/{pipeline}/stop")[0] == 202
    stack.wait_for_state(pipeline, "stopped")


def push(stack: LiveStack, pipeline: str, table: str, changes: list[Any]) -> int:
    status, body = stack.api("POST", f"pipelines/{pipeline}/ingress/{table}", changes)
    assert status == 200, body
    return int(body["seq"])


def push_step(stack: LiveStack, pipeline: str, table: str, changes: list[Any]) -> dict[str, Any]:
    """Push changes and wait until a step has processed them; the stats after it."""
    seq = push(stack, pipeline, table, changes)
    deadline = time.monotonic() + 120
    while True:
        stats = stack.api("GET", f"pipelines/{pipeline}/stats")[1]
        if stats["processed_seq"] >= seq:
            return stats  # type: ignore[no-any-return]
        if stats["state"] == "failed":
            raise AssertionError(stack.api("GET", f"pipelines/{pipeline}")[1]["error"])
        assert time.monotonic() < deadline, f"{pipeline} processed up to {stats['processed_seq']}"
        time.sleep(0.2)


def test_runtime_configuration_is_validated_used_and_locked_while_running(
    stack: LiveStack, tmp_path: Path
) -> None:
    pipeline = deployed(stack)
    status, body = stack.api("GET", f"pipelines/{pipeline}")
    assert body["config"] == {
        "spark_master": "local[2]",
        "cores": 2,
        "memory": "1g",
        "trigger_interval_ms": 0,
        "storage_dir": None,
        "connectors": [],
    }
    for bad, key in [
        ({"config": {"coresz": 1}}, "coresz"),
        ({"config": {"memory": "much"}}, "memory"),
        ({"config": {"connectors": [{"view": "nope", "type": "file"}]}}, "connectors[0].view"),
    ]:
        status, body = stack.api("PATCH", f"pipelines/{pipeline}", bad)
        assert (status, body["code"], body["details"]["key"]) == (400, "invalid_config", key)
    status, body = stack.api("PATCH", f"pipelines/{pipeline}", {"colour": "red"})
    assert (status, body["details"]) == (400, {"field": "colour"})

    first_dir = tmp_path / "first"
    update = {
        "config": {"cores": 1, "memory": "768m", "trigger_interval_ms": 50,
                   "storage_dir": str(first_dir)},
        "on_runner_failure": "restart",
    }  # fmt: skip
    status, body = stack.api("PATCH", f"pipelines/{pipeline}", update)
    assert status == 200, body
    assert (body["config"]["cores"], body["config"]["storage_dir"]) == (1, str(first_dir))
    assert body["on_runner_failure"] == "restart"

    start(stack, pipeline)
    status, body = stack.api("PATCH", f"pipelines/{pipeline}", {"config": {"cores": 2}})
    assert (status, body["code"]) == (409, "pipeline_running")
    push(stack, pipeline, "clicks", [{"page": "/a", "ms": 500}])
    stack.wait_for_view(pipeline, "slow", lambda rows: rows == {("/a", 500)})
    assert (first_dir / "checkpoint").is_dir() and (first_dir / "state").is_dir()
    log = stack.pipelines_dir().glob("*/runner.log")
    session = "master=local[2] driver memory=768m partitions=1 trigger=50 milliseconds"
    assert any(session in p.read_text() for p in log)
    stop(stack, pipeline)

    # A new storage_dir takes the checkpoint along: the run goes on, nothing is redone.
    second_dir = tmp_path / "second"
    update = {"config": {"storage_dir": str(second_dir)}}
    assert stack.api("PATCH", f"pipelines/{pipeline}", update)[0] == 200
    assert (second_dir / "checkpoint").is_dir() and not (first_dir / "checkpoint").exists()
    start(stack, pipeline)
    assert push_step(stack, pipeline, "clicks", [{"page": "/b", "ms": 700}])["last_step"] == 2
    deltas = stack.api("GET", f"pipelines/{pipeline}/deltas")[1]
    assert [(d["step"], d["view"]) for d in deltas if d["view"] == "slow"] == [
        (1, "slow"),
        (2, "slow"),
    ]
    stop(stack, pipeline)


def test_rowtime_bounds_close_windows_and_move_waterlines(stack: LiveStack) -> None:
    pipeline = deployed(stack)
    start(stack, pipeline)
    clicks = [
        {"page": "/a", "ms": 1, "rowtime": "2026-01-01 10:05:00"},
        {"page": "/b", "ms": 2, "rowtime": "2026-01-01 10:40:00"},
    ]
    push_step(stack, pipeline, "clicks", clicks)
    assert stack.view_rows(pipeline, "per_hour") == set(), "10:00 is not complete yet"

    status, body = stack.api(
        "POST", f"pipelines/{pipeline}/ingress/clicks/bound", {"bound": "2026-01-01 11:00:00"}
    )
    assert (status, body) == (200, {"accepted": 1, "seq": 3})
    rows = stack.wait_for_view(pipeline, "per_hour", lambda rows: rows)
    assert rows == {("2026-01-01 10:00:00", 2)}, "the bound completed 10:00 without a row"
    assert stack.view_rows(pipeline, "slow") == set()

    push_step(stack, pipeline, "clicks", [{"bound": "2026-01-01T11:00:01", "strict": True}])
    push_step(stack, pipeline, "visits", [{"who": "ada", "at": "2026-01-01 12:00:00"}])
    stats = push_step(stack, pipeline, "visits", [{"bound": "2026-01-01 15:00:00"}])
    waterlines = stats["waterlines"]
    assert waterlines["clicks.rowtime"].startswith("2026-01-01 11:00:01"), waterlines
    assert waterlines["visits.at"] == "2026-01-01 14:00:00", waterlines
    late = [{"who": "bob", "at": "2026-01-01 13:59:00"}, {"who": "cy", "at": "2026-01-01 14:00:00"}]
    assert push_step(stack, pipeline, "visits", late)["late_rows"] == {"visits": 1}
    status, late_rows = stack.api("GET", f"pipelines/{pipeline}/late_rows")
    assert status == 200
    assert late_rows["counts"] == {"visits": 1}
    [logged] = late_rows["logged"]
    assert (logged["relation"], logged["reason"], logged["ordinal"]) == ("visits", "late", 1)
    assert logged["row"]["who"] == "bob" and logged["row"]["at"].startswith("2026-01-01 13:59")

    for path, body, code in [
        ("ingress/clicks/bound", {"bound": "noon"}, "invalid"),
        ("ingress/clicks/bound", {"strict": True}, "invalid"),
        ("ingress/clicks/bound", [1], "invalid"),
        ("ingress/slow/bound", {"bound": "2026-01-01 10:00:00"}, "not_an_input"),
        ("ingress/clicks", [{"bound": "2026-01-01 10:00:00", "strict": 1}], "invalid"),
    ]:
        status, answer = stack.api("POST", f"pipelines/{pipeline}/{path}", body)
        assert (status, answer["code"]) == (400, code), (path, answer)
    stop(stack, pipeline)


def test_stats_metrics_summary_and_prometheus_follow_the_steps(stack: LiveStack) -> None:
    pipeline = deployed(stack)
    status, body = stack.api("GET", f"pipelines/{pipeline}/stats")
    assert status == 200
    assert (body["last_step"], body["lag_rows"], body["state_rows"]) == (0, 0, 0)
    assert body["step_duration_ms"] == {"last": None, "p50": None, "p95": None}
    assert [totals(v) for v in body["views"]] == [
        {"name": "per_hour", "rows": 0, "inserts_total": 0, "deletes_total": 0},
        {"name": "slow", "rows": 0, "inserts_total": 0, "deletes_total": 0},
    ]
    assert [(v["inputs"], v["state_rows"], v["lag_rows"]) for v in body["views"]] == [
        (["clicks"], 0, 0),
        (["clicks"], 0, 0),
    ]
    start(stack, pipeline)
    push_step(stack, pipeline, "clicks", [{"page": "/a", "ms": 500}, {"page": "/b", "ms": 5}])
    push_step(stack, pipeline, "visits", [{"who": "ada", "at": "2026-01-01 12:00:00"}])
    stats = push_step(stack, pipeline, "visits", [{"who": "late", "at": "2026-01-01 10:00:00"}])
    assert stats["last_step"] == 3

    assert stats["pipeline"] == pipeline and stats["state"] == "running"
    assert (stats["ingested_seq"], stats["processed_seq"], stats["lag_rows"]) == (4, 4, 0)
    assert (stats["input_rows_total"], stats["lag_ms"]) == (4, 0.0)
    assert stats["late_rows"] == {"visits": 1} and stats["late_rows_total"] == 1
    per_hour, slow = stats["views"]
    assert totals(slow) == {"name": "slow", "rows": 1, "inserts_total": 1, "deletes_total": 0}
    assert stats["state_rows"] >= 2, "the per_hour aggregate keeps its input"
    # Per view, from what the runner recorded: the state its own operators keep, its
    # inputs' late rows and lag, the step that last brought them changes, waterlines.
    assert per_hour["state_rows"] >= 2 and slow["state_rows"] == 0, "a filter keeps nothing"
    assert per_hour["state_rows"] <= stats["state_rows"]
    assert (per_hour["late_rows"], per_hour["lag_rows"], per_hour["lag_ms"]) == (0, 0, 0.0)
    assert "clicks.rowtime" in slow["waterlines"] and "visits.at" not in slow["waterlines"]
    assert "per_hour.hour" in per_hour["waterlines"], "an emit_final view's own waterline"
    assert per_hour["waterlines"]["per_hour.hour"] == stats["waterlines"]["per_hour.hour"]
    durations = stats["step_duration_ms"]
    assert durations["last"] > 0 and durations["p50"] <= durations["p95"]
    assert stats["processed_rows_per_second"] > 0 and stats["errors"] == 0

    status, series = stack.api("GET", f"pipelines/{pipeline}/metrics")
    assert status == 200
    assert [(s["step"], s["input_rows"], s["late_rows"]) for s in series] == [
        (1, 2, 0),
        (2, 1, 0),
        (3, 1, 1),
    ]
    slow_by_step = [{v["name"]: v for v in s["views"]}["slow"] for s in series]
    assert [v["rows"] for v in slow_by_step] == [1, 1, 1]
    assert slow_by_step[0]["processed_rows_per_second"] > 0, "step 1 brought clicks rows"
    assert [v["step_duration_ms"] for v in slow_by_step[1:]] == [None, None], "only visits"
    assert per_hour["step_duration_ms"] == series[0]["step_duration_ms"], "the last with clicks"
    assert series[0]["lag_rows"] == 0 and series[0]["step_duration_ms"] > 0
    assert stack.api("GET", f"pipelines/{pipeline}/metrics?limit=1")[1][0]["step"] == 3
    since = series[0]["time"].replace("+00:00", "Z")
    later = stack.api("GET", f"pipelines/{pipeline}/metrics?since={since}")[1]
    assert [s["step"] for s in later] == [2, 3]
    for query in ("since=yesterday", "limit=0", "limit=x"):
        status, body = stack.api("GET", f"pipelines/{pipeline}/metrics?{query}")
        assert (status, body["code"]) == (400, "invalid"), query

    listed = {p["name"]: p for p in stack.api("GET", "pipelines")[1]}
    summary = listed[pipeline]["summary"]
    assert (summary["lag_rows"], summary["late_rows"], summary["errors"]) == (0, 1, 0)
    assert summary["last_step_duration_ms"] == durations["last"]
    assert stack.api("GET", f"pipelines/{pipeline}")[1]["summary"] == summary

    reader = stack.manage(
        "weir_user", "tester", "--team", "testers", "--api-key", "stats-ro", "--scope", "read"
    )
    for path in (f"pipelines/{pipeline}/stats", f"pipelines/{pipeline}/metrics", "metrics"):
        assert stack.api("GET", path, key=reader)[0] == 200, path
    bound = {"bound": "2026-01-01 10:00:00"}
    status, body = stack.api(
        "POST", f"pipelines/{pipeline}/ingress/clicks/bound", bound, key=reader
    )
    assert (status, body["code"]) == (403, "permission_denied")

    text = prometheus(stack)  # labelled with the team too: names are unique per team only
    assert f'weir_pipeline_state{{team="testers",pipeline="{pipeline}",state="running"}} 1' in text
    assert f'weir_pipeline_input_rows_total{{team="testers",pipeline="{pipeline}"}} 4' in text
    assert (
        f'weir_pipeline_late_rows_total{{team="testers",pipeline="{pipeline}",relation="visits"}} 1'
        in text
    )
    assert f'weir_view_rows{{team="testers",pipeline="{pipeline}",view="slow"}} 1' in text
    assert f'weir_pipeline_lag_rows{{team="testers",pipeline="{pipeline}"}} 0' in text
    assert f'weir_view_lag_rows{{team="testers",pipeline="{pipeline}",view="per_hour"}} 0' in text
    assert f'weir_pipeline_errors_total{{team="testers",pipeline="{pipeline}"}} 0' in text
    per_hour_state = (
        rf'^weir_view_state_rows{{team="testers",pipeline="{pipeline}",view="per_hour"}} [1-9]'
    )
    assert re.search(per_hour_state, text, re.M)
    # visits.at: 12:00 seen, LATENESS 1 hour: 2026-01-01 11:00:00 UTC in Unix seconds.
    labels = f'team="testers",pipeline="{pipeline}",relation="visits",column="at"'
    waterline = f"weir_pipeline_waterline{{{labels}}}"
    assert f"{waterline} 1767265200.0" in text.splitlines()
    for line in text.splitlines():
        assert line.startswith("#") or re.fullmatch(r"[a-z_]+\{[^}]*\} \S+", line), line
    stop(stack, pipeline)


def totals(view: dict[str, Any]) -> dict[str, Any]:
    return {k: view[k] for k in ("name", "rows", "inserts_total", "deletes_total")}


def prometheus(stack: LiveStack) -> str:
    import urllib.request

    request = urllib.request.Request(
        f"{stack.url}/api/v1/metrics",
        headers={"Authorization": f"Bearer {stack.api_key}", "Accept": "text/plain"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        return response.read().decode()  # type: ignore[no-any-return]
