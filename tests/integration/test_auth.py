"""Who may do what: every route needs a user, keys have scopes, teams see only their own."""

import http.cookiejar
import json
import re
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.urls import URLPattern, URLResolver, get_resolver
from websockets.exceptions import InvalidStatus

from tests.live import PASSWORD, USER, LiveStack, next_message

REPO = Path(__file__).resolve().parents[2]
OPEN_ROUTES = {"api/v1/health", "api/v1/auth/session", "api/v1/auth/login"}
PROGRAM = "CREATE TABLE t (x INT);\nCREATE VIEW v AS SELECT x FROM t;\n"
SAMPLE_ARGUMENTS = {
    "name": "some-name",
    "action": "start",
    "relation": "t",
    "prefix": "abc",
    "pump": "p",
    "view": "v",
    "version": "1",
}


def api_routes() -> list[str]:
    """Every API route of the URL map, with sample values for its parameters."""
    routes: list[str] = []

    def walk(patterns: list[Any], prefix: str) -> None:
        for pattern in patterns:
            text = prefix + str(pattern.pattern).lstrip("^").rstrip("$")
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, text)
            elif isinstance(pattern, URLPattern) and text.startswith("api/"):
                routes.append(text)

    walk(get_resolver().url_patterns, "")
    concrete = []
    for route in routes:
        route = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: SAMPLE_ARGUMENTS[m.group(1)], route)
        route = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: SAMPLE_ARGUMENTS[m.group(1)], route)
        concrete.append(route)
    return sorted(set(concrete))


def other_user(stack: LiveStack, scope: str = "write") -> str:
    name = f"outsider-{uuid.uuid4().hex[:6]}"
    return stack.manage(
        "weir_user", name, "--team", f"team-{name}", "--api-key", "k", "--scope", scope
    )


def test_the_route_walk_finds_the_whole_api() -> None:
    routes = api_routes()
    assert "api/v1/pipelines/some-name/ingress/t" in routes
    assert "api/v1/pipelines/some-name/start" in routes
    assert len(routes) >= 15


@pytest.mark.parametrize("route", api_routes())
def test_every_route_but_login_and_health_requires_a_user(stack: LiveStack, route: str) -> None:
    path = route.removeprefix("api/v1/")
    for method in ("GET", "POST", "PUT", "DELETE"):
        status, body = stack.api(method, path, {}, key=None)
        if route in OPEN_ROUTES:
            assert status != 401, (method, route)
        elif status != 405:
            assert status == 401, (method, route, status, body)
            assert not isinstance(body, dict) or body["code"] == "not_authenticated"


def test_a_bad_key_is_refused(stack: LiveStack) -> None:
    status, body = stack.api("GET", "pipelines", key="weir_nothere_secret")
    assert (status, body["code"]) == (401, "authentication_failed")


@pytest.fixture(scope="module")
def reader(stack: LiveStack) -> str:
    """A read-scoped key of the test user (one for the module: making one takes seconds)."""
    return stack.manage(
        "weir_user", USER, "--team", "testers", "--api-key", "ro", "--scope", "read"
    )


def test_a_read_key_reads_but_cannot_write(stack: LiveStack, reader: str) -> None:
    assert stack.api("GET", "programs", key=reader)[0] == 200
    status, body = stack.api("POST", "programs", {"name": "nope", "sql": ""}, key=reader)
    assert (status, body["code"]) == (403, "permission_denied")


@pytest.mark.parametrize("route", api_routes())
def test_a_read_key_cannot_write_anywhere(stack: LiveStack, reader: str, route: str) -> None:
    path = route.removeprefix("api/v1/")
    for method in ("POST", "PUT", "PATCH", "DELETE"):
        status, body = stack.api(method, path, {}, key=reader)
        if route in OPEN_ROUTES:
            continue
        assert status in (403, 405), (method, route, status, body)


def test_other_teams_get_404_on_every_route_of_a_pipeline(stack: LiveStack) -> None:
    name = f"iso-{uuid.uuid4().hex[:6]}"
    assert stack.api("POST", "programs", {"name": name, "sql": PROGRAM})[0] == 201
    assert stack.api("POST", "pipelines", {"name": name, "program": name})[0] == 201
    outsider = other_user(stack)
    routes = [r for r in api_routes() if r.startswith("api/v1/pipelines/some-name")]
    assert len(routes) >= 12
    for route in routes:
        path = route.removeprefix("api/v1/").replace("some-name", name)
        for method in ("GET", "POST", "PATCH"):
            status, body = stack.api(method, path, {}, key=outsider)
            assert status in (404, 405), (method, route, status, body)
            assert status == 405 or body["code"] == "not_found"


def test_teams_see_only_their_own_programs_and_pipelines(stack: LiveStack) -> None:
    name = f"mine-{uuid.uuid4().hex[:6]}"
    assert stack.api("POST", "programs", {"name": name, "sql": PROGRAM})[0] == 201
    assert stack.api("POST", "pipelines", {"name": name, "program": name})[0] == 201
    outsider = other_user(stack)
    assert stack.api("GET", f"programs/{name}", key=outsider)[0] == 404
    assert stack.api("GET", f"pipelines/{name}", key=outsider)[0] == 404
    assert name not in [p["name"] for p in stack.api("GET", "pipelines", key=outsider)[1]]
    assert stack.api("POST", f"pipelines/{name}/start", key=outsider)[0] == 404
    assert stack.api("POST", f"pipelines/{name}/ingress/t", [{"x": 1}], key=outsider)[0] == 404
    status, _ = stack.api("POST", "pipelines", {"name": f"{name}-2", "program": name}, key=outsider)
    assert status == 404, "nobody builds on another team's program"


def test_websockets_need_a_user_of_the_pipelines_team(stack: LiveStack) -> None:
    name = f"ws-{uuid.uuid4().hex[:6]}"
    stack.api("POST", "programs", {"name": name, "sql": PROGRAM})
    stack.api("POST", "pipelines", {"name": name, "program": name})
    for key in (None, other_user(stack), "weir_bad_key"):
        with pytest.raises(InvalidStatus) as refused:
            stack.websocket(f"/ws/pipelines/{name}/", key=key)
        assert refused.value.response.status_code == 403
    with stack.websocket(f"/ws/pipelines/{name}/") as ws:
        assert next_message(ws, "state")["state"] == "stopped"


def test_a_foreign_origin_cannot_open_a_websocket(stack: LiveStack) -> None:
    url = stack.url.replace("http://", "ws://") + "/ws/pipelines/x/"
    from websockets.sync.client import connect

    with pytest.raises(InvalidStatus):
        connect(url, additional_headers={"Origin": "http://evil.example"}, open_timeout=10)


class Browser:
    """A cookie-keeping HTTP client, as the web page is."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def csrf(self) -> str:
        return next(c.value for c in self.cookies if c.name == "csrftoken")

    def call(self, method: str, path: str, body: Any = None, csrf: bool = True) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json", "Referer": self.base + "/"}
        if csrf and any(c.name == "csrftoken" for c in self.cookies):
            headers["X-CSRFToken"] = self.csrf()
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            self.base + path, data=data, method=method, headers=headers
        )
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read() or b"null")


def test_browser_sign_in_with_csrf(stack: LiveStack) -> None:
    browser = Browser(stack.url)
    assert browser.call("GET", "/api/v1/auth/session") == (200, {"user": None})
    status, body = browser.call(
        "POST", "/api/v1/auth/login", {"username": USER, "password": "wrong"}
    )
    assert (status, body["code"]) == (400, "login_failed")
    status, body = browser.call(
        "POST", "/api/v1/auth/login", {"username": USER, "password": PASSWORD}
    )
    assert status == 200 and body["user"]["username"] == USER and "testers" in body["user"]["teams"]
    assert browser.call("GET", "/api/v1/pipelines")[0] == 200
    status, body = browser.call("POST", "/api/v1/validate", {"sql": ""}, csrf=False)
    assert status == 403 and "CSRF" in body["message"]
    assert browser.call("POST", "/api/v1/validate", {"sql": ""})[0] == 200
    assert browser.call("POST", "/api/v1/auth/logout")[0] == 200
    assert browser.call("GET", "/api/v1/pipelines")[0] in (401, 403)


def test_api_keys_are_shown_once_and_can_be_revoked(stack: LiveStack) -> None:
    status, created = stack.api("POST", "api_keys", {"name": "ci", "scope": "read"})
    assert status == 201 and created["key"].startswith(f"weir_{created['prefix']}_")
    listed = {k["prefix"]: k for k in stack.api("GET", "api_keys")[1]}
    assert "key" not in listed[created["prefix"]]
    assert stack.api("GET", "programs", key=created["key"])[0] == 200
    assert stack.api("DELETE", f"api_keys/{created['prefix']}")[0] == 200
    assert stack.api("GET", "programs", key=created["key"])[0] == 401


def test_the_schema_and_its_browsable_docs_are_served_to_signed_in_users(
    stack: LiveStack,
) -> None:
    committed = json.loads((REPO / "frontend" / "openapi.json").read_text())

    def get(path: str, headers: dict[str, str]) -> tuple[int, str, bytes]:
        request = urllib.request.Request(stack.url + path, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, response.headers["Content-Type"], response.read()
        except urllib.error.HTTPError as err:
            return err.code, err.headers["Content-Type"], err.read()

    key = {"Authorization": f"Bearer {stack.api_key}"}
    status, kind, body = get(
        "/api/v1/schema", {**key, "Accept": "application/vnd.oai.openapi+json"}
    )
    assert (status, kind.split(";")[0]) == (200, "application/vnd.oai.openapi+json")
    assert json.loads(body) == committed, "the served schema is the one the front end is typed from"
    status, kind, body = get("/api/v1/schema", key)  # YAML unless JSON is asked for
    assert status == 200 and yaml.safe_load(body)["paths"] == committed["paths"]

    status, kind, page = get("/api/v1/docs", key)
    assert (status, kind.split(";")[0]) == (200, "text/html")
    html = page.decode()
    assert "/api/v1/schema" in html and "swagger-ui" in html
    assets = re.findall(r'(?:src|href)="(/static/[^"]+)"', html)
    assert assets, "the page loads its Swagger UI from this server (no CDN)"
    for asset in assets:
        assert get(asset, {})[0] == 200, asset

    # A browser signed in with a session reads both as well; nobody else does.
    browser = Browser(stack.url)
    browser.call("GET", "/api/v1/auth/session")
    assert (
        browser.call("POST", "/api/v1/auth/login", {"username": USER, "password": PASSWORD})[0]
        == 200
    )
    for path in ("/api/v1/schema", "/api/v1/docs"):
        with browser.opener.open(stack.url + path, timeout=60) as response:
            assert response.status == 200, path
        status, kind, body = get(path, {})
        assert (status, json.loads(body)["code"]) == (401, "not_authenticated"), path
