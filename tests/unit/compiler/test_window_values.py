"""FIRST_VALUE, LAST_VALUE, NTILE, PERCENT_RANK and CUME_DIST over windows."""

from __future__ import annotations

import pytest

from backend.compiler import compile_program
from tests.unit.compiler.compiled import errors_of, plan_nodes, the_error

DDL = "CREATE TABLE t (id BIGINT NOT NULL, g VARCHAR, x INTEGER NOT NULL);\n"


def test_frame_values_keep_their_argument_type_and_positions_are_numbers() -> None:
    result = compile_program(
        DDL + "CREATE VIEW v AS SELECT id, FIRST_VALUE(g) OVER w AS f, "
        "LAST_VALUE(x) OVER (w ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS l, "
        "NTILE(3) OVER w AS n, PERCENT_RANK() OVER w AS p, CUME_DIST() OVER w AS c "
        "FROM t WINDOW w AS (PARTITION BY g ORDER BY id);"
    )
    assert not result.has_errors, result.diagnostics_json()
    compiled = result.to_json()
    [view] = [r for r in compiled["catalog"]["relations"] if r["name"] == "v"]
    types = {c["name"]: (c["type"], c["nullable"]) for c in view["columns"]}
    assert types["f"] == ("VARCHAR", True) and types["l"] == ("INTEGER", True)
    assert types["n"] == ("BIGINT", False)
    assert types["p"] == types["c"] == ("DOUBLE", False)
    [window] = plan_nodes(compiled["plan"]["views"][0]["query"], "window")
    calls = window["calls"]
    assert [c["function"] for c in calls] == [
        "first_value",
        "last_value",
        "ntile",
        "percent_rank",
        "cume_dist",
    ]
    assert calls[1]["frame"] == {"unit": "rows", "start": -1, "end": 1}
    assert calls[2]["args"][0]["value"] == 3


def test_a_frame_offset_may_be_a_whole_number_cast() -> None:
    """PostgreSQL's window tests: `RANGE BETWEEN 2::INT8 PRECEDING AND 1::INT2 PRECEDING`."""
    result = compile_program(
        DDL + "CREATE VIEW v AS SELECT SUM(id) OVER (ORDER BY x RANGE BETWEEN 2::INT8 PRECEDING "
        "AND CAST(1 AS SMALLINT) PRECEDING) AS r, SUM(id) OVER (ORDER BY id "
        "ROWS 3::INT PRECEDING) AS w FROM t;"
    )
    assert not result.has_errors, result.diagnostics_json()
    [window] = plan_nodes(result.to_json()["plan"]["views"][0]["query"], "window")
    frames = [c["frame"] for c in window["calls"]]
    assert frames == [
        {"unit": "range", "start": -2, "end": -1},
        {"unit": "rows", "start": -3, "end": 0},
    ]
    assert errors_of(
        DDL + "CREATE VIEW v AS SELECT SUM(id) OVER (ORDER BY id ROWS 1.5::INT PRECEDING) FROM t;"
    ) == [("SQL217", "ROWS takes a non-negative integer constant")]


@pytest.mark.parametrize(
    ("select", "code", "message"),
    [
        ("NTILE(0) OVER (ORDER BY id)", "SQL217", "NTILE's number of buckets must be"),
        ("NTILE(x) OVER (ORDER BY id)", "SQL217", "NTILE's number of buckets must be"),
        ("NTILE(2) OVER (PARTITION BY g)", "SQL217", "NTILE needs a window with ORDER BY"),
        ("CUME_DIST(x) OVER (ORDER BY id)", "SQL207", "CUME_DIST takes no arguments"),
        ("FIRST_VALUE(x, 2) OVER (ORDER BY id)", "SQL207", "FIRST_VALUE takes 1 argument"),
        ("NTH_VALUE(x) OVER (ORDER BY id)", "SQL207", "NTH_VALUE takes 2 arguments"),
        ("NTH_VALUE(x, 0) OVER (ORDER BY id)", "SQL217", "NTH_VALUE's place must be a positive"),
        ("NTH_VALUE(x, id) OVER (ORDER BY id)", "SQL217", "NTH_VALUE's place must be a positive"),
        ("PERCENT_RANK() OVER (PARTITION BY g)", "SQL217", "needs a window with ORDER BY"),
    ],
)
def test_wrong_calls_are_errors(select: str, code: str, message: str) -> None:
    errors = errors_of(DDL + f"CREATE VIEW v AS SELECT id, {select} AS y FROM t;")
    assert len(errors) == 1, errors
    assert errors[0][0] == code and message in errors[0][1], errors


def test_window_functions_of_a_grouping_select_are_over_its_groups() -> None:
    """Aggregate, then HAVING, then the window; the select list reads the window's
    values after the aggregate's keys and aggregates (and GROUPING's column)."""
    result = compile_program(
        DDL + "CREATE VIEW v AS SELECT g, SUM(x) AS s, GROUPING(g) AS gg, "
        "RANK() OVER (PARTITION BY GROUPING(g) ORDER BY SUM(x) DESC) + 0 AS r "
        "FROM t GROUP BY ROLLUP(g) HAVING COUNT(*) > 1;"
    )
    assert not result.has_errors, result.diagnostics_json()
    query = result.to_json()["plan"]["views"][0]["query"]
    assert query["op"] == "project" and query["input"]["op"] == "window"
    window = query["input"]
    assert window["input"]["op"] == "filter"  # HAVING
    # The groups' columns: g, SUM(x), COUNT(*), then GROUPING's and GROUP_ID's; the rank
    # after them.
    [call] = window["calls"]
    assert call["function"] == "rank" and call["order"][0]["expr"]["index"] == 1
    assert len(window["columns"]) == 6
    rank = query["exprs"][3]
    assert rank["function"] == "add" and rank["args"][0]["index"] == 5


@pytest.mark.parametrize(
    ("sql", "code", "message"),
    [
        (
            "SELECT g, RANK() OVER (ORDER BY x) FROM t GROUP BY g",
            "SQL214",
            "Column 'x' must appear in GROUP BY or be used in an aggregate function",
        ),
        (
            "SELECT g FROM t GROUP BY g HAVING RANK() OVER (ORDER BY g) = 1",
            "SQL213",
            "Window functions are allowed only in the SELECT list",
        ),
        (
            "SELECT g, SUM(ROW_NUMBER() OVER (ORDER BY id)) FROM t GROUP BY g",
            "SQL213",
            "Window functions are allowed only in the SELECT list",
        ),
        ("SELECT g FROM t QUALIFY 1", "SQL206", "QUALIFY condition must be BOOLEAN"),
        ("SELECT g FROM t QUALIFY nope = 1", "SQL202", "Unknown column 'nope'"),
        (
            "SELECT g, COUNT(*) FROM t GROUP BY g QUALIFY RANK() OVER (ORDER BY x) = 1",
            "SQL214",
            "Column 'x' must appear in GROUP BY",
        ),
    ],
)
def test_window_functions_over_groups_and_qualify_read_what_they_may(
    sql: str, code: str, message: str
) -> None:
    found = the_error(DDL + f"CREATE VIEW v AS {sql};")
    assert found[0] == code and message in found[1], found


def test_qualify_filters_rows_by_their_window_values() -> None:
    """QUALIFY comes after the window functions (its own and the select list's), before
    the select list; a name of the select list that is no FROM column means its value."""
    result = compile_program(
        DDL + "CREATE VIEW v AS SELECT g, x AS id, ROW_NUMBER() OVER w AS rn FROM t "
        "WINDOW w AS (PARTITION BY g ORDER BY x DESC) QUALIFY rn <= 2 AND id > 0;"
    )
    assert not result.has_errors, result.diagnostics_json()
    query = result.to_json()["plan"]["views"][0]["query"]
    assert query["op"] == "project" and query["input"]["op"] == "filter"
    condition = query["input"]["condition"]
    assert query["input"]["input"]["op"] == "window"
    rn, id_ = (part["args"][0] for part in condition["args"])
    assert rn["index"] == 3  # the window's value, after t's id, g and x
    assert id_["index"] == 0  # t's own id, not the select list's `x AS id`


def test_ignore_nulls_and_count_distinct_over_a_window_go_into_the_plan() -> None:
    result = compile_program(
        DDL + "CREATE VIEW v AS SELECT id, LAG(g) IGNORE NULLS OVER w AS a, "
        "LEAD(g IGNORE NULLS) OVER w AS b, LAG(g) RESPECT NULLS OVER w AS c, "
        "COUNT(DISTINCT g) OVER (PARTITION BY x) AS d FROM t "
        "WINDOW w AS (PARTITION BY x ORDER BY id);"
    )
    assert not result.has_errors, result.diagnostics_json()
    [window] = plan_nodes(result.to_json()["plan"]["views"][0]["query"], "window")
    calls = [(c["function"], c.get("ignore_nulls", False)) for c in window["calls"]]
    assert calls == [("lag", True), ("lead", True), ("lag", False), ("count_distinct", False)]


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (
            "ROW_NUMBER() IGNORE NULLS OVER (ORDER BY id)",
            (
                "SQL217",
                "IGNORE NULLS applies to LAG, LEAD, FIRST_VALUE, LAST_VALUE and NTH_VALUE, "
                "not ROW_NUMBER",
            ),
        ),
        (
            "SUM(DISTINCT x) OVER (ORDER BY id)",
            ("SQL401", "Not supported yet: SUM(DISTINCT or FILTER ...) OVER"),
        ),
    ],
)
def test_ignore_nulls_and_distinct_where_a_window_call_cannot_take_them(
    call: str, error: tuple[str, str]
) -> None:
    assert the_error(DDL + f"CREATE VIEW v AS SELECT {call} AS r FROM t;") == error
