"""Errors outside any view (no route matched, an unhandled exception) answer the API's
error envelope under /api/, as every view's errors do (backend/core/errors.py)."""

import logging

import pytest
from django.test import Client

from backend.core.apis import HealthApi

ENVELOPE_KEYS = {"message", "code", "details"}


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/nope",
        "/api/v1/pipelines/some-name/restart",
        "/api/v1/pipelines/some-name/events/more",
        "/api/v1/programs/a/versions/not-a-number",
        "/api/v2/pipelines",
        "/api/v1/pipelines/",
    ],
)
def test_an_api_url_without_a_route_answers_404_in_the_envelope(path: str) -> None:
    client = Client()
    for method in (client.get, client.post, client.delete):
        response = method(path)
        assert response.status_code == 404, (method, path)
        assert response["Content-Type"] == "application/json"
        body = response.json()
        assert body == {"message": f"No API endpoint at {path}", "code": "not_found",
                        "details": None}  # fmt: skip


def test_outside_the_api_a_missing_file_is_still_a_page() -> None:
    response = Client().get("/static/no-such-file.js")
    assert response.status_code == 404
    assert not response["Content-Type"].startswith("application/json")


def test_an_unhandled_error_answers_500_in_the_envelope(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(self: HealthApi, request: object) -> None:
        raise RuntimeError("a bug with a secret in it")

    monkeypatch.setattr(HealthApi, "get", broken)
    client = Client(raise_request_exception=False)
    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = client.get("/api/v1/health")
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert set(body) == ENVELOPE_KEYS
    assert (body["code"], body["details"]) == ("server_error", None)
    assert "secret" not in response.content.decode(), "no traceback goes to the client"
    assert any("a bug with a secret" in str(r.exc_info) for r in caplog.records), "it is logged"


@pytest.mark.django_db
def test_the_schema_and_its_docs_refuse_strangers_in_the_envelope() -> None:
    """The schema answers YAML and the docs HTML, but their errors are JSON like all."""
    for path in ("/api/v1/schema", "/api/v1/docs"):
        response = Client().get(path)
        assert (response.status_code, response["Content-Type"]) == (401, "application/json")
        assert response.json()["code"] == "not_authenticated"
