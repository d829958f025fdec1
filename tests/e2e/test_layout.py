"""The IDE and the dashboard at 1280x800 and on a narrow laptop (1024x640), with the keyboard
alone; and the guard that keeps every request and websocket on the page's own origin."""

import uuid
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, ViewportSize, expect

from tests.e2e.conftest import NARROW, ORDERS_PROGRAM, WIDE, OriginGuard, screenshot, sign_in
from tests.live import PASSWORD, USER, LiveStack

PROGRAM = ORDERS_PROGRAM
SIZES = [pytest.param(WIDE, id="1280x800"), pytest.param(NARROW, id="1024x640")]
PIPELINE_CONTROLS = (
    "tab-program",
    "tab-pumps",
    "check-now",
    "save",
    "shortcut-help",
    "start",
    "pause",
    "resume",
    "stop",
    "config-toggle",
    "ingest-table",
    "ingest-rows",
    "ingest-send",
    "bound-toggle",
    "changes-view",
    "changes-pause",
    "changes-clear",
)
DASHBOARD_CONTROLS = ("new-pipeline", "select-all", "bulk-start", "bulk-pause", "bulk-stop")
ROW_CONTROLS = ("select", "pipeline-link", "row-start", "row-pause", "row-resume", "row-stop")
# Boxes that must not need a sideways scroll (the editor, tables and logs scroll by design).
FRAMES = (".app-header", ".toolbar", ".side-column", ".panel", ".page-section", ".bulk-bar")

WIDTHS = """frames => {
    const doc = document.documentElement;
    const out = { page: [doc.scrollWidth, doc.clientWidth], frames: [] };
    for (const selector of frames) {
        for (const el of document.querySelectorAll(selector)) {
            if (el.scrollWidth > el.clientWidth + 1) {
                out.frames.push(`${selector}: ${el.scrollWidth} > ${el.clientWidth}`);
            }
        }
    }
    return out;
}"""
# The element is what the browser finds at its own centre (of its first line, for a link
# that wraps): nothing covers it.
ON_TOP = """el => {
    const r = el.getClientRects()[0];
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit !== null && (hit === el || el.contains(hit));
}"""


def _pipeline(stack: LiveStack, name: str) -> str:
    assert stack.api("POST", "programs", {"name": name, "sql": PROGRAM})[0] == 201
    assert stack.api("POST", "pipelines", {"name": name, "program": name})[0] == 201
    return name


@pytest.fixture(scope="module")
def pipelines(stack: LiveStack) -> dict[str, str]:
    """A stopped pipeline, one with a long name, and a failed one (its runner cannot start:
    a driver heap of one kilobyte), so the dashboard shows an error."""
    tag = uuid.uuid4().hex[:6]
    failed = _pipeline(stack, f"e2e-failed-{tag}")
    assert stack.api("PATCH", f"pipelines/{failed}", {"config": {"memory": "1k"}})[0] == 200
    assert stack.api("POST", f"pipelines/{failed}/start")[0] == 202
    stack.wait_for_state(failed, "failed")
    return {
        "stopped": _pipeline(stack, f"e2e-layout-{tag}"),
        "long": _pipeline(stack, f"e2e-a-rather-long-pipeline-name-for-orders-{tag}"),
        "failed": failed,
    }


def _expect_reachable(page: Page, control: Locator, what: str) -> None:
    """Shown whole inside the viewport (scrolling its column if need be), and on top."""
    control.scroll_into_view_if_needed()
    expect(control, what).to_be_visible()
    expect(control, what).to_be_in_viewport(ratio=1)
    assert control.evaluate(ON_TOP), f"{what} is covered"


def _expect_no_sideways_overflow(page: Page, what: str) -> None:
    widths: dict[str, Any] = page.evaluate(WIDTHS, list(FRAMES))
    scroll_width, client_width = widths["page"]
    assert scroll_width <= client_width, f"{what}: the page scrolls sideways {widths}"
    assert widths["frames"] == [], f"{what}: {widths['frames']}"


@pytest.mark.parametrize("size", SIZES)
def test_the_ide_and_dashboard_fit_the_screen(
    stack: LiveStack, page: Page, pipelines: dict[str, str], size: ViewportSize
) -> None:
    label = f"{size['width']}x{size['height']}"
    page.set_viewport_size(size)
    sign_in(page, f"{stack.url}/pipelines/{pipelines['stopped']}", USER, PASSWORD)
    expect(page.get_by_test_id("editor")).to_contain_text("large_orders", timeout=30_000)
    # The folded parts open too: the runtime settings and the rowtime bound.
    page.get_by_test_id("config-toggle").click()
    page.get_by_test_id("bound-toggle").click()
    expect(page.get_by_test_id("bound-send")).to_be_visible()
    _expect_no_sideways_overflow(page, f"pipeline page at {label}")
    # The run buttons and the editor's toolbar are in view without scrolling.
    for control in ("start", "stop", "save", "check-now"):
        expect(page.get_by_test_id(control)).to_be_in_viewport(ratio=1)
    for control in PIPELINE_CONTROLS:
        _expect_reachable(page, page.get_by_test_id(control), f"{control} at {label}")
    _expect_reachable(page, page.get_by_test_id("config-save"), f"config-save at {label}")
    _expect_reachable(page, page.get_by_test_id("bound-send"), f"bound-send at {label}")
    page.get_by_test_id("editor").scroll_into_view_if_needed()
    screenshot(page, f"24-layout-pipeline-{label}")

    page.get_by_role("link", name="Pipelines").click()
    for name in pipelines.values():
        expect(page.locator(f"[data-testid=pipeline-row][data-name='{name}']")).to_be_visible()
    failed = page.locator(f"[data-testid=pipeline-row][data-name='{pipelines['failed']}']")
    expect(failed.get_by_test_id("row-error")).to_be_visible()
    _expect_no_sideways_overflow(page, f"dashboard at {label}")
    for control in DASHBOARD_CONTROLS:
        _expect_reachable(page, page.get_by_test_id(control), f"{control} at {label}")
    for name in pipelines.values():
        row = page.locator(f"[data-testid=pipeline-row][data-name='{name}']")
        for control in ROW_CONTROLS:
            _expect_reachable(page, row.get_by_test_id(control), f"{name} {control} at {label}")
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, f"25-layout-dashboard-{label}")


# What the focus is on (its test id, label and text; "editor" inside Monaco), and whether
# a focus ring shows.
FOCUSED = """() => {
    const el = document.activeElement;
    if (el === null || el === document.body) return { names: ['body'], ring: false };
    const style = getComputedStyle(el);
    const ring = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 1;
    if (el.closest('[data-testid=editor]')) return { names: ['editor'], ring };
    const names = [el.dataset.testid, el.getAttribute('aria-label'), el.textContent.trim()];
    return { names: names.filter(n => n), ring };
}"""


# The main controls of a stopped pipeline's page, in the order Tab must reach them (the
# page may have more stops between them). Pause, resume and stop are disabled: skipped.
FORWARD = (
    "Pipelines",
    "API keys",
    "sign-out",
    "tab-program",
    "tab-schema",
    "tab-pumps",
    "check-now",
    "save",
    "Keyboard shortcuts",
    "editor",
)
AFTER_EDITOR = (
    "show-warnings",
    "start",
    "config-toggle",
    "ingest-table",
    "ingest-rows",
    "ingest-send",
    "bound-toggle",
    "changes-view",
    "changes-pause",
    "changes-clear",
)


def _focused(page: Page) -> list[str]:
    names: list[str] = page.evaluate(FOCUSED)["names"]
    return names


def _tab_until(page: Page, last: str, key: str = "Tab", limit: int = 40) -> list[list[str]]:
    """Press `key` until the focus is on `last`; every stop on the way, each checked for a
    visible focus ring and for being on screen."""
    seen: list[list[str]] = []
    for _ in range(limit):
        page.keyboard.press(key)
        focused = page.evaluate(FOCUSED)
        seen.append(focused["names"])
        assert focused["ring"], f"no focus ring on {focused['names']} (after {seen})"
        expect(page.locator(":focus")).to_be_in_viewport()
        if last in focused["names"]:
            return seen
    raise AssertionError(f"{key} never reached {last}: {seen}")


def _in_order(seen: list[list[str]], expected: tuple[str, ...]) -> None:
    """`expected` occurs in `seen` in this order (other stops may come between)."""
    position = 0
    for names in seen:
        if position < len(expected) and expected[position] in names:
            position += 1
    assert position == len(expected), f"expected {expected} in order, got {seen}"


def test_the_keyboard_reaches_the_main_controls_in_order(
    stack: LiveStack, page: Page, pipelines: dict[str, str]
) -> None:
    page.set_viewport_size(NARROW)
    sign_in(page, f"{stack.url}/pipelines/{pipelines['stopped']}", USER, PASSWORD)
    page.reload()  # the focus starts at the top of a freshly loaded page
    editor = page.get_by_test_id("editor")
    expect(editor).to_contain_text("large_orders", timeout=30_000)

    _in_order(_tab_until(page, "editor"), FORWARD)
    # In the editor Tab indents; Ctrl+M (listed under "?") makes Tab leave it.
    page.keyboard.press("Tab")
    assert _focused(page) == ["editor"]
    expect(page.get_by_test_id("dirty")).to_be_visible()
    page.keyboard.press("Control+z")
    expect(page.get_by_test_id("dirty")).to_have_count(0)
    page.keyboard.press("Control+m")
    _in_order(_tab_until(page, "changes-clear"), AFTER_EDITOR)
    screenshot(page, "26-keyboard-focus")

    # Shift+Tab goes back the same way, into the editor and out of it again.
    back = _tab_until(page, "Keyboard shortcuts", key="Shift+Tab")
    _in_order(back, (*reversed(AFTER_EDITOR[:-1]), "editor", "Keyboard shortcuts"))
    page.keyboard.press("Tab")
    assert _focused(page) == ["editor"]
    page.keyboard.press("Control+m")  # Tab indents again
    page.keyboard.press("Tab")
    assert _focused(page) == ["editor"]
    expect(page.get_by_test_id("dirty")).to_be_visible()
    page.keyboard.press("Control+z")
    expect(page.get_by_test_id("dirty")).to_have_count(0)

    # The dashboard: Space ticks select-all, and the bulk buttons count the selection.
    page.get_by_role("link", name="Pipelines").click()
    expect(page.get_by_test_id("pipeline-row").first).to_be_visible()
    _tab_until(page, "select-all")
    page.keyboard.press("Space")
    rows = page.get_by_test_id("pipeline-row").count()
    expect(page.get_by_test_id("selected-count")).to_have_text(f"{rows} selected")
    # Row by row: its checkbox, its link, then the actions its state allows.
    stopped = pipelines["stopped"]
    seen = _tab_until(page, f"Start {stopped}")
    _in_order(seen, (f"Select {stopped}", stopped, f"Start {stopped}"))


def test_the_origin_guard_fails_on_another_port_host_or_websocket(
    stack: LiveStack, page: Page, origin_guard: OriginGuard, pipelines: dict[str, str]
) -> None:
    # The page's own calls and websocket pass.
    sign_in(page, f"{stack.url}/pipelines/{pipelines['stopped']}", USER, PASSWORD)
    expect(page.get_by_test_id("socket-status")).to_have_text("live", timeout=30_000)
    assert origin_guard.foreign == []
    # Another port, another host name for the same address, a websocket: each is caught.
    port = int(stack.url.rsplit(":", 1)[1])
    other_port = f"http://127.0.0.1:{port + 1}/nothing"
    other_host = f"ws://localhost:{port}/ws/nothing/"
    with page.expect_request(other_port):
        page.evaluate("url => fetch(url).catch(() => null)", other_port)
    with page.expect_websocket(lambda ws: ws.url == other_host):
        page.evaluate("url => { new WebSocket(url); }", other_host)
    assert origin_guard.foreign == [other_port, other_host]
    origin_guard.foreign.clear()  # this test made them on purpose
