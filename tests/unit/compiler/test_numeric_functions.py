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


def test_the_decimal_places_are_an_integer_constant_or_column() -> None:
    result = compile_program(
        DDL + "CREATE VIEW v AS SELECT TRUNC(f, n) AS a, ROUND(d, x) AS b FROM t;"
    )
    assert not result.has_errors, result.diagnostics_json()
    [view] = [r for r in result.to_json()["catalog"]["relations"] if r["name"] == "v"]
    assert [c["type"] for c in view["columns"]] == ["DOUBLE", "DECIMAL(8,3)"]
    assert errors_of(DDL + "CREATE VIEW v AS SELECT ROUND(f, 1.5) FROM t;") == [
        ("SQL206", "ROUND's second argument must be an integer, found DECIMAL(2,1)")
    ]
    assert errors_of(DDL + "CREATE VIEW v AS SELECT TRUNCATE(d, f) FROM t;") == [
        ("SQL206", "TRUNCATE's second argument must be an integer, found DOUBLE")
    ]


def _columns(sql: str) -> dict[str, tuple[str, bool]]:
    result = compile_program(DDL + f"CREATE VIEW v AS {sql};")
    assert not result.has_errors, result.diagnostics_json()
    [view] = [r for r in result.to_json()["catalog"]["relations"] if r["name"] == "v"]
    return {c["name"]: (c["type"], c["nullable"]) for c in view["columns"]}


def test_trigonometry_and_friends_are_doubles_null_only_when_an_argument_is() -> None:
    names = ("SIN", "COS", "TAN", "COT", "ASIN", "ACOS", "ATAN", "SINH", "COSH", "TANH")
    names += ("DEGREES", "RADIANS", "CBRT")
    calls = ", ".join(f"{name}(d) AS {name.lower()}" for name in names)
    columns = _columns(f"SELECT {calls}, ATAN2(x, 1) AS a2, SIN(1) AS one FROM t")
    assert columns == {
        **{name.lower(): ("DOUBLE", True) for name in names},
        "a2": ("DOUBLE", True),
        "one": ("DOUBLE", False),
    }


def test_is_inf_and_is_nan_are_booleans() -> None:
    assert _columns("SELECT IS_INF(f) AS i, IS_NAN(x) AS n FROM t") == {
        "i": ("BOOLEAN", True),
        "n": ("BOOLEAN", True),
    }


def test_pi_is_a_constant_with_or_without_parentheses_unless_a_column_has_the_name() -> None:
    result = compile_program(DDL + "CREATE VIEW v AS SELECT PI AS a, pi() AS b FROM t;")
    assert not result.has_errors, result.diagnostics_json()
    [plan] = result.to_json()["plan"]["views"]
    assert [(e["function"], e["type"]) for e in plan["query"]["exprs"]] == [
        ("pi", "DOUBLE"),
        ("pi", "DOUBLE"),
    ]
    shadowed = "CREATE TABLE c (pi VARCHAR);\nCREATE VIEW v AS SELECT pi AS p FROM c;"
    [view] = [
        r for r in compile_program(shadowed).to_json()["catalog"]["relations"] if r["name"] == "v"
    ]
    assert view["columns"][0]["type"] == "VARCHAR"


def test_bround_rounds_as_round_does_in_the_value_s_type() -> None:
    [view] = [
        r
        for r in compile_program(
            "CREATE TABLE t (d DECIMAL(6,2), i INT);\n"
            "CREATE VIEW v AS SELECT BROUND(d, 1) AS a, BROUND(i, 1) AS b FROM t;"
        ).to_json()["catalog"]["relations"]
        if r["name"] == "v"
    ]
    assert [c["type"] for c in view["columns"]] == ["DECIMAL(6,2)", "INTEGER"]


def test_math_functions_want_numbers_and_their_arity() -> None:
    assert errors_of(DDL + "CREATE VIEW v AS SELECT SIN(TRUE) FROM t;") == [
        ("SQL206", "SIN expects numeric arguments, found BOOLEAN")
    ]
    assert errors_of(DDL + "CREATE VIEW v AS SELECT ATAN2(x) FROM t;") == [
        ("SQL207", "ATAN2 expects 2 arguments, got 1")
    ]
    assert errors_of(DDL + "CREATE VIEW v AS SELECT PI(1) FROM t;") == [
        ("SQL207", "PI expects 0 arguments, got 1")
    ]
    assert errors_of(DDL + "CREATE VIEW v AS SELECT IS_NAN(TRUE) FROM t;") == [
        ("SQL206", "IS_NAN expects numeric arguments, found BOOLEAN")
    ]
