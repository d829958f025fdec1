"""The published OpenAPI schema, fuzzed with schemathesis: no input gets a 5xx, and
every answer is one the schema declares.

Every operation of `/api/v1/schema` is called with generated inputs (valid and
invalid bodies, paths and query strings), as the test user's write key, on a
stack of its own. Each answer's status must be declared for its operation, its
content type too, and its body must match the declared schema (errors: the
envelope).
"""

from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from tests.live import LiveStack, live_stack

REPO = Path(__file__).parents[2]
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@pytest.fixture(scope="module")
def fuzzed_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveStack]:
    yield from live_stack(tmp_path_factory.mktemp("fuzz-state"))


# The schema as published, kept equal to the served one by tests/unit/test_openapi.py.
schema = schemathesis.openapi.from_path(REPO / "frontend" / "openapi.json")


def test_generated_requests_get_no_server_error_and_only_declared_answers(
    fuzzed_stack: LiveStack,
) -> None:
    """Every operation, one after the other, with generated inputs; then: successes and
    refusals both happened, so the requests reached the operations."""
    statuses: defaultdict[str, Counter[int]] = defaultdict(Counter)  # status classes seen
    operations = [result.ok() for result in schema.get_all_operations()]
    for operation in operations:
        fuzz = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))(
            given(case=operation.as_strategy())(
                lambda case: statuses[case.operation.label].update([_call(case, fuzzed_stack)])
            )
        )
        fuzz()
    assert len(statuses) == len(operations)
    assert sum(counts[2] for counts in statuses.values()) >= 10, statuses
    assert sum(counts[4] for counts in statuses.values()) >= 10, statuses


def _call(case: schemathesis.Case, stack: LiveStack) -> int:
    """Send the case, check it got no 5xx and a declared answer; its status class (2 for
    2xx, ...)."""
    headers = {"Authorization": f"Bearer {stack.api_key}"}
    if _streams(case):
        # A stream that was opened stays open until the client leaves: waiting for its
        # end would time out. Its status line is what the fuzzing checks.
        try:
            response = case.call(base_url=stack.url, headers=headers, timeout=15)
        except requests.exceptions.ReadTimeout:
            return 2
    else:
        response = case.call(base_url=stack.url, headers=headers, timeout=60)
    case.validate_response(response, checks=CHECKS, headers=headers)
    return int(response.status_code // 100)


def _streams(case: schemathesis.Case) -> bool:
    """Can the operation answer a stream (JSON lines)?"""
    responses = case.operation.definition.raw.get("responses", {})
    return "application/x-ndjson" in responses.get("200", {}).get("content", {})
