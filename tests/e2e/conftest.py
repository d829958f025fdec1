import tempfile
from collections.abc import Generator, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import BrowserContext, Page, ViewportSize, expect, sync_playwright

from tests.live import LiveStack

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-results" / "e2e"
START_TIMEOUT_MS = 240_000  # a pipeline's first start on a busy machine (a cold JVM)
STEP_TIMEOUT_MS = 120_000  # input sent until its step's changes show
WIDE = ViewportSize(width=1280, height=800)
NARROW = ViewportSize(width=1024, height=640)
# The orders table and its view of large orders, which the browser tests' programs start with.
ORDERS_PROGRAM = """\
CREATE TABLE orders (
    id BIGINT NOT NULL,
    customer VARCHAR NOT NULL,
    amount DECIMAL(10, 2) NOT NULL,
    placed_at TIMESTAMP NOT NULL LATENESS INTERVAL '1' HOUR
);

CREATE VIEW large_orders AS
SELECT id, customer, amount
FROM orders
WHERE amount >= 100;
"""


def origin_of(url: str) -> tuple[str, str, int | None]:
    """(scheme, host, port) of `url`, websocket schemes counted as their HTTP ones, default
    ports filled in: the page's origin and its websockets' compare equal."""
    parts = urlsplit(url)
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    port = parts.port or {"http": 80, "https": 443}.get(scheme)
    return scheme, parts.hostname or "", port


class OriginGuard:
    """Every request and websocket of a browser context that leaves the page's own origin
    (the scheme, host and port the stack serves); data: and blob: URLs stay in the page."""

    def __init__(self, origin: str) -> None:
        self.origin = origin_of(origin)
        self.foreign: list[str] = []

    def watch(self, context: BrowserContext) -> None:
        context.on("request", lambda request: self.note(request.url))
        context.on("page", self.watch_page)
        for page in context.pages:
            self.watch_page(page)

    def watch_page(self, page: Page) -> None:
        page.on("websocket", lambda ws: self.note(ws.url))

    def note(self, url: str) -> None:
        if urlsplit(url).scheme in ("data", "blob"):
            return
        if origin_of(url) != self.origin:
            self.foreign.append(url)


@pytest.fixture
def origin_guard(stack: LiveStack) -> OriginGuard:
    return OriginGuard(stack.url)


CALL_REPORT = pytest.StashKey[pytest.TestReport]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Keeps each test's outcome, so the page fixture can picture a failure."""
    report = yield
    if report.when == "call":
        item.stash[CALL_REPORT] = report
    return report


@pytest.fixture
def page(origin_guard: OriginGuard, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A page in headless Chromium with a fresh profile; a request or websocket to any
    other origin than the stack's fails the test. A failed test leaves a screenshot of the
    page as it was (FAILED-<test>.png)."""
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=CHROMIUM,
            headless=True,
            args=CHROMIUM_ARGS,
            viewport=WIDE,
        )
        origin_guard.watch(context)
        page = context.new_page()
        try:
            yield page
            report = request.node.stash.get(CALL_REPORT, None)
            if report is not None and report.failed:
                screenshot(page, f"FAILED-{request.node.name}")
        finally:
            context.close()
        assert origin_guard.foreign == [], f"left the page's origin: {origin_guard.foreign}"


def screenshot(page: Page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def screenshots(page: Page, name: str) -> None:
    """The page at 1280x800 and on a narrow laptop (1024x640), to look at."""
    screenshot(page, f"{name}-1280")
    page.set_viewport_size(NARROW)
    try:
        # Monaco and the charts lay out again on resize; this is a picture, not an assertion.
        page.wait_for_timeout(300)
        screenshot(page, f"{name}-1024")
    finally:
        page.set_viewport_size(WIDE)


def sign_in(page: Page, url: str, user: str, password: str) -> None:
    """Open `url` and sign in on the page it shows."""
    page.goto(url)
    page.get_by_test_id("login-username").fill(user)
    page.get_by_test_id("login-password").fill(password)
    page.get_by_test_id("login-submit").click()
    page.get_by_test_id("user-name").wait_for()


# Sets a textarea's value at once, as a paste does, and tells React. (Playwright's fill types
# through Chromium's insertText, which takes ~25 s for 100 KB.)
PASTE = """(el, text) => {
    const set = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value").set;
    set.call(el, text);
    el.dispatchEvent(new Event("input", { bubbles: true }));
}"""


def send_rows(page: Page, text: str, accepted: int) -> None:
    """Paste `text` into the ingest box, send it, and wait until `accepted` rows were taken."""
    page.get_by_test_id("ingest-rows").evaluate(PASTE, text)
    page.get_by_test_id("ingest-send").click()
    expect(page.get_by_test_id("ingest-result")).to_contain_text(f"accepted {accepted} ")


def order(id_: int, amount: int, minute: int, hour: int = 12) -> dict[str, object]:
    """A row of the `orders` table the e2e programs declare."""
    return {
        "id": id_,
        "customer": f"c{id_}",
        "amount": amount,
        "placed_at": f"2026-01-01 {hour:02d}:{minute:02d}:00",
    }
