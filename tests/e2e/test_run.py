"""Running a pipeline in the browser: lifecycle, ingest, live changes, operations, dashboard."""

import json
import uuid

from playwright.sync_api import Page, expect

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
CREATE STREAM trades (ticker VARCHAR, shares INT);
CREATE STREAM big_trades (ticker VARCHAR, shares INT);
CREATE PUMP big_pump AS
    INSERT INTO big_trades SELECT STREAM rowtime, ticker, shares FROM trades WHERE shares > 100;
"""
)
FLOOD = 3_000
SHOWN_PER_VIEW = 500


def test_start_ingest_watch_inspect_and_operate_from_the_dashboard(
    stack: LiveStack, page: Page
) -> None:
    name = f"e2e-{uuid.uuid4().hex[:8]}"
    idle = f"{name}-idle"
    assert stack.api("POST", "programs", {"name": name, "sql": PROGRAM})[0] == 201
    assert stack.api("POST", "pipelines", {"name": name, "program": name})[0] == 201
    assert stack.api("POST", "pipelines", {"name": idle, "program": name})[0] == 201

    sign_in(page, f"{stack.url}/pipelines/{name}", USER, PASSWORD)
    expect(page.get_by_test_id("editor")).to_contain_text("large_orders", timeout=30_000)
    state = page.get_by_test_id("pipeline-state")
    expect(state).to_have_text("stopped")
    expect(page.get_by_test_id("read-only-note")).to_have_count(0)

    # The state moves: starting, then running; the editor turns read-only, saying why.
    page.get_by_test_id("start").click()
    expect(state).to_have_text("starting")
    expect(page.get_by_test_id("read-only-note")).to_contain_text("stop it to edit")
    expect(state).to_have_text("running", timeout=START_TIMEOUT_MS)
    expect(page.get_by_test_id("start")).to_be_disabled()
    page.get_by_test_id("editor").locator(".view-lines").click()
    page.keyboard.type("typing is refused")
    expect(page.get_by_test_id("dirty")).to_have_count(0)
    expect(page.get_by_test_id("save")).to_be_disabled()

    # JSON rows, then CSV rows: inserts appear with their step, coloured as inserts.
    page.get_by_test_id("ingest-table").select_option("orders")
    first = [{**order(1, 250, 0), "customer": "<b>ada</b>"}, order(2, 5, 1)]
    send_rows(page, json.dumps(first), 2)
    changes = page.get_by_test_id("change-row")
    expect(changes).to_have_count(1, timeout=STEP_TIMEOUT_MS)
    expect(changes.first).to_have_attribute("data-kind", "insert")
    expect(changes.first).to_contain_text("<b>ada</b>")  # data renders as text, never as markup
    expect(page.get_by_test_id("changes").locator("b")).to_have_count(0)
    first_step = int(changes.first.get_attribute("data-step") or "0")
    assert first_step >= 1

    csv = (
        "id,customer,amount,placed_at\n3,cy,300,2026-01-01 12:05:00\n4,dee,7,2026-01-01 12:06:00\n"
    )
    page.get_by_test_id("ingest-format-csv").check()
    send_rows(page, csv, 2)
    expect(page.get_by_test_id("ingest-result")).to_contain_text("(CSV)")
    expect(changes).to_have_count(2, timeout=STEP_TIMEOUT_MS)
    expect(changes.first).to_contain_text("cy")
    assert int(changes.first.get_attribute("data-step") or "0") > first_step

    # A delete shows as a delete, newest first.
    page.get_by_test_id("ingest-format-auto").check()
    send_rows(page, json.dumps([{"delete": first[0]}]), 1)
    expect(changes).to_have_count(3, timeout=STEP_TIMEOUT_MS)
    expect(changes.first).to_have_attribute("data-kind", "delete")
    screenshots(page, "06-live-changes")

    # Pausing the display freezes the list while the pipeline goes on; resuming catches up.
    page.get_by_test_id("changes-pause").click()
    send_rows(page, json.dumps([order(5, 500, 10)]), 1)
    expect(page.get_by_test_id("changes-paused")).to_contain_text(
        "1 new change since", timeout=STEP_TIMEOUT_MS
    )
    expect(changes).to_have_count(3)
    page.get_by_test_id("changes-pause").click()
    expect(changes).to_have_count(4)
    expect(changes.first).to_contain_text("c5")

    # A rowtime bound is accepted.
    page.get_by_test_id("bound-toggle").click()
    page.get_by_test_id("bound-value").fill("2026-01-01 12:10:00")
    page.get_by_test_id("bound-send").click()
    expect(page.get_by_test_id("bound-result")).to_have_attribute("data-status", "ok")

    # Clear empties the list; only new changes come back.
    page.get_by_test_id("changes-clear").click()
    expect(changes).to_have_count(0)
    expect(page.locator("[data-testid=view-changes][data-view=large_orders]")).to_contain_text(
        "no changes yet"
    )

    # A row two hours behind the waterline (LATENESS 1 hour) is dropped and shown as late.
    send_rows(page, json.dumps([order(6, 900, 0, hour=10)]), 1)
    page.get_by_test_id("tab-late-rows").click()
    expect(page).to_have_url(f"{stack.url}/pipelines/{name}/late-rows")
    late = page.locator("[data-testid=late-count][data-relation=orders]")
    expect(late).to_contain_text("1", timeout=STEP_TIMEOUT_MS)
    expect(page.get_by_test_id("late-row")).to_contain_text("placed_at=2026-01-01 10:00:00")
    expect(changes).to_have_count(0)
    screenshots(page, "07-late-rows")

    # Thousands of rows in one go: the list keeps the newest and stays usable.
    flood = "id,customer,amount,placed_at\n" + "".join(
        f"{1000 + i},bulk,{100 + i % 50},2026-01-01 12:30:00\n" for i in range(FLOOD)
    )
    page.get_by_test_id("ingest-format-csv").check()
    send_rows(page, flood, FLOOD)
    view = page.locator("[data-testid=view-changes][data-view=large_orders]")
    older = f"{FLOOD - SHOWN_PER_VIEW} older not shown"
    expect(view).to_contain_text(older, timeout=STEP_TIMEOUT_MS)
    expect(changes).to_have_count(SHOWN_PER_VIEW)
    page.get_by_test_id("changes-pause").click()
    expect(page.get_by_test_id("changes-paused")).to_be_visible()
    page.get_by_test_id("changes-pause").click()

    # Events: every transition with who asked.
    page.get_by_test_id("tab-events").click()
    running = page.locator("[data-testid=event][data-to=running]")
    expect(running.first).to_be_visible()
    expect(page.locator("[data-testid=event][data-to=starting]").first).to_contain_text(USER)
    screenshots(page, "08-events")

    # An ad-hoc query answers the view's rows now; metrics show the steps; a pump pauses.
    page.get_by_test_id("tab-query").click()
    page.get_by_test_id("query-sql").fill("SELECT * FROM large_orders WHERE customer = 'c5'")
    page.get_by_test_id("query-run").click()
    expect(page.get_by_test_id("query-row")).to_have_count(1, timeout=STEP_TIMEOUT_MS)
    expect(page.get_by_test_id("query-row")).to_contain_text("500")
    screenshots(page, "09-query")
    # A SELECT STREAM tails the stream's new rows live until stopped.
    page.get_by_test_id("query-sql").fill("SELECT STREAM ticker, shares FROM trades")
    page.get_by_test_id("query-run").click()
    status = page.get_by_test_id("query-status")
    expect(status).to_contain_text("live", timeout=STEP_TIMEOUT_MS)
    expect(page.get_by_test_id("query-row")).to_have_count(0)
    trades = [{"ticker": "ACME", "shares": 150}, {"ticker": "INIT", "shares": 7}]
    assert stack.api("POST", f"pipelines/{name}/ingress/trades", trades)[0] == 200
    tail = page.get_by_test_id("query-row")
    expect(tail).to_have_count(2, timeout=STEP_TIMEOUT_MS)
    expect(tail.filter(has_text="ACME")).to_have_attribute("data-kind", "insert")
    expect(tail.filter(has_text="INIT")).to_contain_text("7")
    screenshots(page, "09-query-stream")
    page.get_by_test_id("query-stop").click()
    expect(status).to_contain_text("stopped")
    page.get_by_test_id("tab-metrics").click()
    expect(page.get_by_test_id("stats")).to_be_visible(timeout=15_000)
    screenshots(page, "10-metrics")
    page.get_by_test_id("tab-pumps").click()
    pump = page.locator("[data-testid=pump][data-name=big_pump]")
    expect(pump).to_have_attribute("data-state", "running")
    pump.get_by_role("button", name="Pause pump big_pump").click()
    expect(pump).to_have_attribute("data-state", "paused")

    # The dashboard lists both pipelines; a bulk pause applies to the running one only.
    page.get_by_role("link", name="Pipelines").click()
    expect(page).to_have_url(f"{stack.url}/")
    row = page.locator(f"[data-testid=pipeline-row][data-name='{name}']")
    idle_row = page.locator(f"[data-testid=pipeline-row][data-name='{idle}']")
    expect(row.get_by_test_id("row-state")).to_have_text("running")
    expect(idle_row.get_by_test_id("row-state")).to_have_text("stopped")
    expect(row.get_by_test_id("row-late")).to_have_text("1", timeout=15_000)
    row.get_by_test_id("select").check()
    idle_row.get_by_test_id("select").check()
    expect(page.get_by_test_id("selected-count")).to_have_text("2 selected")
    expect(page.get_by_test_id("bulk-pause")).to_have_text("Pause selected (1)")
    expect(page.get_by_test_id("bulk-start")).to_have_text("Start selected (1)")
    screenshots(page, "11-dashboard")
    page.get_by_test_id("bulk-pause").click()
    expect(page.get_by_test_id("bulk-result")).to_have_text("paused 1 · skipped 1")
    expect(row.get_by_test_id("row-state")).to_have_text("paused", timeout=START_TIMEOUT_MS)
    expect(idle_row.get_by_test_id("row-state")).to_have_text("stopped")

    # Stop from its row; the pipeline page agrees.
    row.get_by_test_id("row-stop").click()
    expect(row.get_by_test_id("row-state")).to_have_text("stopped", timeout=START_TIMEOUT_MS)
    row.get_by_test_id("pipeline-link").click()
    expect(page).to_have_url(f"{stack.url}/pipelines/{name}")
    expect(page.get_by_test_id("pipeline-state")).to_have_text("stopped")
    expect(page.get_by_test_id("read-only-note")).to_have_count(0)
