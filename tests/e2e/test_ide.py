"""A new user's first session in the browser, against the real stack."""

import json
import uuid

from playwright.sync_api import Page, expect

from tests.e2e.conftest import screenshot
from tests.live import PASSWORD, USER, LiveStack

PROGRAM = """\
CREATE TABLE orders (
    id BIGINT NOT NULL,
    customer VARCHAR NOT NULL,
    amount DECIMAL(10, 2) NOT NULL
);

CREATE VIEW large_orders AS
SELECT id, customer, amount
FROM orders
WHERE amount >= 100;
"""
BROKEN = "\nCREATE VIEW broken AS SELECT nope FROM orders;\n"
START_TIMEOUT_MS = 240_000


def test_type_error_fix_start_ingest_and_watch_the_change(stack: LiveStack, page: Page) -> None:
    name = f"e2e-{uuid.uuid4().hex[:8]}"
    assert stack.api("POST", "programs", {"name": name, "sql": PROGRAM})[0] == 201
    assert stack.api("POST", "pipelines", {"name": name, "program": name})[0] == 201

    page.goto(f"{stack.url}/?pipeline={name}")
    page.get_by_test_id("login-username").fill(USER)
    page.get_by_test_id("login-password").fill("not the password")
    page.get_by_test_id("login-submit").click()
    expect(page.get_by_test_id("login-error")).to_contain_text("Wrong user name or password")
    page.get_by_test_id("login-password").fill(PASSWORD)
    page.get_by_test_id("login-submit").click()
    expect(page.get_by_test_id("user-name")).to_have_text(USER)
    editor = page.get_by_test_id("editor")
    expect(editor).to_contain_text("large_orders", timeout=30_000)
    expect(page.get_by_test_id("pipeline-state")).to_have_text("stopped")

    # A broken statement gets a red squiggle and a problem naming the column.
    editor.locator(".view-lines").click()
    page.keyboard.press("Control+End")
    page.keyboard.insert_text(BROKEN)
    problem = page.get_by_test_id("problem")
    expect(problem).to_have_count(1)
    expect(problem).to_contain_text("nope")
    expect(editor.locator(".squiggly-error")).to_have_count(1)
    screenshot(page, "01-error-marker")

    # Fixing the column name clears the marker.
    editor.locator(".view-lines span", has_text="nope").last.dblclick()
    page.keyboard.type("id")
    expect(problem).to_have_count(0)
    expect(editor.locator(".squiggly-error")).to_have_count(0)

    page.get_by_test_id("start").click()
    expect(page.get_by_test_id("pipeline-state")).to_have_text("running", timeout=START_TIMEOUT_MS)

    page.get_by_test_id("ingest-table").select_option("orders")
    rows = [
        {"id": 1, "customer": "<b>ada</b>", "amount": 250},
        {"id": 2, "customer": "bob", "amount": 5},
    ]
    page.get_by_test_id("ingest-rows").fill(json.dumps(rows))
    page.get_by_test_id("ingest-send").click()
    expect(page.get_by_test_id("ingest-result")).to_contain_text("2")

    change = page.get_by_test_id("change-row")
    expect(change).to_have_count(1, timeout=120_000)
    expect(change).to_have_attribute("data-kind", "insert")
    expect(change).to_have_attribute("data-step", "1")
    # Values from data render as text, never as markup.
    expect(change).to_contain_text("<b>ada</b>")
    expect(page.get_by_test_id("changes").locator("b")).to_have_count(0)
    screenshot(page, "02-live-change")

    page.get_by_test_id("stop").click()
    expect(page.get_by_test_id("pipeline-state")).to_have_text("stopped", timeout=START_TIMEOUT_MS)
