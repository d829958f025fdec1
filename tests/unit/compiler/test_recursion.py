"""WITH RECURSIVE (semantic/recursion.py): `anchor UNION [ALL] step`, the step reading the
query once; its columns' names and types; what a recursive query cannot be."""

from __future__ import annotations

from typing import Any

import pytest

from backend.compiler import compile_program
from tests.unit.compiler.compiled import plan_nodes, the_error

DDL = (
    "CREATE TABLE edges (src INT NOT NULL, dst INT NOT NULL);\n"
    "CREATE TABLE t (k INT NOT NULL, name VARCHAR);\n"
)
REACH = (
    "WITH RECURSIVE reach (a, b) AS (SELECT src, dst FROM edges "
    "UNION SELECT reach.a, e.dst FROM reach JOIN edges AS e ON reach.b = e.src) "
)


def compiled(query: str) -> tuple[dict[str, Any], list[tuple[str, str, bool]]]:
    """The view's plan and its columns (name, type, nullable)."""
    result = compile_program(DDL + f"CREATE VIEW v AS {query};")
    assert not result.has_errors, result.diagnostics_json()
    [view] = [v for v in result.to_json()["plan"]["views"] if v["name"] == "v"]
    return view["query"], [(c["name"], c["type"], c["nullable"]) for c in view["columns"]]


def test_the_anchor_and_the_step_are_one_node_the_step_reading_the_rows_added() -> None:
    query, columns = compiled(REACH + "SELECT * FROM reach")
    [recursive] = plan_nodes(query, "recursive")
    assert recursive["name"] == "reach" and recursive["all"] is False
    assert [n["relation"] for n in plan_nodes(recursive["anchor"], "scan")] == ["edges"]
    assert plan_nodes(recursive["anchor"], "recursive_ref") == []
    [ref] = plan_nodes(recursive["step"], "recursive_ref")
    assert ref["name"] == "reach"
    assert [n["relation"] for n in plan_nodes(recursive["step"], "scan")] == ["edges"]
    assert columns == [("a", "INTEGER", False), ("b", "INTEGER", False)]


def test_union_all_keeps_every_row_a_round_makes() -> None:
    query, _ = compiled(
        "WITH RECURSIVE c (n) AS (SELECT k FROM t UNION ALL SELECT n + 1 FROM c WHERE n < 5) "
        "SELECT n, COUNT(*) AS copies FROM c GROUP BY n"
    )
    [recursive] = plan_nodes(query, "recursive")
    assert recursive["all"] is True
    assert plan_nodes(query, "aggregate")  # over the recursive query's rows


def test_columns_are_named_by_the_anchor_without_a_column_list() -> None:
    _, columns = compiled(
        "WITH RECURSIVE c AS (SELECT k AS depth, name FROM t "
        "UNION ALL SELECT depth + 1, name FROM c WHERE depth < 3) SELECT * FROM c"
    )
    assert columns == [("depth", "INTEGER", False), ("name", "VARCHAR", True)]


def test_the_steps_types_widen_the_columns() -> None:
    """A NULL anchor column takes the step's type; an INTEGER one that the step makes
    BIGINT is BIGINT (the step is bound again over the wider columns)."""
    query, columns = compiled(
        "WITH RECURSIVE w AS (SELECT 1 AS n, NULL AS s "
        "UNION ALL SELECT n + CAST(1 AS BIGINT), 'x' FROM w WHERE n < 3) SELECT * FROM w"
    )
    assert columns == [("n", "BIGINT", False), ("s", "VARCHAR", True)]
    [ref] = plan_nodes(query, "recursive_ref")
    assert [(c["type"], c["nullable"]) for c in ref["columns"]] == [
        ("BIGINT", False),
        ("VARCHAR", True),
    ]


def test_a_with_query_of_with_recursive_that_does_not_read_itself_is_a_plain_one() -> None:
    query, _ = compiled(
        "WITH RECURSIVE small AS (SELECT k FROM t WHERE k < 3), "
        "c (n) AS (SELECT k FROM small UNION ALL SELECT n + 1 FROM c WHERE n < 3) "
        "SELECT * FROM c"
    )
    [recursive] = plan_nodes(query, "recursive")
    assert plan_nodes(recursive["anchor"], "filter")  # `small`, inlined


def test_a_recursive_query_may_read_an_earlier_one() -> None:
    query, _ = compiled(
        REACH + ", far (a, b) AS (SELECT a, b FROM reach "
        "UNION SELECT far.a, e.dst FROM far JOIN edges AS e ON far.b = e.src) SELECT * FROM far"
    )
    assert [n["name"] for n in plan_nodes(query, "recursive")] == ["far", "reach"]


def test_recursive_can_name_a_with_query() -> None:
    query, _ = compiled("WITH recursive AS (SELECT k FROM t) SELECT * FROM recursive")
    assert plan_nodes(query, "recursive") == []


@pytest.mark.parametrize(
    ("cte", "code", "message"),
    [
        (
            "c (n) AS (SELECT n FROM c UNION ALL SELECT k FROM t)",
            "SQL211",
            "The anchor of 'c' (before its last UNION) reads 'c'",
        ),
        (
            "c (n) AS (SELECT k FROM t UNION ALL SELECT c.n FROM c, c AS d)",
            "SQL211",
            "The step of 'c' reads it 2 times",
        ),
        (
            "c (n) AS (SELECT k FROM t UNION SELECT n + 1 FROM c WHERE n IN (SELECT n FROM c))",
            "SQL211",
            "The step of 'c' reads it 2 times",
        ),
        (
            "c (n) AS (SELECT k FROM t UNION ALL SELECT n FROM c ORDER BY 1 LIMIT 3)",
            "SQL211",
            "A recursive WITH query is 'anchor UNION [ALL] step'",
        ),
        (
            "c (n) AS (SELECT k FROM t INTERSECT SELECT n FROM c)",
            "SQL211",
            "A recursive WITH query is 'anchor UNION [ALL] step'",
        ),
        (
            "c (n, m) AS (SELECT k FROM t UNION ALL SELECT n FROM c)",
            "SQL210",
            "'c' names 2 columns but its anchor produces 1",
        ),
        (
            "c (n) AS (SELECT k FROM t UNION ALL SELECT 'x' || n FROM c)",
            "SQL215",
            "UNION column 1 ('n') is INTEGER on the left but VARCHAR on the right",
        ),
        (
            "c (n) AS (SELECT k FROM t UNION ALL SELECT n * 1.5 FROM c WHERE n < 10)",
            "SQL206",
            "The column types of 'c' widen with every round of its step",
        ),
        (
            "c (n) AS (SELECT k FROM t UNION ALL SELECT c.n FROM c JOIN SNAPSHOT(t) AS s "
            "ON c.n = s.k)",
            "SQL401",
            "in a recursive WITH query",
        ),
    ],
)
def test_what_a_recursive_query_cannot_be(cte: str, code: str, message: str) -> None:
    found = the_error(DDL + f"CREATE VIEW v AS WITH RECURSIVE {cte} SELECT * FROM c;")
    assert found[0] == code and message in found[1], found


@pytest.mark.parametrize(
    "declaration",
    ["DECLARE RECURSIVE VIEW closure (x INT, y INT)", "CREATE RECURSIVE VIEW closure (x INT)"],
)
def test_feldera_recursive_views_are_refused_with_a_pointer_to_with_recursive(
    declaration: str,
) -> None:
    code, message = the_error(DDL + f"{declaration};\nCREATE VIEW v AS SELECT * FROM t;")
    assert code == "SQL401" and "DECLARE RECURSIVE VIEW" in message and "WITH RECURSIVE" in message
