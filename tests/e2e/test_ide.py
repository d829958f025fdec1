"""Writing a program in the browser: sign in, diagnostics, completion, saving, schema and plan."""

import re
import uuid

from playwright.sync_api import Page, expect

from tests.e2e.conftest import screenshot, screenshots, sign_in
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
WARNED = "\nCREATE TABLE extra (x INT) WITH ('bogus' = 'x');\n"

INSIGHT = """\
CREATE TABLE orders (
    id BIGINT NOT NULL PRIMARY KEY,
    customer VARCHAR NOT NULL,
    amount DECIMAL(10, 2) NOT NULL,
    placed_at TIMESTAMP NOT NULL LATENESS INTERVAL '1' HOUR
);
CREATE STREAM clicks (url VARCHAR);
CREATE VIEW hourly WITH ('emit_final' = 'h') AS
SELECT FLOOR(placed_at TO HOUR) AS h, SUM(amount) AS total
FROM orders GROUP BY FLOOR(placed_at TO HOUR);
CREATE VIEW large_orders AS SELECT id, customer, amount FROM orders WHERE amount >= 100;
"""


def _program(stack: LiveStack, sql: str, pipeline: bool = False) -> str:
    name = f"e2e-{uuid.uuid4().hex[:8]}"
    assert stack.api("POST", "programs", {"name": name, "sql": sql})[0] == 201
    if pipeline:
        assert stack.api("POST", "pipelines", {"name": name, "program": name})[0] == 201
    return name


def test_sign_in_and_the_first_url_still_opens_the_pipeline(stack: LiveStack, page: Page) -> None:
    name = _program(stack, PROGRAM, pipeline=True)
    page.goto(f"{stack.url}/?pipeline={name}")
    page.get_by_test_id("login-username").fill(USER)
    page.get_by_test_id("login-password").fill("not the password")
    page.get_by_test_id("login-submit").click()
    expect(page.get_by_test_id("login-error")).to_contain_text("Wrong user name or password")
    screenshot(page, "00-sign-in")
    page.get_by_test_id("login-password").fill(PASSWORD)
    page.get_by_test_id("login-submit").click()
    expect(page.get_by_test_id("user-name")).to_have_text(USER)
    expect(page).to_have_url(f"{stack.url}/pipelines/{name}")
    expect(page.get_by_test_id("editor")).to_contain_text("large_orders", timeout=30_000)
    expect(page.get_by_test_id("pipeline-state")).to_have_text("stopped")

    # Signing out shows the sign-in form again; the session is gone.
    page.get_by_test_id("sign-out").click()
    expect(page.get_by_test_id("login-username")).to_be_visible()
    page.reload()
    expect(page.get_by_test_id("login-username")).to_be_visible()


def test_edit_diagnose_jump_fix_complete_and_save(stack: LiveStack, page: Page) -> None:
    name = _program(stack, PROGRAM)
    sign_in(page, f"{stack.url}/programs/{name}", USER, PASSWORD)
    editor = page.get_by_test_id("editor")
    expect(editor).to_contain_text("large_orders", timeout=30_000)
    expect(page.get_by_test_id("program-version")).to_have_text("v1")
    expect(page.get_by_test_id("dirty")).to_have_count(0)

    # A broken statement: a red squiggle, its message on hover, one problem in the list.
    editor.locator(".view-lines").click()
    page.keyboard.press("Control+End")
    page.keyboard.insert_text(BROKEN)
    expect(page.get_by_test_id("dirty")).to_be_visible()
    problem = page.get_by_test_id("problem")
    expect(problem).to_have_count(1)
    expect(problem).to_contain_text("nope")
    squiggle = editor.locator(".squiggly-error")
    expect(squiggle).to_have_count(1)
    # Monaco finds what is under the mouse from the text layer, which sits over the squiggle.
    editor.locator(".view-lines span", has_text="nope").last.hover()
    expect(page.locator(".monaco-hover").first).to_contain_text("nope", timeout=10_000)
    screenshots(page, "01-error-hover")

    # Clicking the problem selects its exact span in the editor: typing replaces it.
    page.mouse.move(0, 0)
    page.keyboard.press("Escape")
    page.keyboard.press("Control+Home")
    problem.locator("button").click()
    page.keyboard.type("customer")
    expect(problem).to_have_count(0)
    expect(squiggle).to_have_count(0)
    expect(editor).to_contain_text("SELECT customer FROM orders")

    # Completion offers the columns of the relation before the dot.
    page.keyboard.press("Control+End")
    page.keyboard.insert_text("\nCREATE VIEW totals AS SELECT ")
    page.keyboard.type("orders.")
    suggest = page.locator(".suggest-widget")
    expect(suggest).to_be_visible(timeout=10_000)
    expect(suggest).to_contain_text("amount")
    expect(suggest).to_contain_text("customer")
    screenshot(page, "02-completion")
    page.keyboard.type("am")
    page.keyboard.press("Enter")
    page.keyboard.insert_text(" FROM orders;")
    expect(editor).to_contain_text("SELECT orders.amount FROM orders;")
    expect(page.get_by_test_id("problems-summary")).to_have_text("No problems")

    # Warnings can be hidden from the list and the editor, and shown again.
    page.keyboard.insert_text(WARNED)
    warning = page.locator("[data-testid=problem][data-severity=warning]")
    expect(warning).to_have_count(1)
    expect(warning).to_contain_text("bogus")
    expect(editor.locator(".squiggly-warning")).to_have_count(1)
    page.get_by_test_id("show-warnings").uncheck()
    expect(warning).to_have_count(0)
    expect(editor.locator(".squiggly-warning")).to_have_count(0)
    expect(page.get_by_test_id("problems-summary")).to_have_text("1 warning")
    page.get_by_test_id("show-warnings").check()
    expect(warning).to_have_count(1)

    # The shortcuts are listed in a popover; Ctrl+S saves a new version.
    page.get_by_test_id("shortcut-help").locator("summary").click()
    expect(page.get_by_test_id("shortcut-help")).to_contain_text("Save as a new version")
    screenshot(page, "03-shortcuts")
    page.keyboard.press("Escape")
    editor.locator(".view-lines").click()
    page.keyboard.press("Control+s")
    expect(page.get_by_test_id("save-result")).to_have_text("Saved as version 2")
    expect(page.get_by_test_id("program-version")).to_have_text("v2")
    expect(page.get_by_test_id("dirty")).to_have_count(0)
    status, saved = stack.api("GET", f"programs/{name}")
    assert status == 200 and saved["version"] == 2
    assert "SELECT orders.amount FROM orders;" in saved["sql"]
    expect(page.get_by_test_id("versions").locator("li")).to_have_count(2)


def test_schema_panel_and_plan_graph_show_the_program(stack: LiveStack, page: Page) -> None:
    name = _program(stack, INSIGHT)
    sign_in(page, f"{stack.url}/programs/{name}", USER, PASSWORD)
    expect(page.get_by_test_id("editor")).to_contain_text("hourly", timeout=30_000)

    page.get_by_test_id("tab-schema").click()
    expect(page).to_have_url(f"{stack.url}/programs/{name}/schema")
    orders = page.locator("[data-testid=schema-relation][data-name=orders]")
    placed_at = orders.locator("[data-testid=schema-column][data-column=placed_at]")
    expect(placed_at.get_by_test_id("waterline")).to_have_text("LATENESS 1 hour")
    expect(orders).to_contain_text("primary key (id)")
    clicks = page.locator("[data-testid=schema-relation][data-name=clicks]")
    expect(clicks).to_have_attribute("data-kind", "stream")
    expect(clicks.locator("[data-column=rowtime] [data-testid=waterline]")).to_have_text("ROWTIME")
    hourly = page.locator("[data-testid=schema-relation][data-name=hourly]")
    expect(hourly.get_by_test_id("output-mode")).to_have_text("append")
    expect(hourly.get_by_test_id("emit-final")).to_be_visible()
    expect(hourly.locator("[data-column=h] [data-testid=waterline]")).to_have_attribute(
        "data-source", "inferred"
    )
    large = page.locator("[data-testid=schema-relation][data-name=large_orders]")
    expect(large.get_by_test_id("output-mode")).to_have_text("update")
    screenshots(page, "04-schema")

    page.get_by_test_id("tab-plan").click()
    expect(page).to_have_url(f"{stack.url}/programs/{name}/plan")
    nodes = page.get_by_test_id("plan-node")
    expect(nodes).to_have_count(5)  # orders, clicks, hourly, large_orders, the change stream
    expect(page.locator("[data-testid=plan-node][data-name=clicks]")).to_have_attribute(
        "data-kind", "stream"
    )
    to_hourly = page.locator("[data-testid=plan-edge][data-from=orders][data-to=hourly]")
    expect(to_hourly).to_contain_text("aggregate")
    expect(to_hourly).to_contain_text("waterline placed_at")
    to_large = page.locator("[data-testid=plan-edge][data-from=orders][data-to=large_orders]")
    expect(to_large).to_contain_text("filter")
    hourly_out = page.locator("[data-testid=plan-edge][data-from=hourly]")
    expect(hourly_out).to_contain_text("append")
    expect(hourly_out).to_contain_text("emit_final h")
    screenshots(page, "05-plan")

    # Back and forward move between the tabs; the editor kept the text.
    page.go_back()
    expect(page).to_have_url(re.compile(r"/schema$"))
    page.get_by_test_id("tab-program").click()
    expect(page.get_by_test_id("editor")).to_contain_text("LATENESS")


def test_a_new_pipeline_on_a_starter_program(stack: LiveStack, page: Page) -> None:
    name = f"e2e-new-{uuid.uuid4().hex[:8]}"
    sign_in(page, f"{stack.url}/", USER, PASSWORD)
    page.get_by_test_id("new-pipeline").click()
    page.get_by_test_id("new-pipeline-name").fill(name)
    page.get_by_test_id("new-pipeline-program").select_option(label="a new program from a starter")
    page.get_by_test_id("new-pipeline-create").click()
    expect(page).to_have_url(f"{stack.url}/pipelines/{name}")
    expect(page.get_by_test_id("editor")).to_contain_text("LATENESS", timeout=30_000)
    expect(page.get_by_test_id("pipeline-state")).to_have_text("stopped")
    expect(page.get_by_test_id("problems-summary")).to_have_text("No problems")
    status, pipeline = stack.api("GET", f"pipelines/{name}")
    assert (status, pipeline["program"]) == (200, name)


TWO_ERRORS = (
    "\nCREATE VIEW first_bad AS SELECT nope FROM orders;"
    "\nCREATE VIEW second_bad AS SELECT zap FROM orders;\n"
)
# The colours the weir-dark theme gives (frontend/src/features/editor/weirSql.ts).
DIALECT_COLOUR = "rgb(224, 175, 104)"
KEYWORD_COLOUR = "rgb(122, 162, 247)"
TOKENS = """words => [...document.querySelectorAll('[data-testid=editor] .view-line span span')]
    .filter(s => words.includes(s.textContent.trim()))
    .map(s => ({
        word: s.textContent.trim(),
        className: s.className,
        colour: getComputedStyle(s).color,
        weight: getComputedStyle(s).fontWeight,
    }))"""


def test_dialect_highlighting_f8_and_ctrl_enter(stack: LiveStack, page: Page) -> None:
    name = _program(stack, INSIGHT + TWO_ERRORS)
    sign_in(page, f"{stack.url}/programs/{name}", USER, PASSWORD)
    editor = page.get_by_test_id("editor")
    expect(editor).to_contain_text("second_bad", timeout=30_000)
    expect(page.get_by_test_id("problems-summary")).to_have_text("2 errors")

    # The dialect's words get a token class and colour of their own, apart from SQL's.
    words = ["STREAM", "LATENESS", "CREATE", "clicks"]
    # Monaco tokenizes after it paints the text: wait until each word is a token of its own.
    tokenized = f"words => new Set(({TOKENS})(words).map(t => t.word)).size === words.length"
    page.wait_for_function(tokenized, arg=words)
    tokens = page.evaluate(TOKENS, words)
    by_word = {t["word"]: t for t in tokens}
    assert set(by_word) == set(words), tokens
    for word in ("STREAM", "LATENESS"):
        assert by_word[word]["colour"] == DIALECT_COLOUR, tokens
        assert int(by_word[word]["weight"]) >= 700, tokens
    assert by_word["CREATE"]["colour"] == KEYWORD_COLOUR, tokens
    assert by_word["STREAM"]["className"] != by_word["CREATE"]["className"], tokens
    assert by_word["clicks"]["colour"] not in (DIALECT_COLOUR, KEYWORD_COLOUR), tokens

    # F8 goes to the next problem, showing its message in the editor; Shift+F8 back.
    lines = [
        p.split("\n")[-1].split(":")[0] for p in page.get_by_test_id("problem").all_inner_texts()
    ]
    editor.locator(".view-lines").click()
    page.keyboard.press("Control+Home")
    marker = page.locator(".marker-widget")
    page.keyboard.press("F8")
    expect(marker).to_contain_text("Unknown column 'nope'")
    expect(editor.locator(".line-numbers.active-line-number")).to_have_text(lines[0])
    screenshot(page, "27-f8-next-problem")
    page.keyboard.press("F8")
    expect(marker).to_contain_text("Unknown column 'zap'")
    # The marker shows before the cursor line repaints: wait for the line, do not read it once.
    expect(editor.locator(".line-numbers.active-line-number")).to_have_text(lines[1])
    page.keyboard.press("Shift+F8")
    expect(marker).to_contain_text("Unknown column 'nope'")
    page.keyboard.press("Escape")
    expect(marker).to_have_count(0)

    # Ctrl+Enter checks at once, with no edit to wait for: in the editor and outside it.
    def checks(press: str) -> None:
        with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/validate")):
            page.keyboard.press(press)

    checks("Control+Enter")
    page.get_by_test_id("show-warnings").focus()
    checks("Control+Enter")

    # The shortcuts help lists them.
    page.get_by_test_id("shortcut-help").locator("summary").click()
    help_text = page.get_by_test_id("shortcut-help")
    for listed in ("F8 / Shift+F8", "Ctrl+Enter", "Ctrl+S", "Ctrl+M", "Ctrl+Space"):
        expect(help_text).to_contain_text(listed)
