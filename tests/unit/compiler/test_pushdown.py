"""WHERE's join conditions become the conditions of the joins they belong to."""

from __future__ import annotations

from typing import Any

from backend.compiler import compile_program
from tests.unit.compiler.compiled import plan_nodes

DDL = (
    "CREATE TABLE a (k INT, x INT);\nCREATE TABLE b (k INT, y INT);\n"
    "CREATE TABLE c (y INT, z INT);\n"
)


def _query(sql: str) -> dict[str, Any]:
    result = compile_program(DDL + f"CREATE VIEW v AS {sql};")
    assert not result.has_errors, result.diagnostics_json()
    [view] = result.to_json()["plan"]["views"]
    return view["query"]


def _shown(expr: dict[str, Any] | None) -> str | None:
    if expr is None:
        return None
    if expr["kind"] == "column":
        return f"#{expr['index']}"
    if expr["kind"] == "literal":
        return str(expr["value"])
    return f"{expr['function']}({', '.join(str(_shown(a)) for a in expr['args'])})"


def test_comma_joins_take_the_where_conditions_that_join_them() -> None:
    query = _query("SELECT x, z FROM a, b, c WHERE a.k = b.k AND b.y = c.y AND x > 1")
    outer, inner = plan_nodes(query, "join")
    # c's columns follow a's and b's (4 of them): b.y is #3 and c.y #4 in the outer join.
    assert (outer["kind"], _shown(outer["condition"])) == ("inner", "eq(#3, #4)")
    assert (inner["kind"], _shown(inner["condition"])) == ("inner", "eq(#0, #2)")
    [where] = plan_nodes(query, "filter")
    assert _shown(where["condition"]) == "gt(#1, 1)"  # one input's condition stays


def test_a_join_condition_is_anded_with_on_and_reaches_inside_the_right_side() -> None:
    query = _query(
        "SELECT x FROM a JOIN (b CROSS JOIN c) ON a.k = b.k WHERE b.y = c.y AND a.x < c.z"
    )
    outer, inner = plan_nodes(query, "join")
    assert _shown(outer["condition"]) == "and(eq(#0, #2), lt(#1, #5))"
    assert _shown(inner["condition"]) == "eq(#1, #2)"  # moved by a's two columns
    assert plan_nodes(query, "filter") == []


def test_conditions_stay_in_where_above_outer_joins() -> None:
    query = _query("SELECT x FROM a LEFT JOIN b ON a.k = b.k, c WHERE b.y = c.y AND a.x = b.k")
    outer, left = plan_nodes(query, "join")
    assert _shown(outer["condition"]) == "eq(#3, #4)"  # the inner join of (a ⟕ b) and c
    assert (left["kind"], _shown(left["condition"])) == ("left", "eq(#0, #2)")
    [where] = plan_nodes(query, "filter")
    assert _shown(where["condition"]) == "eq(#1, #2)"  # b's side of the left join is NULL-filled
