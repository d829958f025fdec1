"""LAG and LEAD over windows: arguments, types and the errors around them."""

from __future__ import annotations

import pytest

from backend.compiler import compile_program
from tests.unit.compiler.compiled import errors_of, plan_nodes

DDL = "CREATE TABLE t (id BIGINT NOT NULL, g VARCHAR, x INTEGER NOT NULL);\n"


def test_lag_and_lead_take_a_value_an_offset_and_a_default_of_its_type() -> None:
    result = compile_program(
        DDL + "CREATE VIEW v AS SELECT id, LAG(x) OVER w AS prev, LEAD(x, 2, 0) OVER w AS next2, "
        "LAG(g, 1, 'none') OVER (ORDER BY id) AS prev_g, LAG(x, 1, id) OVER w AS prev_or_id "
        "FROM t WINDOW w AS (PARTITION BY g ORDER BY id);"
    )
    assert not result.has_errors, result.diagnostics_json()
    compiled = result.to_json()
    [view] = [r for r in compiled["catalog"]["relations"] if r["name"] == "v"]
    types = {c["name"]: (c["type"], c["nullable"]) for c in view["columns"]}
    assert types["prev"] == ("INTEGER", True), "no row before the first"
    assert types["next2"] == ("INTEGER", True)
    assert types["prev_g"] == ("VARCHAR", True)
    [window] = plan_nodes(compiled["plan"]["views"][0]["query"], "window")
    calls = window["calls"]
    assert [c["function"] for c in calls] == ["lag", "lead", "lag", "lag"]
    assert [a["value"] for a in (c["args"][1] for c in calls)] == [1, 2, 1, 1]
    assert calls[3]["args"][2]["kind"] == "cast", "the BIGINT default is cast to INTEGER"


@pytest.mark.parametrize(
    ("select", "code", "message"),
    [
        ("LAG(x) OVER (PARTITION BY g)", "SQL217", "LAG needs a window with ORDER BY"),
        ("LEAD(x, -1) OVER (ORDER BY id)", "SQL217", "LEAD's offset must be a non-negative"),
        ("LEAD(x, id) OVER (ORDER BY id)", "SQL217", "LEAD's offset must be a non-negative"),
        ("LAG(x, 1, DATE '2020-01-01') OVER (ORDER BY id)", "SQL206", "LAG's default must"),
        ("LAG() OVER (ORDER BY id)", "SQL217", "LAG expects 1 to 3 arguments, got 0"),
        (
            "LAG(x) OVER (ORDER BY id ROWS 1 PRECEDING)",
            "SQL217",
            "LAG takes no window frame",
        ),
    ],
)
def test_wrong_lag_and_lead_calls_are_errors(select: str, code: str, message: str) -> None:
    errors = errors_of(DDL + f"CREATE VIEW v AS SELECT id, {select} AS y FROM t;")
    assert len(errors) == 1, errors
    assert errors[0][0] == code and message in errors[0][1], errors
