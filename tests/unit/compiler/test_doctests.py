"""The examples in the compiler's docstrings are run, so they stay true."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import backend.compiler

MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(backend.compiler.__path__, prefix="backend.compiler.")
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
