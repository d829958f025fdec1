"""Aggregates beyond COUNT/SUM/AVG/MIN/MAX: the statistics and the boolean ones."""

from __future__ import annotations

import pytest

from backend.compiler import compile_program
from tests.unit.compiler.compiled import errors_of, plan_nodes

DDL = "CREATE TABLE t (g VARCHAR, x INTEGER, f DOUBLE, ok BOOLEAN NOT NULL, s VARCHAR);\n"


def _compiled(sql: str) -> dict:
    result = compile_program(DDL + f"CREATE VIEW v AS {sql};")
    assert not result.has_errors, result.diagnostics_json()
    return result.to_json()


def _errors(sql: str) -> list[tuple[str, str]]:
    return errors_of(DDL + f"CREATE VIEW v AS {sql};")


def test_statistics_are_doubles_and_boolean_aggregates_booleans_under_every_spelling() -> None:
    compiled = _compiled(
        "SELECT g, STDDEV(x) AS a, STDDEV_SAMP(f) AS b, STDDEV_POP(x) AS c, VARIANCE(x) AS d, "
        "VAR_SAMP(x) AS e, VAR_POP(f) AS h, BOOL_AND(ok) AS i, EVERY(x > 1) AS j, "
        "BOOL_OR(ok) AS k, SOME(ok) AS l FROM t GROUP BY g"
    )
    [view] = [r for r in compiled["catalog"]["relations"] if r["name"] == "v"]
    types = {c["name"]: (c["type"], c["nullable"]) for c in view["columns"]}
    for name in "abcdeh":
        assert types[name] == ("DOUBLE", True), name
    for name in "ijkl":
        assert types[name] == ("BOOLEAN", True), name
    [aggregate] = plan_nodes(compiled["plan"]["views"][0]["query"], "aggregate")
    # Calls that are the same under two spellings (VARIANCE(x), VAR_SAMP(x)) are one.
    assert [a["function"] for a in aggregate["aggregates"]] == [
        "stddev_samp",
        "stddev_samp",
        "stddev_pop",
        "var_samp",
        "var_pop",
        "bool_and",
        "bool_and",
        "bool_or",
    ]


def test_distinct_is_dropped_where_it_changes_nothing() -> None:
    compiled = _compiled("SELECT BOOL_OR(DISTINCT ok) AS b FROM t")
    [aggregate] = plan_nodes(compiled["plan"]["views"][0]["query"], "aggregate")
    assert aggregate["aggregates"][0]["distinct"] is False


def test_statistics_and_boolean_aggregates_run_over_windows() -> None:
    compiled = _compiled(
        "SELECT g, STDDEV_POP(x) OVER (PARTITION BY g) AS a, "
        "BOOL_OR(ok) OVER (PARTITION BY g ORDER BY x ROWS 1 PRECEDING) AS b FROM t"
    )
    [window] = plan_nodes(compiled["plan"]["views"][0]["query"], "window")
    assert [c["function"] for c in window["calls"]] == ["stddev_pop", "bool_or"]


@pytest.mark.parametrize(
    ("sql", "code", "message"),
    [
        ("SELECT STDDEV(s) FROM t", "SQL206", "Cannot apply STDDEV to VARCHAR"),
        ("SELECT BOOL_AND(x) FROM t", "SQL206", "Cannot apply BOOL_AND to INTEGER"),
        ("SELECT VAR_POP(DISTINCT x) FROM t", "SQL401", "VAR_POP(DISTINCT ...)"),
        ("SELECT EVERY(ok, ok) FROM t", "SQL206", "EVERY expects 1 argument, got 2"),
    ],
)
def test_wrong_arguments_are_errors(sql: str, code: str, message: str) -> None:
    errors = _errors(sql)
    assert len(errors) == 1, errors
    assert errors[0][0] == code and message in errors[0][1], errors
