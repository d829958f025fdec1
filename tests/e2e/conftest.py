import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, sync_playwright

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


@pytest.fixture
def page() -> Iterator[Page]:
    """A page in headless Chromium with a fresh profile; off-origin requests fail the test."""
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=CHROMIUM,
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 800},
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
