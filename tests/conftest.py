from collections.abc import Iterator

import pytest

from tests.live import LiveStack, live_stack


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveStack]:
    """Weir running for real: web server, Celery worker, Spark runners, Postgres, Redis."""
    yield from live_stack(tmp_path_factory.mktemp("weir-state"))
