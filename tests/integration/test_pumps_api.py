"""Pumps one by one through the API, on the real stack: listed with their state,
paused (input held, nothing lost), resumed, stopped (input ignored) and started."""

from typing import Any

from tests.integration.test_pipeline_path import unique
from tests.live import LiveStack

PROGRAM = """\
CREATE STREAM trades (ticker VARCHAR NOT NULL, shares INT NOT NULL);
CREATE STREAM big_trades (ticker VARCHAR NOT NULL, shares INT NOT NULL);
CREATE PUMP big_pump AS
    INSERT INTO big_trades SELECT STREAM rowtime, ticker, shares FROM trades WHERE shares >= 100;
CREATE VIEW big AS SELECT STREAM ticker FROM big_trades;
"""


def push(stack: LiveStack, pipeline: str, minute: int, ticker: str) -> None:
    """Ingest one trade and wait until the runner has made it a step."""
    before = stack.api("GET", f"pipelines/{pipeline}")[1]["last_step"]
    row = {"rowtime": f"2026-01-01 10:{minute:02d}:00", "ticker": ticker, "shares": 500}
    assert stack.api("POST", f"pipelines/{pipeline}/ingress/trades", [row])[0] == 200
    stack.wait_for(lambda: stack.api("GET", f"pipelines/{pipeline}")[1]["last_step"] > before)


def tickers(stack: LiveStack, pipeline: str) -> set[str]:
    return {row[0] for row in stack.view_rows(pipeline, "big")}


def act(stack: LiveStack, pipeline: str, action: str) -> tuple[int, Any]:
    return stack.api("POST", f"pipelines/{pipeline}/pumps/big_pump/{action}")


def test_pumps_are_listed_paused_resumed_stopped_and_started(stack: LiveStack) -> None:
    program, pipeline = unique("prog"), unique("pipe")
    assert stack.api("POST", "programs", {"name": program, "sql": PROGRAM})[0] == 201
    assert stack.api("POST", "pipelines", {"name": pipeline, "program": program})[0] == 201
    status, listed = stack.api("GET", f"pipelines/{pipeline}/pumps")
    assert (status, listed) == (
        200,
        [
            {
                "name": "big_pump",
                "target": "big_trades",
                "sources": ["trades"],
                "state": "running",
                "processed_rows": 0,
            }
        ],
    )
    stack.api("POST", f"pipelines/{pipeline}/start")
    stack.wait_for_state(pipeline, "running")
    push(stack, pipeline, 0, "A")
    assert tickers(stack, pipeline) == {"A"}

    status, pump = act(stack, pipeline, "pause")
    assert (status, pump["state"]) == (202, "paused")
    assert act(stack, pipeline, "pause")[1]["code"] == "conflict"
    push(stack, pipeline, 1, "B")
    assert tickers(stack, pipeline) == {"A"}  # held, not lost
    assert act(stack, pipeline, "resume")[0] == 202
    push(stack, pipeline, 2, "C")
    assert tickers(stack, pipeline) == {"A", "B", "C"}

    assert act(stack, pipeline, "stop")[1]["state"] == "stopped"
    push(stack, pipeline, 3, "D")
    assert act(stack, pipeline, "start")[1]["state"] == "running"
    push(stack, pipeline, 4, "E")
    assert tickers(stack, pipeline) == {"A", "B", "C", "E"}  # D arrived while stopped

    (pump,) = stack.api("GET", f"pipelines/{pipeline}/pumps")[1]
    assert (pump["state"], pump["processed_rows"]) == ("running", 4)
    messages = [e["message"] for e in stack.api("GET", f"pipelines/{pipeline}/events")[1]]
    assert "pump big_pump: running -> paused" in messages
    assert "pump big_pump: paused -> running" in messages
    assert stack.api("POST", f"pipelines/{pipeline}/pumps/nope/pause")[0] == 404
    stack.api("POST", f"pipelines/{pipeline}/stop")
    stack.wait_for_state(pipeline, "stopped")
