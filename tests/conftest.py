from collections.abc import Generator, Iterator
from typing import Any

import pytest
from xdist.scheduler import LoadScopeScheduling

from tests.live import RUNNING_STACKS, LiveStack, live_stack

# Every test on the in-process Spark session lives here and runs in one test process:
# a JVM's first steps cost several times its later ones (its code is still being
# compiled), so one warm session serves them all.
SPARK_SESSION_TESTS = "tests/integration/runtime/"


class WholeFiles(LoadScopeScheduling):  # type: ignore[misc]
    """Test processes take whole files (each file's stack and pipelines stay in one
    process), and all of SPARK_SESSION_TESTS together."""

    def _split_scope(self, nodeid: str) -> str:
        if nodeid.startswith(SPARK_SESSION_TESTS):
            return SPARK_SESSION_TESTS
        return nodeid.split("::", 1)[0]


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> WholeFiles:
    return WholeFiles(config, log)


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveStack]:
    """Weir running for real: web server, Celery worker, Spark runners, Postgres, Redis."""
    yield from live_stack(tmp_path_factory.mktemp("weir-state"))


@pytest.fixture(autouse=True, scope="module")
def _pipelines_stopped_after_each_module() -> Iterator[None]:
    """A module's pipelines stop when it is done, so they do not run beside the next ones."""
    yield
    for live in RUNNING_STACKS:
        live.stop_pipelines()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A failed test on a live stack reports what its runners logged last."""
    report = yield
    live = getattr(item, "funcargs", {}).get("stack")
    if report.failed and isinstance(live, LiveStack):
        report.sections.append(("runner logs", live.runner_logs()))
    return report
