"""Windowed stream joins (`FROM s OVER (...) AS a JOIN ...`): every diagnostic's exact
code and span (marked «» in the SQL), and nothing else reported."""

from __future__ import annotations

import pytest

from backend.compiler import compile_program

from .markers import marked

P = (
    "CREATE STREAM orders (id INT, amount INT);\n"
    "CREATE STREAM trades (id INT, amount INT);\n"
    "CREATE TABLE customers (id INT, name VARCHAR);\n"
    "CREATE VIEW stream_view AS SELECT STREAM * FROM trades;\n"
)
V = P + "CREATE VIEW w AS SELECT STREAM ROWTIME, o.id FROM "
ON = " ON o.id = t.id"

CASES = [
    # SQL311: a join window belongs on a stream that is a side of a JOIN.
    ("over_a_table", V + "orders o JOIN customers OVER «(RANGE CURRENT ROW)» t" + ON, ["SQL311"]),
    (
        "over_without_a_join",
        P + "CREATE VIEW w AS SELECT STREAM * FROM orders OVER «(RANGE CURRENT ROW)»",
        ["SQL311"],
    ),
    (
        "windowed_stream_with_a_table",
        V + "orders OVER (RANGE CURRENT ROW) o JOIN «customers» t" + ON,
        ["SQL311"],
    ),
    # SQL312: a window without an end keeps every row forever.
    (
        "unbounded_preceding",
        V + "orders o JOIN trades OVER (RANGE «UNBOUNDED PRECEDING») t" + ON,
        ["SQL312"],
    ),
    (
        "unbounded_following",
        V
        + "orders o JOIN trades OVER (RANGE BETWEEN CURRENT ROW AND «UNBOUNDED FOLLOWING») t"
        + ON,
        ["SQL312"],
    ),
    # SQL217: windows a join cannot use.
    (
        "partitioned_window",
        V + "orders o JOIN trades OVER (PARTITION BY «id» RANGE CURRENT ROW) t" + ON,
        ["SQL217"],
    ),
    ("window_without_a_frame", V + "orders o JOIN trades OVER «()» t" + ON, ["SQL217"]),
    (
        "inverted_window",
        V + "orders o JOIN trades OVER («RANGE BETWEEN INTERVAL '1' MINUTE FOLLOWING "
        "AND CURRENT ROW») t" + ON,
        ["SQL217"],
    ),
    ("unknown_named_window", V + "orders o JOIN trades OVER «w1» t" + ON, ["SQL217"]),
    (
        "ordered_by_another_column",
        V + "orders o JOIN trades OVER (ORDER BY «amount» RANGE CURRENT ROW) t" + ON,
        ["SQL217"],
    ),
    # SQL206: a RANGE offset over rowtime is a day-time INTERVAL.
    (
        "numeric_offset",
        V + "orders o JOIN trades OVER (RANGE «10 PRECEDING») t" + ON,
        ["SQL206"],
    ),
    # SQL203: in ON, `rowtime` needs its side.
    (
        "unqualified_rowtime_in_on",
        V + "orders o JOIN trades OVER (RANGE CURRENT ROW) t ON «rowtime» = t.rowtime",
        ["SQL203"],
    ),
    # SQL401: windows Weir does not run.
    (
        "rows_window",
        V + "orders o JOIN trades OVER («ROWS CURRENT ROW») t" + ON,
        ["SQL401"],
    ),
    (
        "rows_preceding_window",
        V + "orders o JOIN trades OVER («ROWS 3 PRECEDING») t" + ON,
        ["SQL401"],
    ),
    (
        "offset_window",
        V + "orders o JOIN trades OVER («RANGE BETWEEN INTERVAL '2' MINUTE PRECEDING "
        "AND INTERVAL '1' MINUTE PRECEDING») t" + ON,
        ["SQL401"],
    ),
    (
        "window_on_a_view",
        V + "orders o JOIN «stream_view» OVER (RANGE CURRENT ROW) t" + ON,
        ["SQL401"],
    ),
    (
        "window_on_a_subquery",
        V + "orders OVER (RANGE CURRENT ROW) o JOIN «(SELECT STREAM * FROM trades) t»" + ON,
        ["SQL401"],
    ),
]


@pytest.mark.parametrize(("name", "text", "codes"), CASES, ids=[c[0] for c in CASES])
def test_window_join_diagnostic(name: str, text: str, codes: list[str]) -> None:
    source, spans = marked(text)
    found = compile_program(source).diagnostics
    assert [d.code.value for d in found] == codes, [d.message for d in found]
    assert [d.span for d in found] == spans


def test_a_side_s_own_rowtime_and_the_output_rowtime_are_distinct_columns() -> None:
    text = (
        P + "CREATE VIEW w AS SELECT STREAM ROWTIME, o.rowtime AS ot, t.rowtime AS tt "
        "FROM orders o JOIN trades OVER (RANGE INTERVAL '1' MINUTE PRECEDING) t ON o.id = t.id"
    )
    result = compile_program(text).to_json()
    assert result["diagnostics"] == []
    project = result["plan"]["views"][-1]["query"]
    assert [e["index"] for e in project["exprs"]] == [6, 0, 3]
    join = project["input"]
    assert join["op"] == "window_join"
    assert join["right_window"] == {"preceding": 60_000_000, "following": 0}
    assert join["left_window"] == {"preceding": 0, "following": 0}
