"""MAP types and values (Feldera's): `MAP<K, V>` columns, MAP[k, v, ...], m[k],
CARDINALITY, MAP_CONCAT, MAP_CONTAINS_KEY, MAP_KEYS, MAP_VALUES and UNNEST of a map."""

from __future__ import annotations

import pytest

from backend.compiler import compile_program
from tests.unit.compiler.compiled import errors_of, plan_nodes

DDL = "CREATE TABLE t (id INT NOT NULL, m MAP<VARCHAR, INT>, n MAP<INT, DECIMAL(5,2)> NOT NULL);\n"


def _columns(sql: str) -> dict[str, tuple[str, bool]]:
    result = compile_program(DDL + sql)
    assert not result.has_errors, result.diagnostics_json()
    [view] = [r for r in result.to_json()["catalog"]["relations"] if r["name"] == "v"]
    return {c["name"]: (c["type"], c["nullable"]) for c in view["columns"]}


def test_map_columns_values_and_functions_have_their_types() -> None:
    assert _columns(
        "CREATE VIEW v AS SELECT m, n, m['x'] AS x, n[1] AS one, CARDINALITY(n) AS size, "
        "MAP_KEYS(m) AS keys, MAP_VALUES(n) AS vals, MAP_CONTAINS_KEY(n, 2) AS has, "
        "MAP_CONCAT(m, MAP['y', 2.5]) AS more, MAP['hi', id, 'lo', NULL] AS made, "
        "CAST(NULL AS MAP<VARCHAR, INT ARRAY>) AS nothing FROM t;"
    ) == {
        "m": ("MAP<VARCHAR, INTEGER>", True),
        "n": ("MAP<INTEGER, DECIMAL(5,2)>", False),
        "x": ("INTEGER", True),  # NULL where the key is not there
        "one": ("DECIMAL(5,2)", True),
        "size": ("INTEGER", False),
        "keys": ("VARCHAR ARRAY", True),
        "vals": ("DECIMAL(5,2) ARRAY", False),
        "has": ("BOOLEAN", False),
        "more": ("MAP<VARCHAR, DECIMAL(11,1)>", True),  # the values' common type
        "made": ("MAP<VARCHAR, INTEGER>", False),
        "nothing": ("MAP<VARCHAR, INTEGER ARRAY>", True),
    }


def test_maps_compare_group_and_unnest_into_keys_and_values() -> None:
    columns = _columns(
        "CREATE VIEW v AS SELECT m, COUNT(*) AS c, k, val, i "
        "FROM t, UNNEST(t.m) WITH ORDINALITY AS u(k, val, i) "
        "WHERE m < MAP['v', 22] GROUP BY m, k, val, i;"
    )
    assert columns == {
        "m": ("MAP<VARCHAR, INTEGER>", True),
        "c": ("BIGINT", False),
        "k": ("VARCHAR", False),  # a key is never NULL
        "val": ("INTEGER", True),
        "i": ("INTEGER", False),
    }
    result = compile_program(DDL + "CREATE VIEW v AS SELECT * FROM t CROSS JOIN UNNEST(t.n);")
    [view] = result.to_json()["plan"]["views"]
    [unnest] = plan_nodes(view["query"], "unnest")
    assert [c["name"] for c in unnest["columns"]][-2:] == ["key", "value"]


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        (
            "SELECT MAP['a', 1, 'b'] AS x FROM t",
            "MAP[...] takes keys and values in pairs, found VARCHAR",
        ),
        ("SELECT MAP['a', 1, 2, 3] AS x FROM t", "MAP[...] keys need a common type, found INTEGER"),
        ("SELECT MAP[NULL, 1] AS x FROM t", "MAP[...] needs keys that are not NULL, found NULL"),
        (
            "SELECT MAP['a', NULL] AS x FROM t",
            "MAP[...] needs values that are not NULL, found NULL",
        ),
        ("SELECT MAP['a', 1, NULL, 2] AS x FROM t", "A MAP's key cannot be NULL, found NULL"),
        (
            "SELECT MAP[m, 1] AS x FROM t",
            "A MAP's keys cannot be MAPs, found MAP<VARCHAR, INTEGER>",
        ),
        (
            "SELECT m[DATE '2020-01-01'] AS x FROM t",
            "The MAP's keys are of type VARCHAR, found DATE",
        ),
        (
            "SELECT MAP_CONCAT(m, n) AS x FROM t",
            "MAP_CONCAT needs MAPs of a common type, found MAP<INTEGER, DECIMAL(5,2)>",
        ),
        ("SELECT MAP_KEYS(id) AS x FROM t", "MAP_KEYS expects a MAP, found INTEGER"),
        ("SELECT k FROM t, UNNEST(t.m) AS u(k)", "UNNEST's columns are the key, the value: name 2"),
    ],
)
def test_map_mistakes_are_type_errors(sql: str, message: str) -> None:
    assert errors_of(DDL + f"CREATE VIEW v AS {sql};") == [("SQL206", message)]


def test_a_map_of_maps_as_keys_is_refused() -> None:
    assert errors_of("CREATE TABLE u (m MAP<MAP<INT, INT>, INT>);") == [
        ("SQL208", "A MAP's keys cannot be MAPs")
    ]


def test_unnest_of_an_array_of_rows_makes_a_column_of_each_field() -> None:
    result = compile_program(
        "CREATE TABLE p (id INT, pts ROW(x INT, y VARCHAR NULL) ARRAY);\n"
        "CREATE VIEW v AS SELECT id, x, y FROM p, UNNEST(p.pts) AS u;"
    )
    assert not result.has_errors, result.diagnostics_json()
    [view] = [r for r in result.to_json()["catalog"]["relations"] if r["name"] == "v"]
    assert [(c["name"], c["type"], c["nullable"]) for c in view["columns"]] == [
        ("id", "INTEGER", True),
        ("x", "INTEGER", True),  # NULL where the element is
        ("y", "VARCHAR", True),
    ]
    assert errors_of(
        "CREATE TABLE p (pts ROW(x INT, y INT) ARRAY);\n"
        "CREATE VIEW v AS SELECT a FROM p, UNNEST(p.pts) AS u(a);"
    ) == [("SQL206", "UNNEST's columns are the fields x, y: name 2")]
