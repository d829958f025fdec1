"""The published OpenAPI schema, fuzzed with schemathesis: no input gets a 5xx.

Every operation of `/api/v1/schema` is called with generated inputs (valid and
invalid bodies, paths and query strings), as the test user's write key, on a
stack of its own.
"""

from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from tests.live import LiveStack, live_stack

REPO = Path(__file__).parents[2]
# Status classes (2 for 2xx, ...) seen per operation.
STATUSES: defaultdict[str, Counter[int]] = defaultdict(Counter)


@pytest.fixture(scope="module")
def fuzzed_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveStack]:
    yield from live_stack(tmp_path_factory.mktemp("fuzz-state"))


# The schema as published, kept equal to the served one by tests/unit/test_openapi.py.
schema = schemathesis.openapi.from_path(REPO / "frontend" / "openapi.json")


@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_generated_request_gets_a_server_error(
    case: schemathesis.Case, fuzzed_stack: LiveStack
) -> None:
    headers = {"Authorization": f"Bearer {fuzzed_stack.api_key}"}
    if _streams(case):
        # A stream that was opened stays open until the client leaves: waiting for its
        # end would time out. Its status line is what the fuzzing checks.
        try:
            response = case.call(base_url=fuzzed_stack.url, headers=headers, timeout=15)
        except requests.exceptions.ReadTimeout:
            STATUSES[case.operation.label][2] += 1
            return
    else:
        response = case.call(base_url=fuzzed_stack.url, headers=headers, timeout=60)
    STATUSES[case.operation.label][response.status_code // 100] += 1
    case.validate_response(response, checks=[not_a_server_error], headers=headers)


def _streams(case: schemathesis.Case) -> bool:
    """Can the operation answer a stream (JSON lines)?"""
    responses = case.operation.definition.raw.get("responses", {})
    return "application/x-ndjson" in responses.get("200", {}).get("content", {})


def test_the_fuzzing_reached_the_api() -> None:
    """Successes and refusals both happened: the requests reached the operations."""
    assert len(STATUSES) == len(list(schema.get_all_operations()))
    assert sum(counts[2] for counts in STATUSES.values()) >= 10, STATUSES
    assert sum(counts[4] for counts in STATUSES.values()) >= 10, STATUSES
