"""ASOF JOIN ... MATCH_CONDITION: joins, DISTINCT and ROW_NUMBER (semantic/asof_joins.py)."""

from __future__ import annotations

import pytest

from backend.compiler import compile_program
from tests.unit.compiler.compiled import plan_nodes, the_error

DDL = (
    "CREATE TABLE trades (sym VARCHAR, ts TIMESTAMP, qty INT);\n"
    "CREATE TABLE quotes (sym VARCHAR, ts TIMESTAMP, price INT);\n"
)


@pytest.mark.parametrize(
    ("join", "kind", "latest"),
    [
        ("LEFT ASOF JOIN quotes q MATCH_CONDITION (t.ts >= q.ts) ON t.sym = q.sym", "left", True),
        ("ASOF LEFT JOIN quotes q MATCH_CONDITION (q.ts < t.ts) ON t.sym = q.sym", "left", True),
        ("ASOF JOIN quotes q MATCH_CONDITION t.ts <= q.ts", "inner", False),
    ],
)
def test_each_left_row_joins_its_best_pair(join: str, kind: str, latest: bool) -> None:
    result = compile_program(DDL + f"CREATE VIEW v AS SELECT t.qty, q.price FROM trades t {join};")
    assert not result.has_errors, result.diagnostics_json()
    query = result.to_json()["plan"]["views"][0]["query"]
    joins = plan_nodes(query, "join")
    assert [j["kind"] for j in joins] == [kind, "inner"]  # the rows, then the pairs
    [window] = plan_nodes(query, "window")
    [number] = window["calls"]
    assert number["function"] == "row_number"
    assert [p["index"] for p in number["partition"]] == [0, 1, 2]  # the trade's columns
    time, *rest = number["order"]
    assert time["expr"]["index"] == 4 and time["descending"] is latest  # quotes.ts
    assert [k["expr"]["index"] for k in rest] == [3, 4, 5]
    assert len(plan_nodes(query, "distinct")) == 1
    [view] = [r for r in result.to_json()["catalog"]["relations"] if r["name"] == "v"]
    assert [c["nullable"] for c in view["columns"]] == [True, True]


@pytest.mark.parametrize(
    ("join", "code", "message"),
    [
        (
            "ASOF JOIN quotes q MATCH_CONDITION (t.qty = q.price)",
            "SQL206",
            "MATCH_CONDITION compares a left expression and a right one",
        ),
        (
            "ASOF JOIN quotes q MATCH_CONDITION (t.ts >= t.ts)",
            "SQL206",
            "MATCH_CONDITION compares a left expression and a right one",
        ),
        ("RIGHT ASOF JOIN quotes q MATCH_CONDITION (t.ts >= q.ts)", "SQL101", "INNER or LEFT"),
        ("ASOF JOIN quotes q ON t.sym = q.sym", "SQL101", "Expected MATCH_CONDITION"),
    ],
)
def test_wrong_asof_joins_are_errors(join: str, code: str, message: str) -> None:
    found = the_error(DDL + f"CREATE VIEW v AS SELECT t.qty FROM trades t {join};")
    assert found[0] == code and message in found[1], found
