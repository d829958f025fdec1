"""Helpers for compiler tests that look at one compiled program."""

from __future__ import annotations

from typing import Any

from backend.compiler import compile_program


def errors_of(text: str) -> list[tuple[str, str]]:
    """The (code, message) of each error the program has."""
    result = compile_program(text)
    return [(d.code, d.message) for d in result.diagnostics if d.severity == "error"]


def the_error(text: str) -> tuple[str, str]:
    """The (code, message) of the program's one error; fails when it has none or several."""
    errors = errors_of(text)
    assert len(errors) == 1, errors
    return errors[0]


def plan_nodes(node: dict[str, Any], op: str) -> list[dict[str, Any]]:
    """The plan nodes `op` in the tree under `node` (itself included), outermost first."""
    found = [node] if node.get("op") == op else []
    for value in node.values():
        for child in value if isinstance(value, list) else [value]:
            if isinstance(child, dict) and "op" in child:
                found.extend(plan_nodes(child, op))
    return found
