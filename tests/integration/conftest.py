from collections.abc import Iterator

import pytest
from pyspark.sql import SparkSession

from worker.runner.session import build_session


@pytest.fixture(scope="session")
def spark() -> Iterator[SparkSession]:
    """A real local SparkSession, as the runner builds it."""
    session = build_session("weir-tests", "local[2]")
    yield session
    session.stop()
