"""The committed OpenAPI schema (the front end's types are generated from it) is current."""

import json
from pathlib import Path

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
    } <= paths
