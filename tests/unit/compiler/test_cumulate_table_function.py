"""TABLE(CUMULATE(...)): Flink's cumulating windows, a HOP of the window's size every
step, kept where the hop starts at or before the row's tumbling window
(semantic/table_functions.py)."""

from __future__ import annotations

import pytest

from backend.compiler import compile_program
from tests.unit.compiler.compiled import plan_nodes
from tests.unit.compiler.markers import marked

DDL = (
    "CREATE TABLE t (k INT, ts TIMESTAMP NOT NULL);\n"
    "CREATE TABLE lt (k INT, ts TIMESTAMP LATENESS INTERVAL '1' MINUTE);\n"
)
STEP, SIZE = "INTERVAL '1' HOUR", "INTERVAL '1' DAY"


@pytest.mark.parametrize(
    "call",
    [
        f"CUMULATE(TABLE t, DESCRIPTOR(ts), {STEP}, {SIZE})",
        f"CUMULATE(DATA => TABLE t, TIMECOL => DESCRIPTOR(ts), STEP => {STEP}, SIZE => {SIZE})",
    ],
)
def test_cumulate_is_a_hop_of_its_size_every_step_kept_within_its_tumbling_window(
    call: str,
) -> None:
    result = compile_program(DDL + f"CREATE VIEW v AS SELECT * FROM TABLE({call});")
    assert not result.has_errors, result.diagnostics_json()
    spec = result.to_json()
    query = spec["plan"]["views"][0]["query"]
    [hop] = plan_nodes(query, "hop")
    assert (hop["size"], hop["slide"], hop["time"]) == (86_400_000_000, 3_600_000_000, 1)
    [kept] = plan_nodes(query, "filter")
    assert kept["condition"]["function"] == "le"
    assert [e.get("function", e.get("index")) for e in query["exprs"]] == [0, 1, "tumble_start", 3]
    [relation] = spec["catalog"]["relations"][2:]
    assert [(c["name"], c["type"]) for c in relation["columns"]] == [
        ("k", "INTEGER"),
        ("ts", "TIMESTAMP"),
        ("window_start", "TIMESTAMP"),
        ("window_end", "TIMESTAMP"),
    ]


def test_a_cumulative_windows_bounds_keep_the_waterline_of_its_time() -> None:
    view = (
        "CREATE VIEW v WITH ('emit_final' = 'e') AS SELECT window_start AS s, "
        f"window_end AS e, COUNT(*) AS n FROM TABLE(CUMULATE(TABLE lt, DESCRIPTOR(ts), {STEP}, "
        f"{SIZE}, INTERVAL '30' MINUTE)) GROUP BY window_start, window_end;"
    )
    result = compile_program(DDL + view)
    assert not result.has_errors, result.diagnostics_json()
    [relation] = [r for r in result.to_json()["catalog"]["relations"] if r["name"] == "v"]
    assert [c["name"] for c in relation["columns"] if c["waterline"]] == ["s", "e"]


@pytest.mark.parametrize(
    ("sql", "code", "message"),
    [
        (
            f"CUMULATE(TABLE t, DESCRIPTOR(ts), INTERVAL '7' MINUTE, «{SIZE}»)",
            "SQL207",
            "CUMULATE's SIZE must be a whole multiple of its STEP",
        ),
        (
            f"CUMULATE(TABLE t, DESCRIPTOR(ts), «1», {SIZE})",
            "SQL206",
            "CUMULATE expects a positive INTERVAL DAY TO SECOND literal, found INTEGER",
        ),
        (
            f"«CUMULATE(TABLE t, DESCRIPTOR(ts), {STEP})»",
            "SQL207",
            "CUMULATE is missing its SIZE argument",
        ),
        (
            f"CUMULATE(TABLE t, «ts», {STEP}, {SIZE})",
            "SQL206",
            "Expected DESCRIPTOR(column) naming the time column",
        ),
    ],
)
def test_misused_cumulate_is_an_error(sql: str, code: str, message: str) -> None:
    text, [span] = marked(DDL + f"CREATE VIEW v AS SELECT * FROM TABLE({sql});")
    [found] = [d for d in compile_program(text).diagnostics if d.severity == "error"]
    assert (found.code, found.message, found.span) == (code, message, span)
