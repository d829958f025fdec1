"""LATERAL subqueries, CROSS APPLY and OUTER APPLY (semantic/lateral.py): decorrelated
into joins on the subquery's equalities with the items left of it."""

from __future__ import annotations

import pytest

from backend.compiler import compile_program
from tests.unit.compiler.compiled import plan_nodes, the_error

DDL = (
    "CREATE TABLE emp (name VARCHAR, deptno INT, sal INT);\n"
    "CREATE TABLE dept (deptno INT, dname VARCHAR NOT NULL);\n"
)


def compiled(query: str) -> tuple[dict, list[tuple[str, str, bool]]]:
    result = compile_program(DDL + f"CREATE VIEW v AS {query};")
    assert not result.has_errors, result.diagnostics_json()
    plan = result.to_json()["plan"]["views"][0]["query"]
    [view] = [r for r in result.to_json()["catalog"]["relations"] if r["name"] == "v"]
    return plan, [(c["name"], c["type"], c["nullable"]) for c in view["columns"]]


@pytest.mark.parametrize(
    ("from_", "kind"),
    [
        ("dept d CROSS APPLY (SELECT name FROM emp WHERE emp.deptno = d.deptno) e", "inner"),
        ("dept d, LATERAL (SELECT name FROM emp WHERE d.deptno = emp.deptno) e", "inner"),
        ("dept d CROSS JOIN LATERAL (SELECT name FROM emp WHERE emp.deptno = d.deptno) e", "inner"),
        ("dept d OUTER APPLY (SELECT name FROM emp WHERE emp.deptno = d.deptno) e", "left"),
        (
            "dept d LEFT JOIN LATERAL (SELECT name FROM emp WHERE emp.deptno = d.deptno) e ON TRUE",
            "left",
        ),
    ],
)
def test_a_correlated_subquery_is_joined_on_its_equalities(from_: str, kind: str) -> None:
    plan, columns = compiled(f"SELECT d.dname, e.name FROM {from_}")
    joins = plan_nodes(plan, "join")
    assert [j["kind"] for j in joins] == [kind]
    condition = joins[0]["condition"]
    assert condition["function"] == "eq"
    # d.deptno (column 0 of dept) with the subquery's hidden key, after its own column
    assert [a["index"] for a in condition["args"]] == [0, 3]
    assert columns == [("dname", "VARCHAR", False), ("name", "VARCHAR", True)]


def test_an_aggregate_without_group_by_has_a_row_for_every_left_row() -> None:
    plan, columns = compiled(
        "SELECT d.dname, s.n, s.total FROM dept d CROSS APPLY "
        "(SELECT COUNT(*) AS n, SUM(sal) AS total FROM emp WHERE emp.deptno = d.deptno) s"
    )
    [join] = plan_nodes(plan, "join")
    assert join["kind"] == "left"  # a department without employees: 0 and NULL
    [aggregate] = plan_nodes(plan, "aggregate")
    assert len(aggregate["keys"]) == 1  # grouped by emp.deptno
    assert columns == [
        ("dname", "VARCHAR", False),
        ("n", "BIGINT", False),  # COUNT of no row is 0
        ("total", "BIGINT", True),
    ]


def test_a_grouped_subquery_is_grouped_by_its_keys_too() -> None:
    plan, columns = compiled(
        "SELECT d.dname, s.sal, s.c FROM dept d CROSS JOIN LATERAL (SELECT sal, COUNT(*) AS c "
        "FROM emp WHERE emp.deptno = d.deptno GROUP BY sal HAVING COUNT(*) > 1) AS s (sal, c)"
    )
    [join] = plan_nodes(plan, "join")
    assert join["kind"] == "inner"
    [aggregate] = plan_nodes(plan, "aggregate")
    assert len(aggregate["keys"]) == 2  # emp.deptno, sal
    assert [name for name, _, _ in columns] == ["dname", "sal", "c"]


def test_other_relations_to_the_left_are_conditions_of_the_join() -> None:
    plan, columns = compiled(
        "SELECT d.dname, e.name FROM dept d CROSS APPLY "
        "(SELECT name FROM emp WHERE emp.deptno = d.deptno AND emp.sal > d.deptno * 10) e"
    )
    [join] = plan_nodes(plan, "join")
    equality, greater = join["condition"]["args"]
    assert [a["index"] for a in equality["args"]] == [0, 3]  # d.deptno, the key
    # emp.sal: the third column of emp's, kept after the subquery's and its key
    assert (greater["function"], greater["args"][0]["index"]) == ("gt", 6)
    assert columns == [("dname", "VARCHAR", False), ("name", "VARCHAR", True)]


def test_a_select_list_naming_the_left_is_computed_over_the_joined_row() -> None:
    plan, columns = compiled(
        "SELECT * FROM dept d CROSS APPLY (SELECT d.dname || name AS who, sal - d.deptno "
        "FROM emp WHERE emp.deptno = d.deptno) e"
    )
    [join] = plan_nodes(plan, "join")
    # dept's 2 columns, the key, then emp's name, deptno, sal
    assert [a["index"] for a in join["condition"]["args"]] == [0, 2]
    [project] = [p for p in plan_nodes(plan, "project") if p["input"]["op"] == "join"]
    who, above = project["exprs"][2:]
    assert who["function"] == "concat" and who["args"][1]["index"] == 3  # emp.name
    assert above["function"] == "sub" and above["args"][0]["index"] == 5  # emp.sal
    assert columns[2:] == [("who", "VARCHAR", True), ("EXPR$1", "INTEGER", True)]


def test_an_aggregate_related_otherwise_is_computed_per_distinct_left_value() -> None:
    plan, columns = compiled(
        "SELECT d.dname, s.n FROM dept d CROSS APPLY "
        "(SELECT COUNT(*) AS n FROM emp WHERE emp.deptno > d.deptno) s"
    )
    [join] = [j for j in plan_nodes(plan, "join") if j["kind"] == "left"]
    assert join["condition"]["function"] == "is_not_distinct_from"  # a NULL finds its own
    [aggregate] = plan_nodes(join["right"], "aggregate")
    assert len(aggregate["keys"]) == 1  # d.deptno's distinct values
    assert columns == [("dname", "VARCHAR", False), ("n", "BIGINT", False)]


def test_limit_keeps_each_left_rows_first_rows() -> None:
    plan, columns = compiled(
        "SELECT d.dname, e.name FROM dept d CROSS APPLY (SELECT name FROM emp "
        "WHERE emp.deptno = d.deptno ORDER BY sal DESC LIMIT 2 OFFSET 1) e"
    )
    [window] = plan_nodes(plan, "window")
    [number] = window["calls"]
    assert number["function"] == "row_number"
    assert [p["index"] for p in number["partition"]] == [1]  # emp.deptno, the key
    assert number["order"][0]["descending"] is True  # sal DESC
    [kept] = [f for f in plan_nodes(plan, "filter") if f["condition"]["function"] == "and"]
    bounds = [arg["args"][1]["value"] for arg in kept["condition"]["args"]]
    assert bounds == [1, 3]  # the 2nd and 3rd rows: row_number > 1 and <= 3
    assert columns == [("dname", "VARCHAR", False), ("name", "VARCHAR", True)]


def test_an_uncorrelated_lateral_subquery_is_a_subquery() -> None:
    plan, columns = compiled("SELECT * FROM dept d, LATERAL (SELECT 1 AS one) t")
    assert [j["kind"] for j in plan_nodes(plan, "join")] == ["inner"]
    assert columns[-1] == ("one", "INTEGER", False)
    _, first = compiled("SELECT * FROM LATERAL (SELECT deptno FROM dept) AS l")
    assert first == [("deptno", "INTEGER", True)]


@pytest.mark.parametrize(
    ("from_", "code", "message"),
    [
        (
            "dept d CROSS APPLY (SELECT COUNT(*) AS n FROM emp WHERE emp.deptno > d.deptno "
            "LIMIT 1) e",
            "SQL401",
            "LIMIT in a LATERAL subquery with aggregates or DISTINCT that names the items",
        ),
        (
            "dept d CROSS APPLY (SELECT d.dname, * FROM emp WHERE emp.deptno = d.deptno) e",
            "SQL401",
            "* in a LATERAL subquery whose select list names the items left of it",
        ),
        (
            "dept d CROSS APPLY (SELECT name FROM emp WHERE emp.deptno = d.deptno "
            "GROUP BY name HAVING MAX(sal) > d.deptno) e",
            "SQL201",
            "No table or alias named 'd'",
        ),
        (
            "dept d CROSS APPLY (SELECT COUNT(*) AS n FROM emp WHERE emp.deptno = d.deptno "
            "GROUP BY sal LIMIT 1) e",
            "SQL401",
            "LIMIT in a correlated LATERAL subquery with aggregates",
        ),
        (
            "dept d CROSS APPLY (SELECT name FROM emp WHERE emp.deptno = d.deptno "
            "LIMIT d.deptno) e",
            "SQL401",
            "LIMIT or OFFSET of a correlated LATERAL subquery that is not a number",
        ),
        (
            "dept d CROSS APPLY (SELECT ROW_NUMBER() OVER (ORDER BY sal) AS r FROM emp "
            "WHERE emp.deptno = d.deptno) e",
            "SQL401",
            "a window function in a correlated LATERAL subquery",
        ),
        (
            "dept d CROSS APPLY (SELECT COUNT(*) AS n FROM emp WHERE emp.deptno = d.deptno "
            "HAVING COUNT(*) = 0) e",
            "SQL401",
            "HAVING in a correlated LATERAL subquery without GROUP BY",
        ),
        (
            "dept d RIGHT JOIN LATERAL (SELECT name FROM emp WHERE emp.deptno = d.deptno) e "
            "ON TRUE",
            "SQL401",
            "RIGHT JOIN LATERAL",
        ),
        (
            "dept d CROSS APPLY (SELECT name FROM emp WHERE emp.deptno = d.deptno) e (a, b)",
            "SQL210",
            "2 column names for a subquery of 1 columns",
        ),
    ],
)
def test_what_a_lateral_subquery_cannot_be(from_: str, code: str, message: str) -> None:
    found = the_error(DDL + f"CREATE VIEW v AS SELECT d.dname FROM {from_};")
    assert found[0] == code and message in found[1], found


def test_apply_takes_table_functions_too() -> None:
    result = compile_program(
        "CREATE TABLE t (k INT, a INT ARRAY);\n"
        "CREATE VIEW inner_rows AS SELECT t.k, x.v FROM t CROSS APPLY UNNEST(t.a) AS x(v);\n"
        "CREATE VIEW outer_rows AS SELECT t.k, x.v FROM t OUTER APPLY UNNEST(t.a) AS x(v);"
    )
    assert not result.has_errors, result.diagnostics_json()
    inner, outer = result.to_json()["plan"]["views"]
    [unnest] = plan_nodes(inner["query"], "unnest")
    [kept] = plan_nodes(outer["query"], "unnest")
    assert (bool(unnest.get("outer")), kept.get("outer")) == (False, True)  # OUTER keeps []
