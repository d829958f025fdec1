"""GROUP BY GROUPING SETS, ROLLUP and CUBE: a union of one aggregate per set, with
NULL for the keys a set leaves out."""

from __future__ import annotations

from typing import Any

import pytest

from backend.compiler import compile_program
from tests.unit.compiler.compiled import errors_of, plan_nodes

DDL = "CREATE TABLE t (a VARCHAR NOT NULL, b INTEGER NOT NULL, x INTEGER);\n"


def _view(sql: str) -> tuple[dict[str, Any], dict[str, bool]]:
    result = compile_program(DDL + f"CREATE VIEW v AS {sql};")
    assert not result.has_errors, result.diagnostics_json()
    [view] = result.to_json()["plan"]["views"]
    [relation] = [r for r in result.to_json()["catalog"]["relations"] if r["name"] == "v"]
    return view["query"], {c["name"]: c["nullable"] for c in relation["columns"]}


def _sets(query: dict[str, Any]) -> list[int]:
    """How many keys each set's aggregate groups by, in the union's order."""
    return [len(node["keys"]) for node in plan_nodes(query, "aggregate")]


@pytest.mark.parametrize(
    ("group_by", "sets"),
    [
        ("ROLLUP(a, b)", [2, 1, 0]),
        ("CUBE(a, b)", [2, 1, 1, 0]),
        ("GROUPING SETS ((a, b), (b), ())", [2, 1, 0]),
        ("GROUPING SETS (a, (b))", [1, 1]),
        ("a, ROLLUP(b)", [2, 1]),
        ("ROLLUP(a), CUBE(b)", [2, 1, 1, 0]),
        ("a, ROLLUP(a, b)", [2, 1, 1]),  # `a` is one key, in every set
        ("ROLLUP((a, b))", [2, 0]),  # a composite element: its keys together
        ("CUBE((a, b), x)", [3, 2, 1, 0]),
        # GROUPING SETS, ROLLUP or CUBE inside GROUPING SETS: their sets (Calcite's)
        ("GROUPING SETS (a, GROUPING SETS ((a, b), b), ROLLUP(b))", [1, 2, 1, 1, 0]),
    ],
)
def test_each_set_is_an_aggregate_of_a_union(group_by: str, sets: list[int]) -> None:
    query, _ = _view(f"SELECT a, b, COUNT(*) AS n FROM t GROUP BY {group_by}")
    assert _sets(query) == sets
    assert len(plan_nodes(query, "union")) == 1


def test_group_by_empty_parentheses_is_the_grand_total() -> None:
    """`GROUP BY ()` (Calcite's AggTests): the one empty set, a row even over no rows, as
    without GROUP BY; beside other keys it adds none."""
    for group_by in ("()", "DISTINCT ()"):
        query, _ = _view(f"SELECT COUNT(*) AS n FROM t WHERE b = 20 GROUP BY {group_by}")
        assert _sets(query) == [0]
    query, _ = _view("SELECT a, COUNT(*) AS n FROM t GROUP BY a, ()")
    assert _sets(query) == [1]
    assert plan_nodes(query, "union") == []  # one set: its aggregate alone
    # so a scalar subquery of it has one row, as an aggregate without GROUP BY has
    query, _ = _view("SELECT a, (SELECT COUNT(*) FROM t GROUP BY ()) AS n FROM t")
    assert len(plan_nodes(query, "aggregate")) == 1


def test_group_id_numbers_the_repeats_of_a_grouping_set() -> None:
    """Calcite's GROUP_ID() (its AggScottTests): 0 in the rows of a set's first
    occurrence, 1 in those of its second, ...; the same keys in another order are the
    same set; without grouping sets, 0."""
    query, nullable = _view(
        "SELECT b, GROUP_ID() AS g, COUNT(*) AS n FROM t "
        "GROUP BY GROUPING SETS ((a, b), b, (), (b, a), ())"
    )
    projections = [
        node for node in plan_nodes(query, "project") if node["input"]["op"] == "aggregate"
    ]
    assert [p["exprs"][-1]["value"] for p in projections] == [0, 0, 0, 1, 1]
    assert nullable == {"b": True, "g": False, "n": False}
    query, _ = _view("SELECT GROUP_ID() AS g, SUM(b) AS s FROM t")
    assert query["exprs"][0] == {"kind": "literal", "value": 0, "type": "BIGINT"}
    assert errors_of(DDL + "CREATE VIEW v AS SELECT GROUP_ID(a) FROM t GROUP BY a;") == [
        ("SQL207", "GROUP_ID takes no arguments")
    ]


def test_a_key_some_set_leaves_out_is_nullable() -> None:
    _, nullable = _view("SELECT a, b, SUM(b) AS s FROM t GROUP BY a, ROLLUP(b)")
    assert nullable == {"a": False, "b": True, "s": True}
    _, nullable = _view("SELECT a, COUNT(*) AS n FROM t GROUP BY a")
    assert nullable == {"a": False, "n": False}


def test_having_and_expressions_of_keys_apply_to_every_set() -> None:
    query, nullable = _view(
        "SELECT UPPER(a) AS u, b % 2 AS odd, MAX(x) AS m FROM t "
        "GROUP BY GROUPING SETS ((a, b % 2), ()) HAVING COUNT(*) > 1"
    )
    assert _sets(query) == [2, 0]
    assert [n["op"] for n in [query, query["input"]]] == ["project", "filter"]
    assert nullable == {"u": True, "odd": True, "m": True}


def test_grouping_sets_stay_column_names_elsewhere() -> None:
    result = compile_program(
        "CREATE TABLE g (grouping INT, rollup INT, cube INT);\n"
        "CREATE VIEW v AS SELECT grouping, rollup, cube FROM g GROUP BY grouping, rollup, cube;"
    )
    assert not result.has_errors, result.diagnostics_json()


def test_a_column_outside_every_set_is_not_grouped() -> None:
    assert errors_of(DDL + "CREATE VIEW v AS SELECT x FROM t GROUP BY ROLLUP(a, b);") == [
        ("SQL214", "Column 'x' must appear in GROUP BY or be used in an aggregate function")
    ]


def test_each_set_says_which_keys_it_leaves_out_when_grouping_is_read() -> None:
    query, nullable = _view(
        "SELECT a, GROUPING(a, b) AS both_, GROUPING_ID(b) AS b_out, COUNT(*) AS n FROM t "
        "GROUP BY ROLLUP(a, b)"
    )
    # Bit i is key i: the set (a, b) leaves nothing out, (a) leaves out b, () both.
    left_out = [node["exprs"][-2]["value"] for node in plan_nodes(query, "union")[0]["inputs"]]
    assert left_out == [0, 2, 3]
    assert nullable == {"a": True, "both_": False, "b_out": False, "n": False}
    plain, _ = _view("SELECT a, GROUPING(a) AS g FROM t GROUP BY a")
    assert plain["exprs"][1] == {"kind": "literal", "value": 0, "type": "BIGINT"}
    ungrouped, _ = _view("SELECT a, b, COUNT(*) AS n FROM t GROUP BY ROLLUP(a, b)")
    assert all(len(n["exprs"]) == 3 for n in plan_nodes(ungrouped, "union")[0]["inputs"])


@pytest.mark.parametrize(
    ("sql", "error"),
    [
        (
            "SELECT a, GROUPING(x) FROM t GROUP BY ROLLUP(a)",
            ("SQL214", "GROUPING(...) needs a GROUP BY, and GROUP BY keys as its arguments"),
        ),
        (
            "SELECT GROUPING(a) FROM t",
            ("SQL214", "GROUPING(...) needs a GROUP BY, and GROUP BY keys as its arguments"),
        ),
        (
            "SELECT a FROM t WHERE GROUPING(a) = 0 GROUP BY a",
            (
                "SQL213",
                "GROUPING(...) is allowed only in the SELECT list or HAVING of a grouped query",
            ),
        ),
        ("SELECT a, GROUPING() FROM t GROUP BY a", ("SQL207", "GROUPING expects GROUP BY keys")),
    ],
)
def test_grouping_reads_only_keys_of_a_grouped_query(sql: str, error: tuple[str, str]) -> None:
    assert errors_of(DDL + f"CREATE VIEW v AS {sql};") == [error]
