"""GROUP BY a select list position or alias, QUALIFY an alias (semantic/aliases.py);
SAFE_CAST and TRY_CAST."""

from __future__ import annotations

import pytest

from backend.compiler import compile_program
from tests.unit.compiler.compiled import errors_of, plan_nodes, the_error

DDL = "CREATE TABLE t (k INT, v INT, s VARCHAR);\n"


@pytest.mark.parametrize(
    "group_by",
    ["k % 10", "1", "bucket", "ROLLUP(1)", "ROLLUP(bucket)"],
)
def test_group_by_a_position_or_an_alias_means_its_expression(group_by: str) -> None:
    sql = f"SELECT k % 10 AS bucket, COUNT(*) AS n FROM t GROUP BY {group_by}"
    result = compile_program(DDL + f"CREATE VIEW v AS {sql};")
    assert not result.has_errors, result.diagnostics_json()
    [aggregate, *_] = plan_nodes(result.to_json()["plan"]["views"][0]["query"], "aggregate")
    [key] = aggregate["keys"]
    assert key["function"] == "mod" and key["args"][0]["index"] == 0


@pytest.mark.parametrize("group_by", ["1", "CUBE(1)", "ROLLUP(1)"])
def test_a_position_of_an_aggregate_is_the_number_itself(group_by: str) -> None:
    """Calcite's AggTests (`SELECT COUNT(*) ... GROUP BY CUBE(1)`): the number is a
    constant key, as Calcite and Feldera read a number in GROUP BY."""
    sql = f"SELECT COUNT(*) AS c FROM t GROUP BY {group_by}"
    result = compile_program(DDL + f"CREATE VIEW v AS {sql};")
    assert not result.has_errors, result.diagnostics_json()
    [aggregate, *_] = plan_nodes(result.to_json()["plan"]["views"][0]["query"], "aggregate")
    [key] = aggregate["keys"]
    assert (key["kind"], key["value"]) == ("literal", 1)


def test_a_from_column_wins_over_an_alias_of_its_name() -> None:
    """`v AS k ... GROUP BY k` groups by t's k (standard SQL): v is then not grouped."""
    errors = errors_of(DDL + "CREATE VIEW w AS SELECT v AS k FROM t GROUP BY k;")
    message = "Column 'v' must appear in GROUP BY or be used in an aggregate function"
    assert errors == [("SQL214", message)]


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        ("SELECT k, COUNT(*) FROM t GROUP BY 3", "GROUP BY 3 is no position in the select list"),
        ("SELECT k, COUNT(*) FROM t GROUP BY 0", "GROUP BY 0 is no position in the select list"),
        ("SELECT *, 1 FROM t GROUP BY 1", "GROUP BY 1 is no expression of the select list"),
    ],
)
def test_a_position_outside_the_select_list_is_an_error(sql: str, message: str) -> None:
    found = the_error(DDL + f"CREATE VIEW w AS {sql};")
    assert found[0] == "SQL214" and found[1].startswith(message), found


@pytest.mark.parametrize("cast", ["SAFE_CAST", "TRY_CAST", "safe_cast"])
def test_a_safe_cast_is_nullable_where_cast_is_not(cast: str) -> None:
    result = compile_program(
        "CREATE TABLE n (s VARCHAR NOT NULL);\n"
        f"CREATE VIEW w AS SELECT {cast}(s AS INT) AS i, CAST(s AS INT) AS j FROM n;"
    )
    assert not result.has_errors, result.diagnostics_json()
    compiled = result.to_json()
    [view] = [r for r in compiled["catalog"]["relations"] if r["name"] == "w"]
    assert [(c["type"], c["nullable"]) for c in view["columns"]] == [
        ("INTEGER", True),
        ("INTEGER", False),
    ]
    safe, plain = compiled["plan"]["views"][0]["query"]["exprs"]
    assert safe["function"] == "safe_cast" and plain["kind"] == "cast"


def test_a_safe_cast_allows_only_the_casts_cast_allows() -> None:
    errors = errors_of(DDL + "CREATE VIEW w AS SELECT SAFE_CAST(k > 1 AS DATE) FROM t;")
    assert errors == [("SQL206", "Cannot cast BOOLEAN to DATE")]


def test_a_keyword_after_as_that_ends_the_item_is_its_name() -> None:
    # As Feldera's tests write `SELECT EXISTS (SELECT ...) AS exists`.
    result = compile_program(
        "CREATE TABLE t (id INT);\n"
        "CREATE VIEW v AS SELECT EXISTS (SELECT 1 FROM t) AS exists, 1 AS select FROM t;"
    )
    assert not result.has_errors, result.diagnostics_json()
    [view] = [r for r in result.to_json()["catalog"]["relations"] if r["name"] == "v"]
    assert [c["name"] for c in view["columns"]] == ["exists", "select"]
    assert errors_of("CREATE TABLE t (id INT);\nCREATE VIEW v AS SELECT id AS FROM t;") == [
        ("SQL101", "Expected an alias, found keyword FROM")
    ]


def test_an_item_and_having_may_use_the_aliases_before_them() -> None:
    """Feldera's and BigQuery's lateral aliases: `k % 10 AS b, b * 2 AS d`; HAVING n > 1
    for `COUNT(*) AS n`. A FROM column of the name wins (`v AS k, k + 1` is t's k)."""
    sql = (
        "SELECT k % 10 AS b, b * 2 AS d, COUNT(*) AS n, v AS k, k + 1 AS k1 FROM t "
        "GROUP BY b, v, k HAVING n > 1"
    )
    result = compile_program(DDL + f"CREATE VIEW v AS {sql};")
    assert not result.has_errors, result.diagnostics_json()
    [aggregate, *_] = plan_nodes(result.to_json()["plan"]["views"][0]["query"], "aggregate")
    assert [key["kind"] for key in aggregate["keys"]] == ["call", "column", "column"]
    [having] = plan_nodes(result.to_json()["plan"]["views"][0]["query"], "filter")
    assert having["condition"]["function"] == "gt"
    assert errors_of(DDL + "CREATE VIEW w AS SELECT k AS b, c * 2 AS d FROM t;") == [
        ("SQL202", "Unknown column 'c' in table 't'")
    ]


def test_a_unit_word_after_an_alias_of_its_name_stays_a_unit() -> None:
    ddl = "CREATE TABLE d (ts TIMESTAMP, day DATE);\n"
    sql = (
        "SELECT MONTHNAME(ts) AS month, DATEDIFF(MONTH, day, ts) AS months, "
        "DATE_TRUNC(ts, MONTH) AS start, DATE_PART(MONTH, ts) AS m FROM d"
    )
    result = compile_program(ddl + f"CREATE VIEW v AS {sql};")
    assert not result.has_errors, result.diagnostics_json()
