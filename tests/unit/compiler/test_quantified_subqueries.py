"""`x op ALL (SELECT ...)` and `x op ANY | SOME (SELECT ...)` as conditions of WHERE,
and with `x [NOT] IN (SELECT ...)` as values (under NOT or OR, in a select list)."""

from __future__ import annotations

from typing import Any

import pytest

from backend.compiler import compile_program
from tests.unit.compiler.compiled import errors_of, plan_nodes

DDL = "CREATE TABLE t (id INT, x INT);\nCREATE TABLE u (y INT, s VARCHAR);\n"


def _semi_joins(sql: str) -> list[dict[str, Any]]:
    result = compile_program(DDL + f"CREATE VIEW v AS {sql};")
    assert not result.has_errors, result.diagnostics_json()
    [view] = result.to_json()["plan"]["views"]
    return plan_nodes(view["query"], "semi")


def _condition(join: dict[str, Any]) -> str:
    """The join's condition as a call tree: `not(coalesce(gt(#1, #2), false))`."""

    def shown(expr: dict[str, Any]) -> str:
        if expr["kind"] == "column":
            return f"#{expr['index']}"
        if expr["kind"] == "literal":
            return str(expr["value"]).lower()
        return f"{expr['function']}({', '.join(shown(a) for a in expr['args'])})"

    return shown(join["condition"])


def test_any_is_a_semi_join_on_the_comparison_and_some_is_any() -> None:
    for word in ("ANY", "SOME"):
        [join] = _semi_joins(f"SELECT id FROM t WHERE x <= {word} (SELECT y FROM u) AND id > 1")
        assert join["kind"] == "semi"
        assert _condition(join) == "le(#1, #2)"


def test_rows_in_a_subquery_are_joined_on_every_pair() -> None:
    [join] = _semi_joins("SELECT id FROM t WHERE (x, id) IN (SELECT y, y FROM u)")
    assert join["kind"] == "semi"
    assert _condition(join) == "and(eq(#1, #2), eq(#0, #3))"
    # NOT IN: no subquery row may be equal or unknown.
    [join] = _semi_joins("SELECT id FROM t WHERE (x, id) NOT IN (SELECT y, y FROM u)")
    assert join["kind"] == "anti"
    assert _condition(join) == "coalesce(and(eq(#1, #2), eq(#0, #3)), true)"


def test_all_is_an_anti_join_on_the_comparison_not_being_true() -> None:
    [join] = _semi_joins("SELECT id FROM t WHERE x > ALL (SELECT y FROM u)")
    assert join["kind"] == "anti"
    assert _condition(join) == "not(coalesce(gt(#1, #2), false))"
    [join] = _semi_joins("SELECT id FROM t WHERE x != ALL (SELECT y FROM u)")
    assert _condition(join) == "not(coalesce(ne(#1, #2), false))"


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        (
            "SELECT id FROM t WHERE x > ALL (SELECT y, s FROM u)",
            "The subquery of > ALL must return one column, not 2",
        ),
        (
            "SELECT id FROM t WHERE x = ANY (SELECT s FROM u)",
            "= ANY compares INTEGER with a subquery of VARCHAR",
        ),
        (
            "SELECT id FROM t WHERE (x, id) IN (SELECT y FROM u)",
            "The subquery of IN must return 2 columns, as the row it is compared with has, not 1",
        ),
        (
            "SELECT id FROM t WHERE (x, id) IN (SELECT y, s FROM u)",
            "IN compares INTEGER with a subquery column of VARCHAR",
        ),
        (
            "SELECT (x, id) IN (SELECT y, y FROM u) FROM t",
            "Not supported yet: a row (a, b, ...) IN (subquery) outside WHERE",
        ),
        (
            "SELECT x, COUNT(*) FROM t GROUP BY x HAVING COUNT(*) IN (SELECT y FROM u)",
            "Not supported yet: IN, ANY or ALL (subquery) of an aggregate",
        ),
        (
            # In a grouped SELECT, x must be a grouping key: the value is then one per group.
            "SELECT x, COUNT(*) FROM t GROUP BY x HAVING id IN (SELECT y FROM u)",
            "Column 'id' must appear in GROUP BY or be used in an aggregate function",
        ),
        (
            "SELECT id, x > ALL (SELECT y, s FROM u) FROM t",
            "The subquery of > ALL must return one column, not 2",
        ),
    ],
)
def test_quantified_comparisons_report_their_errors(sql: str, message: str) -> None:
    errors = errors_of(DDL + f"CREATE VIEW v AS {sql};")
    assert [m for _, m in errors] == [message]


def test_all_and_any_stay_ordinary_words_elsewhere() -> None:
    result = compile_program(
        DDL + "CREATE VIEW v AS SELECT x AS any, y AS some FROM t JOIN u ON x = y "
        "UNION ALL SELECT 1, 2;"
    )
    assert not result.has_errors, result.diagnostics_json()


def _value(sql: str) -> dict[str, Any]:
    result = compile_program(DDL + f"CREATE VIEW v AS {sql};")
    assert not result.has_errors, result.diagnostics_json()
    [view] = result.to_json()["plan"]["views"]
    return view["query"]


def test_a_comparison_as_a_value_reads_a_summary_of_the_subquery() -> None:
    # x > ANY: the subquery's rows, values and extremes, in one row joined to each row.
    query = _value("SELECT id, NOT x > ALL (SELECT y FROM u) AS b FROM t")
    [summary] = plan_nodes(query, "aggregate")
    assert [a["function"] for a in summary["aggregates"]] == ["count_star", "count", "min", "max"]
    assert summary["keys"] == [] and plan_nodes(query, "semi") == []
    # IN: the counts, and the subquery's distinct values left-joined on x = y.
    query = _value("SELECT id FROM t WHERE x NOT IN (SELECT y FROM u) OR id > 3")
    [summary] = plan_nodes(query, "aggregate")
    assert [a["function"] for a in summary["aggregates"]] == ["count_star", "count"]
    [left] = [j for j in plan_nodes(query, "join") if j["kind"] == "left"]
    assert left["right"]["op"] == "distinct"


def test_unique_is_not_exists_of_repeated_rows_without_nulls() -> None:
    result = compile_program(
        DDL + "CREATE VIEW v AS SELECT id, UNIQUE (SELECT y, s FROM u) AS distinct_rows FROM t;"
    )
    assert not result.has_errors, result.diagnostics_json()
    [view] = result.to_json()["plan"]["views"]
    counts = [
        call["function"]
        for aggregate in plan_nodes(view["query"], "aggregate")
        for call in aggregate["aggregates"]
    ]
    assert counts == ["count_star", "count_star"]  # the rows of each (y, s); groups of several
    assert errors_of(DDL + "CREATE VIEW v AS SELECT id FROM t WHERE UNIQUE (SELECT * FROM u);") == [
        ("SQL101", "UNIQUE of a query with *: name its columns")
    ]
    assert errors_of(DDL + "CREATE VIEW v AS SELECT unique FROM (SELECT 1 AS unique) AS q;") == []


@pytest.mark.parametrize(
    ("condition", "kind", "compared"),
    [
        ("x IN (SELECT y FROM u WHERE u.s = t.id)", "semi", "eq(#1, #2)"),
        ("x = ANY (SELECT y FROM u WHERE u.y > t.id)", "semi", "eq(#1, #2)"),
        ("x NOT IN (SELECT y FROM u WHERE u.s = t.id)", "anti", "not(coalesce(not(eq(#1, #2)"),
        ("x > ALL (SELECT y FROM u WHERE u.s = t.id)", "anti", "not(coalesce(gt(#1, #2)"),
    ],
)
def test_correlated_in_any_and_all_are_exists(condition: str, kind: str, compared: str) -> None:
    """`x IN (SELECT y ... WHERE c)` is EXISTS (... WHERE c AND x = y); NOT IN and ALL
    are NOT EXISTS of a row that does not make the comparison FALSE, TRUE."""
    DDL_S = "CREATE TABLE t (id INT, x INT);\nCREATE TABLE u (y INT, s INT);\n"
    result = compile_program(DDL_S + f"CREATE VIEW v AS SELECT id FROM t WHERE {condition};")
    assert not result.has_errors, result.diagnostics_json()
    [view] = result.to_json()["plan"]["views"]
    [join] = plan_nodes(view["query"], "semi")
    assert join["kind"] == kind
    last = join["condition"]["args"][-1]  # after the subquery's own WHERE
    assert _condition({"condition": last}).startswith(compared), _condition({"condition": last})


def test_correlated_in_as_a_value_is_decided_by_two_exists() -> None:
    """TRUE where a row makes `x = y` TRUE, NULL where one makes it UNKNOWN, else FALSE;
    each EXISTS reads the outer rows without the other's plan (no doubling)."""
    DDL_S = "CREATE TABLE t (id INT, x INT);\nCREATE TABLE u (y INT, s INT);\n"
    result = compile_program(
        DDL_S + "CREATE VIEW v AS SELECT id, x IN (SELECT y FROM u WHERE u.s = t.id) AS i, "
        "x > ALL (SELECT y FROM u WHERE u.s = t.id) AS a FROM t;"
    )
    assert not result.has_errors, result.diagnostics_json()
    [view] = result.to_json()["plan"]["views"]
    member, every = view["query"]["exprs"][1:]
    assert member["kind"] == "case" and every["kind"] == "case"
    assert [w[1]["value"] for w in member["whens"]] == [True, None]
    assert member["else"]["value"] is False and every["else"]["value"] is True
    # each EXISTS counts over the distinct outer values read from t alone
    distinct = plan_nodes(view["query"], "distinct")
    assert distinct and all(not plan_nodes(d, "join") for d in distinct)
