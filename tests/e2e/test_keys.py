"""API keys in the browser: create with a scope, shown once, usable, revoked."""

import re
import uuid

from playwright.sync_api import Page, expect

from tests.e2e.conftest import screenshots, sign_in
from tests.live import PASSWORD, USER, LiveStack


def test_create_a_key_shown_once_use_it_and_revoke_it(stack: LiveStack, page: Page) -> None:
    key_name = f"ci-{uuid.uuid4().hex[:6]}"
    sign_in(page, f"{stack.url}/", USER, PASSWORD)
    page.get_by_role("link", name="API keys").click()
    expect(page).to_have_url(f"{stack.url}/keys")

    page.get_by_test_id("key-name").fill(key_name)
    page.get_by_test_id("key-scope").select_option("read")
    page.get_by_test_id("key-create").click()
    shown = page.get_by_test_id("key-value")
    expect(shown).to_contain_text("weir_")
    key = shown.inner_text().strip()
    # Copied, or (where the clipboard is refused) selected for Ctrl+C.
    page.get_by_test_id("key-copy").click()
    expect(page.get_by_test_id("key-created")).to_contain_text(re.compile("Copied|Selected"))
    row = page.locator(f"[data-testid=key-row][data-name='{key_name}']")
    expect(row).to_contain_text("read")
    screenshots(page, "12-api-key-created")

    # The key works, for reading only.
    assert stack.api("GET", "pipelines", key=key)[0] == 200
    assert stack.api("POST", "validate", {"sql": ""}, key=key)[0] == 403

    # Shown once: after a reload only its prefix is listed.
    page.reload()
    expect(row).to_be_visible()
    expect(page.get_by_test_id("key-value")).to_have_count(0)
    assert key not in page.content()

    row.get_by_test_id("key-revoke").click()
    row.get_by_test_id("key-revoke-confirm").click()
    expect(row.get_by_test_id("key-revoked")).to_have_text("revoked")
    expect(row).to_have_attribute("data-revoked", "true")
    assert stack.api("GET", "pipelines", key=key)[0] == 401
    screenshots(page, "13-api-keys")
