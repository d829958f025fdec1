"""Arrays (Feldera's): `T ARRAY` columns, ARRAY[...], a[i], CARDINALITY, ARRAY_CONTAINS and
UNNEST in FROM."""

from __future__ import annotations

from typing import Any

from backend.compiler import compile_program
from tests.unit.compiler.compiled import errors_of, plan_nodes

DDL = "CREATE TABLE t (id INT NOT NULL, a INT ARRAY, s VARCHAR ARRAY ARRAY NOT NULL, x INT);\n"


def _columns(sql: str) -> dict[str, tuple[str, bool]]:
    result = compile_program(DDL + sql)
    assert not result.has_errors, result.diagnostics_json()
    [view] = [r for r in result.to_json()["catalog"]["relations"] if r["name"] == "v"]
    return {c["name"]: (c["type"], c["nullable"]) for c in view["columns"]}


def _view_plan(sql: str) -> dict[str, Any]:
    result = compile_program(DDL + sql)
    assert not result.has_errors, result.diagnostics_json()
    [view] = result.to_json()["plan"]["views"]
    return view["query"]


def test_array_columns_elements_and_functions_have_their_types() -> None:
    assert _columns(
        "CREATE VIEW v AS SELECT a, s, a[1] AS first, s[2][1] AS inner_first, "
        "CARDINALITY(a) AS n, ARRAY_LENGTH(s) AS m, ARRAY_CONTAINS(a, x) AS has, "
        "ARRAY[id, x] AS pair, ARRAY[1.5, id] AS mixed FROM t;"
    ) == {
        "a": ("INTEGER ARRAY", True),
        "s": ("VARCHAR ARRAY ARRAY", False),
        "first": ("INTEGER", True),  # NULL past the end
        "inner_first": ("VARCHAR", True),
        "n": ("INTEGER", True),
        "m": ("INTEGER", False),
        "has": ("BOOLEAN", True),
        "pair": ("INTEGER ARRAY", False),
        "mixed": ("DECIMAL(11,1) ARRAY", False),
    }


def test_array_functions_types_and_the_common_element_type() -> None:
    assert _columns(
        "CREATE VIEW v AS SELECT ARRAY_APPEND(a, 3.5) AS app, ARRAY_PREPEND(a, x) AS pre, "
        "ARRAY_POSITION(a, x) AS pos, ARRAY_REMOVE(a, 1) AS rem, ARRAY_SIZE(s) AS n, "
        "SORT_ARRAY(s, FALSE) AS sorted, ARRAY_DISTINCT(a) AS dist, ARRAY_MAX(a) AS top, "
        "ELEMENT(s) AS one, ARRAY_CONCAT(a, ARRAY[1.5]) AS cat, ARRAYS_OVERLAP(a, a) AS ov, "
        "ARRAY_REPEAT(id, 2) AS rep, ARRAY_TO_STRING(s[1], ',') AS joined, "
        "a[SAFE_OFFSET(0)] AS first FROM t;"
    ) == {
        "app": ("DECIMAL(11,1) ARRAY", True),  # NULL where the array is
        "pre": ("INTEGER ARRAY", True),
        "pos": ("BIGINT", True),
        "rem": ("INTEGER ARRAY", True),
        "n": ("INTEGER", False),
        "sorted": ("VARCHAR ARRAY ARRAY", False),
        "dist": ("INTEGER ARRAY", True),
        "top": ("INTEGER", True),
        "one": ("VARCHAR ARRAY", True),
        "cat": ("DECIMAL(11,1) ARRAY", True),
        "ov": ("BOOLEAN", True),
        "rep": ("INTEGER ARRAY", False),
        "joined": ("VARCHAR", True),
        "first": ("INTEGER", True),
    }
    assert _columns(
        "CREATE VIEW v AS SELECT SPLIT(s[1][1], '/') AS p, SPLIT('a,b') AS q FROM t;"
    ) == {
        "p": ("VARCHAR ARRAY", True),
        "q": ("VARCHAR ARRAY", False),
    }
    # a[SAFE_OFFSET(i)] is a[i + 1]
    [project] = plan_nodes(
        _view_plan("CREATE VIEW v AS SELECT a[SAFE_OFFSET(x)] FROM t;"), "project"
    )
    index = project["exprs"][0]["args"][1]
    assert (index["function"], index["args"][1]["value"]) == ("add", 1)


def test_array_function_mistakes() -> None:
    assert errors_of(DDL + "CREATE VIEW v AS SELECT ARRAY_APPEND(a, 'x') FROM t;") == [
        ("SQL206", "ARRAY_APPEND needs a value of type INTEGER, found VARCHAR")
    ]
    assert errors_of(DDL + "CREATE VIEW v AS SELECT ARRAY_UNION(a, s) FROM t;") == [
        ("SQL206", "ARRAY_UNION needs arrays of a common type, found VARCHAR ARRAY ARRAY")
    ]
    assert errors_of(DDL + "CREATE VIEW v AS SELECT ARRAY_TO_STRING(a, ',') FROM t;") == [
        ("SQL206", "ARRAY_TO_STRING joins an array of strings, found INTEGER ARRAY")
    ]
    assert errors_of(DDL + "CREATE VIEW v AS SELECT SORT_ARRAY(a, id > 1) FROM t;") == [
        ("SQL206", "SORT_ARRAY's order must be TRUE or FALSE, found BOOLEAN")
    ]
    assert errors_of(DDL + "CREATE VIEW v AS SELECT ARRAY_REPEAT(1, 'x') FROM t;") == [
        ("SQL206", "ARRAY_REPEAT's count must be an integer, found VARCHAR")
    ]


def test_array_mistakes_are_type_errors() -> None:
    assert errors_of(DDL + "CREATE VIEW v AS SELECT x[1] FROM t;") == [
        ("SQL206", "ITEM expects an array, found INTEGER")
    ]
    assert errors_of(DDL + "CREATE VIEW v AS SELECT a['one'] FROM t;") == [
        ("SQL206", "An array's index must be an integer, found VARCHAR")
    ]
    assert errors_of(DDL + "CREATE VIEW v AS SELECT ARRAY[id, 'x'] FROM t;") == [
        ("SQL206", "ARRAY[...] elements need a common type, found VARCHAR")
    ]
    assert errors_of(DDL + "CREATE VIEW v AS SELECT CARDINALITY(id) FROM t;") == [
        ("SQL206", "CARDINALITY expects an array, found INTEGER")
    ]


def test_unnest_joins_each_row_to_its_elements_and_their_places() -> None:
    sql = (
        "CREATE VIEW v AS SELECT id, e, i FROM t, UNNEST(t.a) WITH ORDINALITY AS u(e, i) "
        "WHERE e > 1;"
    )
    assert _columns(sql) == {
        "id": ("INTEGER", False),
        "e": ("INTEGER", True),
        "i": ("INTEGER", False),
    }
    [unnest] = plan_nodes(_view_plan(sql), "unnest")
    assert unnest["ordinality"] is True
    assert (unnest["array"]["kind"], unnest["array"]["index"]) == ("column", 1)  # t.a
    assert [c["name"] for c in unnest["columns"]][-2:] == ["e", "i"]
    # CROSS JOIN UNNEST and JOIN UNNEST ... ON (its condition filters the pairs)
    on = _view_plan("CREATE VIEW v AS SELECT id, e FROM t JOIN UNNEST(s[1]) AS u(e) ON e <> 'x';")
    assert on["op"] == "project" and on["input"]["op"] == "filter"
    assert on["input"]["input"]["op"] == "unnest"
    assert _columns("CREATE VIEW v AS SELECT element FROM t CROSS JOIN UNNEST(a);") == {
        "element": ("INTEGER", True)
    }


def test_unnest_mistakes() -> None:
    assert errors_of(DDL + "CREATE VIEW v AS SELECT * FROM t, UNNEST(t.x) AS u(e);") == [
        ("SQL206", "UNNEST expects an array or a MAP, found INTEGER")
    ]
    assert errors_of(DDL + "CREATE VIEW v AS SELECT * FROM t, UNNEST(t.a) AS u(e, i);") == [
        ("SQL206", "UNNEST's columns are the element: name 1")
    ]
    assert errors_of(
        DDL + "CREATE VIEW v AS SELECT * FROM t LEFT JOIN UNNEST(t.a) AS u(e) ON e > 1;"
    ) == [("SQL401", "Not supported yet: LEFT JOIN UNNEST with an ON condition other than TRUE")]
    assert errors_of(
        DDL + "CREATE VIEW v AS SELECT * FROM t RIGHT JOIN UNNEST(t.a) AS u(e) ON TRUE;"
    ) == [("SQL401", "Not supported yet: RIGHT JOIN UNNEST")]
    assert errors_of(DDL + "CREATE VIEW v AS SELECT * FROM t, UNNEST(t.a, t.x) AS u(e, f);") == [
        ("SQL206", "UNNEST of several arrays expects arrays, found INTEGER")
    ]
    assert errors_of(DDL + "CREATE VIEW v AS SELECT * FROM UNNEST(t.a) AS u(e);") == [
        ("SQL201", "No table or alias named 't' in FROM")
    ]


def test_unnest_first_in_from_is_the_elements_of_a_constant_array() -> None:
    sql = "CREATE VIEW v AS SELECT * FROM UNNEST(ARRAY[3, NULL]) WITH ORDINALITY AS u(e, i);"
    assert _columns(sql) == {"e": ("INTEGER", True), "i": ("INTEGER", False)}
    [unnest] = plan_nodes(_view_plan(sql), "unnest")
    assert unnest["input"] == {"op": "values", "rows": [[]], "columns": []}


def test_array_insert_takes_an_integer_position_and_a_value_of_the_common_type() -> None:
    assert _columns("CREATE VIEW v AS SELECT ARRAY_INSERT(a, x, 2.5) AS ins FROM t;") == {
        "ins": ("DECIMAL(11,1) ARRAY", True)
    }
    assert errors_of(DDL + "CREATE VIEW v AS SELECT ARRAY_INSERT(a, 'one', 2) AS ins FROM t;") == [
        ("SQL206", "ARRAY_INSERT's position must be an integer, found VARCHAR")
    ]


def test_lambdas_of_transform_and_array_exists_see_their_parameter_only() -> None:
    assert _columns(
        "CREATE VIEW v AS SELECT TRANSFORM(a, e -> e * 1.5) AS scaled, "
        "TRANSFORM(s, row_ -> CARDINALITY(row_)) AS sizes, "
        "ARRAY_EXISTS(a, e -> e > 0) AS positive FROM t;"
    ) == {
        "scaled": ("DECIMAL(13,1) ARRAY", True),
        "sizes": ("INTEGER ARRAY", False),
        "positive": ("BOOLEAN", True),
    }
    view = _view_plan("CREATE VIEW v AS SELECT TRANSFORM(a, e -> e + 1) AS b FROM t;")
    [call] = [e for e in view["exprs"] if e["kind"] == "call"]
    assert call["args"][1] == {
        "kind": "lambda",
        "param": "e",
        "body": {
            "kind": "call",
            "function": "add",
            "args": [
                {"kind": "column", "index": 0, "name": "e", "type": "INTEGER"},
                {"kind": "literal", "value": 1, "type": "INTEGER"},
            ],
            "type": "INTEGER",
        },
        "type": "INTEGER",
    }


def test_lambda_mistakes() -> None:
    def error(select: str) -> list[tuple[str, str]]:
        return [
            (str(code), message)
            for code, message in errors_of(DDL + f"CREATE VIEW v AS SELECT {select} AS r FROM t;")
        ]

    assert error("TRANSFORM(a, 1)") == [
        ("SQL207", "TRANSFORM takes an array and a lambda: TRANSFORM(a, x -> ...)")
    ]
    assert error("TRANSFORM(id, x -> x)") == [
        ("SQL206", "TRANSFORM expects an array, found INTEGER")
    ]
    assert error("ARRAY_EXISTS(a, x -> x + 1)") == [
        ("SQL206", "ARRAY_EXISTS's lambda must be a condition, found INTEGER")
    ]
    assert error("TRANSFORM(a, x -> x + id)") == [
        ("SQL202", "Unknown column 'id' in the lambda 'x -> ...', which sees only 'x'")
    ]
    assert error("UPPER(x -> x)") == [
        ("SQL207", "A lambda (x -> ...) is an argument of TRANSFORM or ARRAY_EXISTS only")
    ]


def test_left_join_unnest_on_true_and_unnest_of_several_arrays() -> None:
    """LEFT JOIN UNNEST(...) ON TRUE keeps a row without elements (its columns NULL);
    UNNEST(a, b) zips the arrays into an array of ROWs, one field each."""
    left = (
        "CREATE VIEW v AS SELECT id, e, i "
        "FROM t LEFT JOIN UNNEST(t.a) WITH ORDINALITY AS u(e, i) ON TRUE;"
    )
    assert _columns(left) == {
        "id": ("INTEGER", False),
        "e": ("INTEGER", True),
        "i": ("INTEGER", True),  # NULL for a row without elements
    }
    [unnest] = plan_nodes(_view_plan(left), "unnest")
    assert unnest["outer"] is True
    zipped = "CREATE VIEW v AS SELECT p, q FROM t, UNNEST(t.a, t.s) AS u(p, q);"
    assert _columns(zipped) == {"p": ("INTEGER", True), "q": ("VARCHAR ARRAY", True)}
    [unnest] = plan_nodes(_view_plan(zipped), "unnest")
    assert "outer" not in unnest
    assert unnest["array"]["function"] == "arrays_zip"
    assert unnest["array"]["type"] == 'ROW("EXPR$0" INTEGER, "EXPR$1" VARCHAR ARRAY) ARRAY'


def test_sequence_is_an_array_of_the_integers_from_start_to_end() -> None:
    result = compile_program(
        "CREATE TABLE t (a TINYINT, b BIGINT NOT NULL, d DOUBLE);\n"
        "CREATE VIEW v AS SELECT SEQUENCE(1, 3) AS c, SEQUENCE(a, b) AS ab FROM t;"
    )
    assert not result.has_errors, result.diagnostics_json()
    [view] = [r for r in result.to_json()["catalog"]["relations"] if r["name"] == "v"]
    assert [(c["type"], c["nullable"]) for c in view["columns"]] == [
        ("INTEGER ARRAY", False),
        ("BIGINT ARRAY", True),
    ]
    assert errors_of(
        "CREATE TABLE t (d DOUBLE);\nCREATE VIEW v AS SELECT SEQUENCE(d, 2) AS s FROM t;"
    ) == [("SQL206", "SEQUENCE counts from one integer to another, found DOUBLE")]
