"""The committed OpenAPI schema (the front end's types are generated from it) is current."""

import json
from pathlib import Path
from typing import Any

from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema

COMMITTED = Path(__file__).resolve().parents[2] / "frontend" / "openapi.json"


def current_schema() -> dict:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return json.loads(json.dumps(schema, default=str))


def test_schema_is_valid_openapi() -> None:
    validate_schema(current_schema())


def test_committed_schema_matches_the_api() -> None:
    assert json.loads(COMMITTED.read_text()) == current_schema(), (
        "frontend/openapi.json is stale: run `make openapi`"
    )


def test_every_api_path_of_the_contract_is_in_the_schema() -> None:
    paths = set(current_schema()["paths"])
    assert {
        "/api/v1/validate",
        "/api/v1/programs",
        "/api/v1/programs/{name}",
        "/api/v1/programs/{name}/versions",
        "/api/v1/pipelines",
        "/api/v1/pipelines/{name}",
        "/api/v1/pipelines/{name}/{action}",
        "/api/v1/pipelines/{name}/ingress/{relation}",
        "/api/v1/pipelines/{name}/deltas",
        "/api/v1/pipelines/{name}/ingress/{relation}/bound",
        "/api/v1/pipelines/{name}/egress/{view}",
        "/api/v1/pipelines/{name}/query",
        "/api/v1/pipelines/{name}/stats",
        "/api/v1/pipelines/{name}/metrics",
        "/api/v1/metrics",
        "/api/v1/health",
        "/api/v1/programs/{name}/versions/{version}",
        "/api/v1/pipelines/{name}/deploy",
        "/api/v1/pipelines/{name}/events",
        "/api/v1/pipelines/{name}/late_rows",
        "/api/v1/pipelines/{name}/pumps",
        "/api/v1/pipelines/{name}/pumps/{pump}/{action}",
        "/api/v1/api_keys",
        "/api/v1/api_keys/{prefix}",
        "/api/v1/teams",
    } <= paths


def operations() -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method, path, operation)
        for path, methods in current_schema()["paths"].items()
        for method, operation in methods.items()
    ]


def test_lifecycle_and_pump_actions_are_enums_of_the_path() -> None:
    paths = current_schema()["paths"]
    for path in (
        "/api/v1/pipelines/{name}/{action}",
        "/api/v1/pipelines/{name}/pumps/{pump}/{action}",
    ):
        [action] = [p for p in paths[path]["post"]["parameters"] if p["name"] == "action"]
        assert action["in"] == "path" and action["required"]
        assert sorted(action["schema"]["enum"]) == ["pause", "resume", "start", "stop"]


def test_every_operation_declares_the_errors_it_can_answer_in_the_envelope() -> None:
    """What authentication, CSRF, bodies, names and the database refuse, everywhere."""
    open_operations = {"auth_session", "auth_login", "health"}
    for method, path, operation in operations():
        responses = operation["responses"]
        where = f"{method.upper()} {path}"
        expected = {"503"}
        if operation["operationId"] not in open_operations:
            expected.add("401")
        if method in ("post", "put", "patch", "delete"):
            expected.add("403")
        if "{" in path:
            expected.add("404")
        if "requestBody" in operation:
            expected |= {"400", "413"}
        assert expected <= set(responses), (where, expected - set(responses))
        for code, response in responses.items():
            if int(code) >= 400:
                content = response["content"]["application/json"]["schema"]
                assert content == {"$ref": "#/components/schemas/Error"}, (where, code)
                assert response["description"], (where, code)
    lifecycle = current_schema()["paths"]["/api/v1/pipelines/{name}/{action}"]["post"]
    assert {"400", "409"} <= set(lifecycle["responses"]), "program errors, wrong state"
