"""Operating pipelines in the browser: pause, resume and stop; runtime settings; deploying a
new version (and starting over when it needs a reset); a failed pipeline; pumps; the charts;
the dashboard's figures, row actions and bulk actions."""

import json
import re
import uuid
from typing import Any

from playwright.sync_api import Locator, Page, expect

from tests.e2e.conftest import (
    ORDERS_PROGRAM,
    START_TIMEOUT_MS,
    STEP_TIMEOUT_MS,
    order,
    screenshots,
    send_rows,
    sign_in,
)
from tests.live import PASSWORD, USER, LiveStack

PROGRAM = (
    ORDERS_PROGRAM
    + """
CREATE VIEW totals AS
SELECT customer, SUM(amount) AS total
FROM orders
GROUP BY customer;

CREATE STREAM trades (ticker VARCHAR, shares INT);
CREATE STREAM big_trades (ticker VARCHAR, shares INT);
CREATE PUMP big_pump AS
    INSERT INTO big_trades SELECT STREAM rowtime, ticker, shares FROM trades WHERE shares > 100;
CREATE VIEW big AS SELECT STREAM ticker, shares FROM big_trades;
"""
)
# v2 only adds a view: the state is kept, the new view is filled from what is there.
ADDED_VIEW = "\nCREATE VIEW small_orders AS SELECT id, amount FROM orders WHERE amount < 100;\n"


def _pipeline(stack: LiveStack, *, suffix: str = "") -> str:
    name = f"e2e-op-{uuid.uuid4().hex[:8]}{suffix}"
    assert stack.api("POST", "programs", {"name": name, "sql": PROGRAM})[0] == 201
    status, body = stack.api("POST", "pipelines", {"name": name, "program": name})
    assert status == 201, body
    return name


def _started(stack: LiveStack, name: str) -> None:
    assert stack.api("POST", f"pipelines/{name}/start")[0] == 202
    stack.wait_for_state(name, "running")


def _pipeline_of(stack: LiveStack, name: str) -> dict[str, Any]:
    status, body = stack.api("GET", f"pipelines/{name}")
    assert status == 200, body
    return body  # type: ignore[no-any-return]


def _push(stack: LiveStack, name: str, table: str, rows: list[dict[str, Any]]) -> None:
    """Ingest rows through the API and wait until the runner has processed them."""
    assert stack.api("POST", f"pipelines/{name}/ingress/{table}", rows)[0] == 200
    stack.wait_for(
        lambda: _pipeline_of(stack, name)["summary"]["lag_rows"] == 0,
        STEP_TIMEOUT_MS / 1000,
        lambda: f"{name} did not process its input",
    )


def _buttons(page: Page) -> dict[str, Locator]:
    return {action: page.get_by_test_id(action) for action in ("start", "pause", "resume", "stop")}


def _expect_enabled(page: Page, *enabled: str) -> None:
    for action, button in _buttons(page).items():
        if action in enabled:
            expect(button).to_be_enabled()
        else:
            expect(button).to_be_disabled()


def _view(page: Page, view: str) -> Locator:
    return page.locator(f"[data-testid=view-changes][data-view={view}]")


def _cell(change: Locator, column: str) -> Locator:
    """The value of `column` in a change row."""
    return change.locator(f".cell[title^='{column}: '] .cell-value")


def _retype(page: Page, line: str, word: str, new: str) -> None:
    """Double-click `word` on the editor line that shows `line`, and type `new` over it."""
    editor_line = page.get_by_test_id("editor").locator(".view-line", has_text=line)
    editor_line.locator("span", has_text=re.compile(f"^{re.escape(word)}$")).dblclick()
    page.keyboard.type(new)
    expect(page.get_by_test_id("editor")).to_contain_text(line.replace(word, new))


def test_pause_resume_stop_settings_deploy_and_reset_state(stack: LiveStack, page: Page) -> None:
    name = _pipeline(stack)
    sign_in(page, f"{stack.url}/pipelines/{name}", USER, PASSWORD)
    expect(page.get_by_test_id("editor")).to_contain_text("large_orders", timeout=30_000)
    state = page.get_by_test_id("pipeline-state")
    expect(state).to_have_text("stopped")
    _expect_enabled(page, "start")

    # Runtime settings: the page refuses a malformed value, the server one it cannot run
    # (saying which key), and a good one is saved and used by the next start.
    page.get_by_test_id("config-toggle").click()
    status = page.get_by_test_id("config-status")
    page.get_by_test_id("config-cores").fill("two")
    page.get_by_test_id("config-save").click()
    expect(status).to_have_text("Cores must be a whole number of at least 1.")
    page.get_by_test_id("config-cores").fill("2")
    page.get_by_test_id("config-spark_master").fill("nowhere")
    page.get_by_test_id("config-save").click()
    expect(status).to_contain_text("config.spark_master: expected local")
    page.get_by_test_id("config-spark_master").fill("local[2]")
    page.get_by_test_id("config-trigger_interval_ms").fill("100")
    page.get_by_test_id("config-save").click()
    expect(status).to_have_text("Saved.")
    assert _pipeline_of(stack, name)["config"]["trigger_interval_ms"] == 100
    screenshots(page, "14-runtime-settings")

    # Start; the settings lock while it runs.
    page.get_by_test_id("start").click()
    expect(state).to_have_text("running", timeout=START_TIMEOUT_MS)
    _expect_enabled(page, "pause", "stop")
    expect(page.get_by_test_id("config-trigger_interval_ms")).to_be_disabled()
    expect(status).to_have_text("Stop the pipeline to change them.")
    send_rows(page, json.dumps([order(1, 250, 0), order(3, 5, 2)]), 2)
    large = _view(page, "large_orders").get_by_test_id("change-row")
    expect(large).to_have_count(1, timeout=STEP_TIMEOUT_MS)

    # Pause: input accepted meanwhile waits (as lag) and is processed after Resume.
    page.get_by_test_id("pause").click()
    expect(state).to_have_text("paused", timeout=START_TIMEOUT_MS)
    _expect_enabled(page, "resume", "stop")
    send_rows(page, json.dumps([order(2, 300, 1)]), 1)
    assert _pipeline_of(stack, name)["summary"]["lag_rows"] == 1
    expect(large).to_have_count(1)
    screenshots(page, "15-paused")
    page.get_by_test_id("resume").click()
    expect(state).to_have_text("running", timeout=START_TIMEOUT_MS)
    expect(large).to_have_count(2, timeout=STEP_TIMEOUT_MS)
    expect(large.first).to_contain_text("c2")

    # Stop: the editor is editable again.
    page.get_by_test_id("stop").click()
    expect(state).to_have_text("stopped", timeout=START_TIMEOUT_MS)
    _expect_enabled(page, "start")
    expect(page.get_by_test_id("read-only-note")).to_have_count(0)
    transitions = [(e["from_state"], e["to_state"], e["actor"]) for e in _events(stack, name)]
    for step in (("running", "pausing"), ("paused", "resuming"), ("running", "stopping")):
        assert (*step, USER) in transitions, transitions

    # A version that only adds a view deploys from the run panel and keeps the state: the
    # new view is filled from the orders already there at the next start.
    editor = page.get_by_test_id("editor")
    editor.locator(".view-lines").click()
    page.keyboard.press("Control+End")
    page.keyboard.insert_text(ADDED_VIEW)
    expect(page.get_by_test_id("problems-summary")).to_have_text("No problems")
    page.keyboard.press("Control+s")
    expect(page.get_by_test_id("save-result")).to_have_text("Saved as version 2")
    assert stack.api("GET", f"programs/{name}")[1]["status"] == "ok"
    deploy = page.get_by_test_id("deploy")
    expect(deploy).to_have_text("Deploy v2")
    deploy.click()
    expect(page.get_by_test_id("running-version")).to_have_text("v2")
    expect(page.get_by_test_id("stale-version")).to_have_count(0)
    assert _pipeline_of(stack, name)["program_version"] == 2
    page.get_by_test_id("start").click()
    expect(state).to_have_text("running", timeout=START_TIMEOUT_MS)
    small = _view(page, "small_orders").get_by_test_id("change-row")
    expect(small).to_have_count(1, timeout=STEP_TIMEOUT_MS)
    expect(_cell(small.first, "id")).to_have_text("3")
    expect(large).to_have_count(2)  # the old view kept its state: nothing again
    page.get_by_test_id("stop").click()
    expect(state).to_have_text("stopped", timeout=START_TIMEOUT_MS)

    # A version that changes a view's query is refused as it stands: the panel names the
    # change and offers to start over, asking once more.
    _retype(page, "WHERE amount >= 100", "100", "280")
    page.keyboard.press("Control+s")
    expect(page.get_by_test_id("save-result")).to_have_text("Saved as version 3")
    assert stack.api("GET", f"programs/{name}")[1]["status"] == "ok"
    deploy.click()
    refused = page.get_by_test_id("deploy-refused")
    expect(refused).to_contain_text("v3 changes what this pipeline's state was computed for")
    expect(refused.get_by_test_id("deploy-changes")).to_contain_text("view large_orders:")
    expect(page.get_by_test_id("action-error")).to_have_count(0)
    expect(page.get_by_test_id("running-version")).to_have_text("v2")
    assert _pipeline_of(stack, name)["program_version"] == 2
    expect(page.get_by_test_id("deploy-reset-confirm")).to_have_count(0)
    page.get_by_test_id("deploy-reset").click()
    expect(page.get_by_test_id("deploy-reset-ask")).to_contain_text(
        "processes every input it has accepted again"
    )
    screenshots(page, "16-deploy-reset")
    page.get_by_test_id("deploy-reset-confirm").click()
    expect(refused).to_have_count(0)
    expect(page.get_by_test_id("running-version")).to_have_text("v3")
    expect(page.get_by_test_id("last-step")).to_have_text("0")
    after = _pipeline_of(stack, name)
    assert (after["program_version"], after["last_step"]) == (3, 0)
    assert any("state reset" in e["message"] for e in _events(stack, name))

    # The run starts over: every accepted order is processed again, by the new query. The
    # change list shows the new run's steps (numbered from 1 again), not the old run's rows.
    expect(large).to_have_count(0)
    page.get_by_test_id("start").click()
    expect(state).to_have_text("running", timeout=START_TIMEOUT_MS)
    expect(large).to_have_count(1, timeout=STEP_TIMEOUT_MS)
    expect(_cell(large.first, "id")).to_have_text("2")
    expect(large.first).to_have_attribute("data-step", "1")
    screenshots(page, "17-after-reset")
    page.get_by_test_id("stop").click()
    expect(state).to_have_text("stopped", timeout=START_TIMEOUT_MS)


def _events(stack: LiveStack, name: str) -> list[dict[str, Any]]:
    status, events = stack.api("GET", f"pipelines/{name}/events")
    assert status == 200, events
    return events  # type: ignore[no-any-return]


def test_a_failed_pipeline_shows_its_error_and_failures_alone(stack: LiveStack, page: Page) -> None:
    # A driver heap of one kilobyte: the JVM cannot start, so the runner exits at once.
    name = _pipeline(stack)
    assert stack.api("PATCH", f"pipelines/{name}", {"config": {"memory": "1k"}})[0] == 200
    sign_in(page, f"{stack.url}/pipelines/{name}", USER, PASSWORD)
    page.get_by_test_id("start").click()
    expect(page.get_by_test_id("pipeline-state")).to_have_text("failed", timeout=START_TIMEOUT_MS)
    error = page.get_by_test_id("pipeline-error")
    expect(error.locator("p")).to_have_text("Spark runner exited unexpectedly")
    # The runner's log stays folded, so the run controls and the ingest box stay in view.
    log = error.locator("pre")
    expect(log).to_be_hidden()
    expect(page.get_by_test_id("ingest-send")).to_be_in_viewport()
    _expect_enabled(page, "start")
    error.locator("summary").click()
    expect(log).to_be_visible()
    expect(log).not_to_be_empty()

    # Events: the failure on top and marked; "Failures only" leaves just it.
    expect(page.get_by_test_id("tab-events")).to_contain_text("!")
    page.get_by_test_id("tab-events").click()
    expect(page.get_by_test_id("events-error")).to_contain_text("Spark runner exited unexpectedly")
    events = page.get_by_test_id("event")
    expect(page.locator("[data-testid=event][data-to=failed]")).to_have_count(1)
    expect(page.locator("[data-testid=event][data-to=starting]")).to_have_count(1)
    page.get_by_test_id("errors-only").check()
    expect(events).to_have_count(1)
    expect(events.first).to_have_attribute("data-to", "failed")
    expect(events.first).to_contain_text("Spark runner exited unexpectedly")
    screenshots(page, "18-failed-events")
    page.get_by_test_id("errors-only").uncheck()
    expect(page.locator("[data-testid=event][data-to=starting]")).to_have_count(1)

    # The dashboard puts it first, with its error and the failure counted.
    page.get_by_role("link", name="Pipelines").click()
    row = page.locator(f"[data-testid=pipeline-row][data-name='{name}']")
    expect(row.get_by_test_id("row-state")).to_have_text("failed")
    expect(row.get_by_test_id("row-error")).to_have_text("Spark runner exited unexpectedly")
    expect(row.get_by_test_id("row-errors")).to_have_text("1")
    # Failed pipelines come first (another test's may be there too, on a shared stack).
    rows = page.get_by_test_id("pipeline-row")
    names = [rows.nth(i).get_attribute("data-name") for i in range(rows.count())]
    states = [s.strip() for s in rows.get_by_test_id("row-state").all_inner_texts()]
    healthy = [i for i, state in enumerate(states) if state != "failed"]
    assert not healthy or names.index(name) < healthy[0], list(zip(names, states, strict=True))


# Each chart, and a series it must draw.
CHARTS = (
    ("chart-rows", "input"),
    ("chart-rows", "processed"),
    ("chart-step", "step"),
    ("chart-state", "rows"),
    ("chart-waterlines", "orders.placed_at"),
)
# An SVG path through at least three points: M x,y L x,y L x,y ...
THREE_POINTS = re.compile(r"^M[\d.]+,[\d.]+(L[\d.]+,[\d.]+){2,}$")


def test_pumps_charts_and_dashboard_actions(stack: LiveStack, page: Page) -> None:
    name = _pipeline(stack)
    idle = _pipeline(stack, suffix="-idle")
    _started(stack, name)
    # Three steps at least: orders moving the placed_at waterline, trades through the pump.
    for i in range(3):
        _push(stack, name, "orders", [order(10 + i, 100 + i, 10 * i)])
        _push(stack, name, "trades", [{"ticker": f"T{i}", "shares": 150}])

    # Pumps: the rows each passed on; pause holds input, resume passes it on, stop drops it.
    sign_in(page, f"{stack.url}/pipelines/{name}/pumps", USER, PASSWORD)
    pump = page.locator("[data-testid=pump][data-name=big_pump]")
    rows = pump.get_by_test_id("pump-rows")
    expect(pump).to_have_attribute("data-state", "running")
    expect(rows).to_have_text("3")
    button = {a: pump.get_by_role("button", name=f"{a} pump big_pump") for a in PUMP_ACTIONS}
    _expect_pump_buttons(button, "Pause", "Stop")
    button["Pause"].click()
    expect(pump).to_have_attribute("data-state", "paused")
    _expect_pump_buttons(button, "Resume", "Stop")
    _push(stack, name, "trades", [{"ticker": "HELD", "shares": 500}])
    expect(rows).to_have_text("3")
    screenshots(page, "19-pump-paused")
    button["Resume"].click()
    expect(pump).to_have_attribute("data-state", "running")
    _push(stack, name, "trades", [{"ticker": "AFTER", "shares": 200}])
    expect(rows).to_have_text("5", timeout=STEP_TIMEOUT_MS)
    big = _view(page, "big").get_by_test_id("change-row")
    expect(big.filter(has_text="HELD")).to_have_count(1)
    button["Stop"].click()
    expect(pump).to_have_attribute("data-state", "stopped")
    _expect_pump_buttons(button, "Start")
    _push(stack, name, "trades", [{"ticker": "DROPPED", "shares": 900}])
    button["Start"].click()
    expect(pump).to_have_attribute("data-state", "running")
    _push(stack, name, "trades", [{"ticker": "AGAIN", "shares": 300}])
    expect(rows).to_have_text("6", timeout=STEP_TIMEOUT_MS)
    expect(big.filter(has_text="AGAIN")).to_have_count(1)
    expect(big.filter(has_text="DROPPED")).to_have_count(0)
    screenshots(page, "20-pumps")

    # Charts: every one has a line through the steps' samples.
    page.get_by_test_id("tab-metrics").click()
    for chart, series in CHARTS:
        line = page.get_by_test_id(chart).locator(f"path.line[data-series='{series}']")
        expect(line).to_have_attribute("d", THREE_POINTS)
    # totals keeps a row per customer: the state is not empty.
    expect(page.get_by_test_id("chart-state").locator(".legend .mono")).not_to_have_text("0")
    screenshots(page, "21-charts")

    # The dashboard: a throughput sparkline, lag, late rows and failures per row.
    page.get_by_role("link", name="Pipelines").click()
    row = page.locator(f"[data-testid=pipeline-row][data-name='{name}']")
    idle_row = page.locator(f"[data-testid=pipeline-row][data-name='{idle}']")
    expect(row.get_by_test_id("row-state")).to_have_text("running")
    sparkline = row.get_by_test_id("row-throughput").locator("svg path")
    expect(sparkline).to_have_attribute("d", THREE_POINTS)
    expect(row.get_by_test_id("row-lag")).to_have_text("0")
    expect(row.get_by_test_id("row-late")).to_have_text("0")
    expect(row.get_by_test_id("row-errors")).to_have_text("0")
    step = int(row.get_by_test_id("row-step").inner_text())
    assert step >= 6

    # Row actions: pause (input waits, shown as lag), resume (the lag is worked off), start.
    row.get_by_test_id("row-pause").click()
    expect(row.get_by_test_id("row-state")).to_have_text("paused", timeout=START_TIMEOUT_MS)
    assert stack.api("POST", f"pipelines/{name}/ingress/orders", [order(40, 7, 40)])[0] == 200
    expect(row.get_by_test_id("row-lag")).to_have_text("1", timeout=15_000)
    row.get_by_test_id("row-resume").click()
    expect(row.get_by_test_id("row-state")).to_have_text("running", timeout=START_TIMEOUT_MS)
    expect(row.get_by_test_id("row-lag")).to_have_text("0", timeout=STEP_TIMEOUT_MS)
    idle_row.get_by_test_id("row-start").click()
    expect(idle_row.get_by_test_id("row-state")).to_have_text("running", timeout=START_TIMEOUT_MS)

    # Select all, then leave out the other tests' pipelines: the header is then indeterminate.
    select_all = page.get_by_test_id("select-all")
    select_all.check()
    listed = page.get_by_test_id("pipeline-row")
    count = listed.count()
    expect(page.get_by_test_id("selected-count")).to_have_text(f"{count} selected")
    for checkbox in page.get_by_test_id("select").all():
        expect(checkbox).to_be_checked()
    for other in listed.all():
        if other.get_attribute("data-name") not in (name, idle):
            other.get_by_test_id("select").uncheck()
    expect(page.get_by_test_id("selected-count")).to_have_text("2 selected")
    assert select_all.evaluate("el => el.indeterminate") == (count > 2)

    # Bulk actions go to the selected pipelines their state allows.
    bulk = page.get_by_test_id("bulk-result")
    expect(page.get_by_test_id("bulk-pause")).to_have_text("Pause selected (2)")
    expect(page.get_by_test_id("bulk-start")).to_be_disabled()
    page.get_by_test_id("bulk-pause").click()
    expect(bulk).to_have_text("paused 2")
    for r in (row, idle_row):
        expect(r.get_by_test_id("row-state")).to_have_text("paused", timeout=START_TIMEOUT_MS)
    expect(page.get_by_test_id("bulk-resume")).to_have_text("Resume selected (2)")
    page.get_by_test_id("bulk-resume").click()
    expect(bulk).to_have_text("resumed 2")
    for r in (row, idle_row):
        expect(r.get_by_test_id("row-state")).to_have_text("running", timeout=START_TIMEOUT_MS)
    screenshots(page, "22-dashboard-bulk")
    page.get_by_test_id("bulk-stop").click()
    expect(bulk).to_have_text("stopped 2")
    for r in (row, idle_row):
        expect(r.get_by_test_id("row-state")).to_have_text("stopped", timeout=START_TIMEOUT_MS)
    expect(page.get_by_test_id("bulk-stop")).to_be_disabled()
    expect(page.get_by_test_id("bulk-start")).to_have_text("Start selected (2)")


PUMP_ACTIONS = ("Start", "Pause", "Resume", "Stop")


def _expect_pump_buttons(buttons: dict[str, Locator], *enabled: str) -> None:
    for label, button in buttons.items():
        if label in enabled:
            expect(button).to_be_enabled()
        else:
            expect(button).to_be_disabled()
