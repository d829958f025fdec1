"""The examples in the runner's docstrings are run, so they stay true (no Spark needed)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import worker.runner

MODULES = sorted(
    info.name for info in pkgutil.walk_packages(worker.runner.__path__, prefix="worker.runner.")
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
