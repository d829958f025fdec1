import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, ViewportSize, sync_playwright

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
WIDE = ViewportSize(width=1280, height=800)
NARROW = ViewportSize(width=1024, height=768)


@pytest.fixture
def page() -> Iterator[Page]:
    """A page in headless Chromium with a fresh profile; off-origin requests fail the test."""
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=CHROMIUM,
            headless=True,
            args=CHROMIUM_ARGS,
            viewport=WIDE,
        )
        page = context.new_page()
        foreign: list[str] = []
        page.on(
            "request",
            lambda r: (
                foreign.append(r.url)
                if not r.url.startswith(("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:"))
                else None
            ),
        )
        try:
            yield page
        finally:
            context.close()
        assert foreign == [], f"requests left the page's origin: {foreign}"


def screenshot(page: Page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def screenshots(page: Page, name: str) -> None:
    """The page at 1280x800 and on a narrow laptop (1024x768), to look at."""
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
