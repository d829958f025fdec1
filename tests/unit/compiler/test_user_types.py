"""CREATE TYPE: a name for a ROW type of nullable fields (or for any type), usable in
the statements after it wherever a type is written, and a ROW type's constructor."""

from __future__ import annotations

import pytest

from backend.compiler import compile_program
from backend.compiler.cache import CompileCache
from tests.unit.compiler.compiled import errors_of

POINT = "CREATE TYPE point AS (x INT NOT NULL, y INT, label VARCHAR NULL);\n"


def _columns(sql: str, relation: str) -> list[tuple[str, str, bool]]:
    result = compile_program(sql)
    assert not result.has_errors, result.diagnostics_json()
    [found] = [r for r in result.to_json()["catalog"]["relations"] if r["name"] == relation]
    return [(c["name"], c["type"], c["nullable"]) for c in found["columns"]]


def test_a_type_names_its_row_type_in_columns_functions_and_casts() -> None:
    program = POINT + (
        "CREATE TYPE points AS point ARRAY;\n"
        "CREATE TABLE t (p POINT, ps points, s VARCHAR);\n"
        "CREATE FUNCTION moved(p point) RETURNS point AS "
        "point(COALESCE(p.x, 0) + 1, p.y, p.label);\n"
        "CREATE VIEW v AS SELECT t.p.x AS x, moved(p) AS m, point(1, NULL, s) AS made, "
        "CAST(ROW(2, 3, 'a') AS point) AS cast_row, ps[1] AS first FROM t;"
    )
    point = "ROW(x INTEGER NOT NULL, y INTEGER, label VARCHAR)"
    assert _columns(program, "t") == [
        ("p", point, True),
        ("ps", f"{point} ARRAY", True),
        ("s", "VARCHAR", True),
    ]
    assert _columns(program, "v") == [
        ("x", "INTEGER", True),
        ("m", point, False),
        ("made", point, False),
        ("cast_row", point, False),
        ("first", point, True),
    ]


@pytest.mark.parametrize(
    ("sql", "error"),
    [
        (
            "CREATE TYPE int AS (x INT);",
            ("SQL208", "INT is a built-in type: a type of the program needs a name of its own"),
        ),
        (POINT + "CREATE TYPE point AS (z INT);", ("SQL208", "Type POINT is already defined")),
        ("CREATE TABLE t (p point);\n" + POINT, ("SQL208", "Unknown type POINT")),
        (POINT + "CREATE TABLE t (p point(2));", ("SQL208", "Type POINT takes no parameters")),
        (
            POINT + "CREATE VIEW v AS SELECT point(1, 2) AS p;",
            ("SQL207", "POINT expects 3 arguments, one a field, got 2"),
        ),
        (
            POINT + "CREATE VIEW v AS SELECT point(CAST(NULL AS INT), 2, 'a') AS p;",
            ("SQL206", "POINT's field x is INTEGER NOT NULL; found INTEGER that can be NULL"),
        ),
        (
            POINT + "CREATE VIEW v AS SELECT point(DATE '2020-01-01', 2, 'a') AS p;",
            ("SQL206", "POINT's field x is INTEGER NOT NULL; found DATE"),
        ),
        (
            "CREATE TYPE ids AS INT ARRAY;\nCREATE VIEW v AS SELECT ids(1) AS i;",
            ("SQL207", "IDS is the program's name for INTEGER ARRAY, not a ROW type with fields"),
        ),
    ],
)
def test_user_type_mistakes(sql: str, error: tuple[str, str]) -> None:
    assert errors_of(sql) == [error]


def test_a_type_whose_definition_failed_is_silent_where_used() -> None:
    assert errors_of(
        "CREATE TYPE broken AS (x NOSUCH);\nCREATE TABLE t (b broken);\n"
        "CREATE VIEW v AS SELECT broken(1) AS b FROM t;"
    ) == [("SQL208", "Unknown type NOSUCH")]


def test_an_edit_of_a_type_changes_what_the_cache_compiled_with_it() -> None:
    cache = CompileCache()
    before = POINT + "CREATE TABLE t (p point);\nCREATE VIEW v AS SELECT t.p.y AS y FROM t;\n"
    after = before.replace("y INT,", "y DOUBLE,")
    for program, y in ((before, "INTEGER"), (after, "DOUBLE"), (before, "INTEGER")):
        cached = compile_program(program, cache)
        assert cached.to_json() == compile_program(program).to_json()
        [view] = [r for r in cached.to_json()["catalog"]["relations"] if r["name"] == "v"]
        assert view["columns"][0]["type"] == y
