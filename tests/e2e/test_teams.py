"""The browser with names repeated across teams, and with a run started over elsewhere: a user
in two teams sees both pipelines of one name with their teams and opens each; a page open
across a reset made from the API shows the new run from its first step."""

import json
import uuid

from playwright.sync_api import Page, expect

from tests.e2e.conftest import START_TIMEOUT_MS, STEP_TIMEOUT_MS, order, send_rows, sign_in
from tests.e2e.test_operate import PROGRAM, _cell, _started, _view
from tests.live import PASSWORD, USER, LiveStack

SHARED = """\
CREATE TABLE t (x INT NOT NULL);
CREATE VIEW {view} AS SELECT x FROM t;
"""


def test_a_user_in_two_teams_sees_both_pipelines_of_one_name_and_opens_each(
    stack: LiveStack, page: Page
) -> None:
    suffix = uuid.uuid4().hex[:6]
    user, name = f"twoteams-{suffix}", f"same-{suffix}"
    teams = {"a": f"ta-{suffix}", "b": f"tb-{suffix}"}
    stack.manage("weir_user", user, "--team", teams["a"], "--password", PASSWORD)
    key = stack.manage(
        "weir_user", user, "--team", teams["b"], "--password", PASSWORD, "--api-key", "k"
    )
    for letter, team in teams.items():
        sql = SHARED.format(view=f"view_of_{letter}")
        body = {"name": name, "sql": sql, "team": team}
        assert stack.api("POST", "programs", body, key=key)[0] == 201
        body = {"name": name, "program": name, "team": team}
        assert stack.api("POST", "pipelines", body, key=key)[0] == 201

    sign_in(page, stack.url, user, PASSWORD)
    rows = page.locator(f"[data-testid=pipeline-row][data-name='{name}']")
    expect(rows).to_have_count(2)
    for letter, team in teams.items():
        row = page.locator(f"[data-testid=pipeline-row][data-name='{name}'][data-team='{team}']")
        expect(row.get_by_test_id("row-team")).to_contain_text(team)
        row.get_by_test_id("pipeline-link").click()
        expect(page).to_have_url(f"{stack.url}/pipelines/{name}?team={team}")
        expect(page.get_by_test_id("editor")).to_contain_text(f"view_of_{letter}", timeout=30_000)
        expect(page.get_by_test_id("pipeline-state")).to_have_text("stopped")
        page.get_by_test_id("tab-events").click()  # a tab keeps the team
        expect(page).to_have_url(f"{stack.url}/pipelines/{name}/events?team={team}")
        page.go_back()
        page.go_back()
        expect(rows).to_have_count(2)

    # An address without the team asks which one, naming only the user's teams.
    page.goto(f"{stack.url}/pipelines/{name}")
    choice = page.get_by_test_id("team-choice")
    expect(choice.get_by_test_id("team-choice-link")).to_have_count(2)
    choice.locator(f"[data-team='{teams['b']}']").click()
    expect(page).to_have_url(f"{stack.url}/pipelines/{name}?team={teams['b']}")
    expect(page.get_by_test_id("editor")).to_contain_text("view_of_b", timeout=30_000)


def test_a_page_open_across_a_reset_made_elsewhere_shows_the_new_run(
    stack: LiveStack, page: Page
) -> None:
    """The deploy with reset_state comes from the API (a CI job), not from this page: the
    server's reset message is all the page learns of it."""
    name = f"e2e-reset-{uuid.uuid4().hex[:8]}"
    assert stack.api("POST", "programs", {"name": name, "sql": PROGRAM})[0] == 201
    assert stack.api("POST", "pipelines", {"name": name, "program": name})[0] == 201
    _started(stack, name)
    sign_in(page, f"{stack.url}/pipelines/{name}", USER, PASSWORD)
    expect(page.get_by_test_id("socket-status")).to_have_text("live", timeout=30_000)
    send_rows(page, json.dumps([order(1, 250, 0)]), 1)
    send_rows(page, json.dumps([order(2, 400, 1)]), 1)
    send_rows(page, json.dumps([order(3, 500, 2)]), 1)
    large = _view(page, "large_orders").get_by_test_id("change-row")
    expect(large).to_have_count(3, timeout=STEP_TIMEOUT_MS)

    assert stack.api("POST", f"pipelines/{name}/stop")[0] == 202
    stack.wait_for_state(name, "stopped")
    sql = PROGRAM.replace("amount >= 100", "amount >= 300")
    assert stack.api("PUT", f"programs/{name}", {"sql": sql})[0] == 200
    status, body = stack.api("POST", f"pipelines/{name}/deploy", {"reset_state": True})
    assert (status, body["run"]) == (200, 2), body
    expect(large).to_have_count(0)  # the old run's rows go at once
    expect(page.get_by_test_id("last-step")).to_have_text("0")

    _started(stack, name)
    expect(page.get_by_test_id("pipeline-state")).to_have_text("running", timeout=START_TIMEOUT_MS)
    # Every accepted order again, by the new query: the new run's first steps, which the
    # old page took for steps it had (numbered 1..3 like the old run's) and dropped.
    expect(large).to_have_count(2, timeout=STEP_TIMEOUT_MS)
    assert {_cell(row, "id").inner_text() for row in large.all()} == {"2", "3"}
    assert stack.api("POST", f"pipelines/{name}/stop")[0] == 202
    stack.wait_for_state(name, "stopped")
