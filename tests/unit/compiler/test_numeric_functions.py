"""ROUND and TRUNCATE (TRUNC): a number to n decimal places, of the number's type."""

from __future__ import annotations

from backend.compiler import compile_program
from tests.unit.compiler.compiled import errors_of

DDL = "CREATE TABLE t (x INTEGER, d DECIMAL(8, 3), f DOUBLE, n INTEGER);\n"


def test_truncate_and_trunc_keep_their_argument_s_type() -> None:
    result = compile_program(
        DDL + "CREATE VIEW v AS SELECT TRUNCATE(d, 1) AS a, TRUNC(f) AS b, "
        "TRUNCATE(x, -1) AS c, ROUND(d, 2) AS e FROM t;"
    )
    assert not result.has_errors, result.diagnostics_json()
    [view] = [r for r in result.to_json()["catalog"]["relations"] if r["name"] == "v"]
    assert [c["type"] for c in view["columns"]] == [
        "DECIMAL(8,3)",
        "DOUBLE",
        "INTEGER",
        "DECIMAL(8,3)",
    ]
    [plan] = result.to_json()["plan"]["views"]
    assert [e["function"] for e in plan["query"]["exprs"]] == [
        "truncate",
        "truncate",
        "truncate",
        "round",
    ]


def test_the_decimal_places_are_an_integer_constant() -> None:
    assert errors_of(DDL + "CREATE VIEW v AS SELECT TRUNC(f, n) FROM t;") == [
        ("SQL206", "TRUNC's second argument must be an integer constant, found INTEGER")
    ]
    assert errors_of(DDL + "CREATE VIEW v AS SELECT ROUND(f, 1.5) FROM t;") == [
        ("SQL206", "ROUND's second argument must be an integer constant, found DECIMAL(2,1)")
    ]
