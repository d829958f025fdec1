"""Scalar subqueries: a subquery's one value joined to the FROM's rows as a column."""

from __future__ import annotations

from typing import Any

import pytest

from backend.compiler import compile_program
from tests.unit.compiler.compiled import errors_of, plan_nodes

DDL = "CREATE TABLE t (k INT, x INT);\nCREATE TABLE u (k INT, y INT);\n"


def _query(sql: str) -> dict[str, Any]:
    result = compile_program(DDL + f"CREATE VIEW v AS {sql};")
    assert not result.has_errors, result.diagnostics_json()
    return dict(result.to_json()["plan"]["views"][0]["query"])


def test_an_aggregate_is_cross_joined_and_referenced_after_the_from_columns() -> None:
    query = _query("SELECT k FROM t WHERE x > (SELECT MAX(y) FROM u)")
    [join] = plan_nodes(query, "join")
    assert (join["kind"], join["condition"]) == ("inner", None)
    assert join["left"]["relation"] == "t" and join["right"]["op"] == "project"
    assert [c["name"] for c in join["columns"]] == ["k", "x", "EXPR$0"]
    [where] = plan_nodes(query, "filter")
    assert where["condition"]["args"][1] == {
        "kind": "column",
        "index": 2,
        "name": "EXPR$0",
        "type": "INTEGER",
    }


def test_a_subquery_that_can_be_empty_is_null_then() -> None:
    # LIMIT 1 can give no row: its value is left-joined to one empty row.
    query = _query("SELECT k, (SELECT y FROM u ORDER BY y LIMIT 1) AS low FROM t")
    outer, value = plan_nodes(query, "join")
    assert outer["right"] is value
    assert value["kind"] == "left" and value["left"]["op"] == "values"
    assert value["columns"] == [{"name": "y", "type": "INTEGER", "nullable": True}]


def test_a_plain_value_is_the_single_value_of_its_rows() -> None:
    """`(SELECT y FROM u ...)`, uncorrelated or correlated by equalities, is the one value
    of its rows: ELEMENT(ARRAY_AGG(y)), NULL for none, and more than one fails the step
    (Calcite's SINGLE_VALUE)."""
    for sql in (
        "SELECT k, (SELECT y FROM u WHERE u.k = 3) AS one FROM t",
        "SELECT k, (SELECT y FROM u WHERE u.k = t.k) AS one FROM t",
    ):
        query = _query(sql)
        [aggregate] = plan_nodes(query, "aggregate")
        assert [a["function"] for a in aggregate["aggregates"]] == ["array_agg"]
        [element] = [
            e
            for p in plan_nodes(query, "project")
            for e in p["exprs"]
            if e.get("function") == "element"
        ]
        assert element["type"] == "INTEGER"
    correlated = _query("SELECT k, (SELECT y FROM u WHERE u.k = t.k) AS one FROM t")
    assert [j["kind"] for j in plan_nodes(correlated, "join")] == ["left"]


def test_grouped_select_groups_by_the_value_it_shows() -> None:
    query = _query("SELECT k, SUM(x) AS s, (SELECT COUNT(*) FROM u) AS n FROM t GROUP BY k")
    grouped, counted = plan_nodes(query, "aggregate")  # the view's, the subquery's
    assert [k["index"] for k in grouped["keys"]] == [0, 2] and counted["keys"] == []
    assert [c["name"] for c in query["columns"]] == ["k", "s", "n"]


@pytest.mark.parametrize(
    ("sql", "code", "message"),
    [
        ("SELECT k, (SELECT DISTINCT y FROM u) FROM t", "SQL401", "can return more than one row"),
        ("SELECT k, (SELECT k, y FROM u LIMIT 1) FROM t", "SQL215", "one column, not 2"),
        ("SELECT COUNT(*), (SELECT MAX(y) FROM u) FROM t", "SQL401", "without GROUP BY"),
        ("SELECT k FROM t WHERE x > (SELECT MAX(z) FROM u)", "SQL202", "Unknown column 'z'"),
    ],
)
def test_subqueries_that_are_not_one_value_are_errors(sql: str, code: str, message: str) -> None:
    errors = errors_of(DDL + f"CREATE VIEW v AS {sql};")
    assert len(errors) == 1 and errors[0][0] == code and message in errors[0][1], errors


def test_an_unknown_name_in_a_scalar_subquery_hints_at_the_outer_query() -> None:
    result = compile_program(
        DDL + "CREATE VIEW v AS SELECT (SELECT MAX(y) FROM u AS w WHERE w.k = z.k) FROM t;"
    )
    [error] = result.diagnostics
    assert error.code == "SQL201" and "outer query" in str(error.hint)


def test_a_correlated_aggregate_is_grouped_by_its_columns_and_left_joined() -> None:
    query = _query("SELECT k, (SELECT MAX(y) FROM u WHERE u.k = t.k AND y > 0) AS m FROM t")
    [join] = plan_nodes(query, "join")
    assert join["kind"] == "left" and join["condition"]["function"] == "eq"
    outer, key = join["condition"]["args"]
    assert (outer["index"], key["index"]) == (0, 2)  # t.k, the group's u.k
    [grouped] = plan_nodes(join["right"], "aggregate")
    assert [k["index"] for k in grouped["keys"]] == [0]  # u.k
    [inner_where] = plan_nodes(join["right"], "filter")
    assert inner_where["condition"]["function"] == "gt"  # y > 0 stays inside
    assert query["exprs"][1]["index"] == 3


def test_a_correlated_count_of_no_rows_is_zero() -> None:
    query = _query("SELECT k, (SELECT COUNT(*) FROM u WHERE u.k = t.k) AS n FROM t")
    count = query["exprs"][1]
    assert count["function"] == "coalesce" and count["args"][1]["value"] == 0
    [column] = [c for c in query["columns"] if c["name"] == "n"]
    assert (column["type"], column["nullable"]) == ("BIGINT", False)


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        (
            "(SELECT MAX(y) FROM u WHERE u.k > t.k GROUP BY u.k)",
            "with GROUP BY, HAVING or DISTINCT related to the outer query other than",
        ),
        ("(SELECT COUNT(*) * 2 FROM u WHERE u.k > t.k)", "COUNT inside an expression"),
        ("(SELECT DISTINCT y FROM u WHERE u.k = t.k)", "not one aggregate value"),
        ("(SELECT COUNT(*) + 1 FROM u WHERE u.k = t.k)", "COUNT inside an expression"),
        ("(SELECT COUNT(*) FROM u WHERE u.k = t.k GROUP BY y)", "grouped by other than"),
    ],
)
def test_correlations_that_are_not_decorrelated_are_not_supported(sql: str, message: str) -> None:
    errors = errors_of(DDL + f"CREATE VIEW v AS SELECT k, {sql} AS n FROM t;")
    assert len(errors) == 1 and errors[0][0] == "SQL401" and message in errors[0][1], errors


def test_other_correlations_aggregate_the_rows_of_each_distinct_outer_value() -> None:
    query = _query("SELECT k, (SELECT COUNT(*) FROM u WHERE u.k > t.k AND y > 0) AS n FROM t")
    [outer_join] = [j for j in plan_nodes(query, "join") if j["kind"] == "left"]
    assert outer_join["condition"]["function"] == "is_not_distinct_from"  # on t.k's value
    [aggregate] = plan_nodes(outer_join["right"], "aggregate")
    assert len(aggregate["keys"]) == 1  # grouped by the distinct values of t.k
    assert plan_nodes(outer_join["right"], "distinct")
    count = query["exprs"][1]
    assert count["function"] == "coalesce" and count["args"][1]["value"] == 0


def test_a_value_naming_the_outer_row_is_computed_per_distinct_outer_value() -> None:
    query = _query("SELECT k, (SELECT MAX(y) - t.k FROM u WHERE u.k = t.k) AS d FROM t")
    [outer_join] = [j for j in plan_nodes(query, "join") if j["kind"] == "left"]
    assert outer_join["condition"]["function"] == "is_not_distinct_from"
    [aggregate] = plan_nodes(outer_join["right"], "aggregate")
    assert len(aggregate["keys"]) == 1  # t.k's distinct values, which the value reads


def test_a_correlated_subquery_grouped_by_its_correlated_column_is_null_for_no_rows() -> None:
    """Calcite's FoodmartBaseTests.testScalar: `(SELECT COUNT(*) FROM u WHERE u.k = t.k
    GROUP BY k)` has one group per outer row, none where no row matches: NULL there,
    where without GROUP BY the count of no rows is 0."""
    grouped = _query("SELECT k, (SELECT COUNT(*) FROM u WHERE u.k = t.k GROUP BY u.k) AS n FROM t")
    plain = _query("SELECT k, (SELECT COUNT(*) FROM u WHERE u.k = t.k) AS n FROM t")
    assert grouped["exprs"][1]["kind"] == "column"
    assert plain["exprs"][1]["function"] == "coalesce"
    assert plan_nodes(grouped, "join") == plan_nodes(plain, "join")
    # LIMIT 1 keeps the one value of an aggregate (Calcite's FoodmartBaseTests.limitTests)
    limited = _query("SELECT k, (SELECT SUM(y) FROM u WHERE u.k = t.k LIMIT 1) AS n FROM t")
    summed = _query("SELECT k, (SELECT SUM(y) FROM u WHERE u.k = t.k) AS n FROM t")
    assert limited == summed


def test_exists_as_a_value_is_whether_its_count_is_above_zero() -> None:
    query = _query(
        "SELECT k, EXISTS (SELECT 1 FROM u WHERE u.k = t.k) AS has FROM t "
        "WHERE NOT EXISTS (SELECT * FROM u WHERE y > 5) OR x > 1"
    )
    has = query["exprs"][1]
    assert has["function"] == "gt" and has["args"][0]["function"] == "coalesce"
    where = plan_nodes(query, "filter")[0]  # the view's (the subquery's is inside)
    alternative = where["condition"]["args"][0]
    assert alternative["function"] == "not" and alternative["args"][0]["function"] == "gt"
    assert [j["kind"] for j in plan_nodes(query, "join")] == ["left", "inner"]


def test_exists_as_a_value_over_a_grouped_query_is_not_supported() -> None:
    errors = errors_of(
        DDL + "CREATE VIEW v AS SELECT k, EXISTS (SELECT k FROM u GROUP BY k) FROM t;"
    )
    assert errors == [
        (
            "SQL401",
            "Not supported yet: EXISTS as a value over a query with GROUP BY, DISTINCT or LIMIT",
        )
    ]


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT k, (SELECT MAX(y) FROM u WHERE u.k = t.k) AS m FROM t GROUP BY k",
        "SELECT x % 2 AS p, (SELECT MAX(y) FROM u WHERE u.k = t.x % 2) FROM t GROUP BY x % 2",
        "SELECT k, COUNT(*) FROM t GROUP BY k HAVING EXISTS (SELECT 1 FROM u WHERE u.k = t.k)",
    ],
)
def test_a_grouped_select_may_correlate_a_subquery_on_its_grouping_keys(sql: str) -> None:
    # Its value is then the same in every row of a group: one more (hidden) key.
    grouped = plan_nodes(_query(sql), "aggregate")[0]
    assert len(grouped["keys"]) == 2


@pytest.mark.parametrize(
    ("sql", "column"),
    [
        ("SELECT k, (SELECT MAX(y) FROM u WHERE u.k = t.x) AS m FROM t GROUP BY k", "x"),
        ("SELECT k, EXISTS (SELECT 1 FROM u WHERE u.y = t.x + 1) AS e FROM t GROUP BY k", "x"),
        ("SELECT x FROM t GROUP BY x HAVING (SELECT COUNT(*) FROM u WHERE u.k = t.k) > 1", "k"),
    ],
)
def test_a_grouped_select_may_not_correlate_a_subquery_on_other_columns(
    sql: str, column: str
) -> None:
    # Its value would differ between the rows of a group: x is not grouped.
    errors = errors_of(DDL + f"CREATE VIEW v AS {sql};")
    assert errors == [
        ("SQL214", f"Column '{column}' must appear in GROUP BY or be used in an aggregate function")
    ]


def test_array_of_a_subquery_is_its_values_aggregated_and_empty_for_none() -> None:
    query = _query(
        "SELECT k, ARRAY(SELECT y FROM u WHERE u.k = t.k ORDER BY y DESC) AS ys, "
        "ARRAY(SELECT y + 1 FROM u) AS all_ys FROM t"
    )
    ys, all_ys = query["exprs"][1:]
    for value in (ys, all_ys):
        assert (value["function"], value["type"]) == ("coalesce", "INTEGER ARRAY")
        assert value["args"][1] == {
            "kind": "call",
            "function": "array",
            "args": [],
            "type": "INTEGER ARRAY",
        }
    [aggregate] = plan_nodes(query, "aggregate")[0]["aggregates"][:1]
    assert aggregate["function"] == "array_agg"


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT ARRAY(SELECT COUNT(*) FROM u) AS a FROM t",
        "SELECT ARRAY(SELECT DISTINCT y FROM u) AS a FROM t",
        "SELECT ARRAY(SELECT * FROM u) AS a FROM t",
    ],
)
def test_array_of_a_subquery_of_other_than_plain_values_is_not_supported(sql: str) -> None:
    assert errors_of(DDL + f"CREATE VIEW v AS {sql};") == [
        (
            "SQL401",
            "Not supported yet: ARRAY(subquery) of other than plain columns or expressions "
            "(no aggregate, GROUP BY, DISTINCT or LIMIT)",
        )
    ]


def test_array_of_a_subquery_of_several_columns_is_an_array_of_rows_named_as_them() -> None:
    result = compile_program(
        DDL + "CREATE VIEW v AS SELECT ARRAY(SELECT y, k AS key, y + 1 FROM u) AS a FROM t;"
    )
    assert not result.has_errors, result.diagnostics_json()
    [view] = [r for r in result.to_json()["catalog"]["relations"] if r["name"] == "v"]
    assert view["columns"][0]["type"] == 'ROW(y INTEGER, key INTEGER, "EXPR$2" INTEGER) ARRAY'
