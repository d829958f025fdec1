"""Which new plans keep a pipeline's state (backend/pipelines/compat.py)."""

import doctest

import backend.pipelines.compat
import worker.runner.clocks
from backend.compiler import compile_program
from backend.pipelines.compat import plan_changes

V1 = "CREATE TABLE t (x INT, y INT);\nCREATE VIEW v AS SELECT x FROM t WHERE y > 0;\n"


def plan(sql: str) -> dict:
    result = compile_program(sql).to_json()
    assert result["plan"] is not None, result["diagnostics"]
    return result["plan"]  # type: ignore[no-any-return]


def test_only_additions_keep_the_state() -> None:
    added = plan(V1 + "CREATE TABLE u (z INT);\nCREATE VIEW w AS SELECT x + 1 AS x1 FROM v;\n")
    changes = plan_changes(plan(V1), added)
    assert (changes.incompatible, changes.added_views) == ([], ["w"])
    same_text_differently = plan(V1.replace("y > 0", "y  >  0") + "-- a comment\n")
    assert plan_changes(plan(V1), same_text_differently).incompatible == []


def test_changes_to_what_exists_are_named() -> None:
    assert plan_changes(plan(V1), plan(V1.replace("y > 0", "y > 1"))).incompatible == [
        "view v: query changed"
    ]
    assert plan_changes(plan(V1), plan(V1.replace("y INT", "y BIGINT"))).incompatible[0] == (
        "input t: columns changed"
    )
    removed = plan("CREATE TABLE t (x INT, y INT);\n")
    assert plan_changes(plan(V1), removed).incompatible == ["view v was removed"]


def test_docstring_examples() -> None:
    for module in (backend.pipelines.compat, worker.runner.clocks):
        assert doctest.testmod(module).failed == 0
