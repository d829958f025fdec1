"""TABLE(SESSION(...)): the session window table function, in Calcite's spelling (keys
in a second DESCRIPTOR) and Flink's (TABLE t PARTITION BY k). Its rows get their
session's start and end as GROUP BY SESSION computes them (semantic/sessions.py)."""

from __future__ import annotations

from typing import Any

import pytest

from backend.compiler import compile_program
from tests.unit.compiler.compiled import plan_nodes
from tests.unit.compiler.markers import marked

DDL = (
    "CREATE TABLE t (k INT, v VARCHAR, ts TIMESTAMP NOT NULL);\nCREATE STREAM s (k INT);\n"
    "CREATE TABLE lt (k INT, ts TIMESTAMP LATENESS INTERVAL '1' MINUTE);\n"
)
GAP = "INTERVAL '5' MINUTE"


def compiled_view(sql: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The plan and catalog entry of the view v, compiled without errors."""
    result = compile_program(DDL + sql + ";")
    assert not result.has_errors, result.diagnostics_json()
    spec = result.to_json()
    [query] = [v["query"] for v in spec["plan"]["views"] if v["name"] == "v"]
    [relation] = [r for r in spec["catalog"]["relations"] if r["name"] == "v"]
    return query, relation


@pytest.mark.parametrize(
    ("call", "partition"),
    [
        (f"SESSION(TABLE t, DESCRIPTOR(ts), DESCRIPTOR(k), {GAP})", [0]),
        (f"SESSION(TABLE t, DESCRIPTOR(ts), DESCRIPTOR(k, v), {GAP})", [0, 1]),
        (f"SESSION(TABLE t PARTITION BY k, DESCRIPTOR(ts), {GAP})", [0]),
        (f"SESSION(TABLE t PARTITION BY k, v, DESCRIPTOR(ts), {GAP})", [0, 1]),
        (f"SESSION(TABLE t PARTITION BY (v, k), DESCRIPTOR(ts), {GAP})", [1, 0]),
        (f"SESSION(TABLE t, DESCRIPTOR(ts), {GAP})", []),
        (f"session(data => TABLE t, timecol => DESCRIPTOR(ts), gap => {GAP})", []),
        (
            f"SESSION(DATA => TABLE t, KEY => DESCRIPTOR(k), TIMECOL => DESCRIPTOR(ts), "
            f"SIZE => {GAP})",
            [0],
        ),
    ],
)
def test_both_spellings_add_the_sessions_start_and_end(call: str, partition: list[int]) -> None:
    query, relation = compiled_view(f"CREATE VIEW v AS SELECT * FROM TABLE({call})")
    assert [(c["name"], c["type"]) for c in relation["columns"]] == [
        ("k", "INTEGER"),
        ("v", "VARCHAR"),
        ("ts", "TIMESTAMP"),
        ("window_start", "TIMESTAMP"),
        ("window_end", "TIMESTAMP"),
    ]
    # GROUP BY SESSION's three window functions, partitioned by the keys.
    end, start, previous = plan_nodes(query, "window")
    assert [c["function"] for w in (end, start, previous) for c in w["calls"]] == [
        "session_close",
        "max",
        "lag",
    ]
    assert [p["index"] for p in previous["calls"][0]["partition"]] == partition
    assert [p["index"] for p in end["calls"][0]["partition"]] == [*partition, 3]
    assert query["exprs"][4] == {**query["exprs"][4], "kind": "column", "index": 4}


def test_a_stream_of_the_rows_with_their_sessions_holds_each_until_its_session_ends() -> None:
    # A row's session, and so its window_end, grows while later rows join it: its time
    # is below the waterline long before that, and only window_end keeps one.
    _, relation = compiled_view(
        "CREATE VIEW v AS SELECT STREAM * "
        f"FROM TABLE(SESSION(TABLE s, DESCRIPTOR(rowtime), DESCRIPTOR(k), {GAP}))"
    )
    assert [c["name"] for c in relation["columns"] if c["waterline"]] == ["window_end"]
    assert relation["emit_final"] == len(relation["columns"]) - 1


def test_a_rows_window_can_change_so_the_view_updates() -> None:
    _, relation = compiled_view(
        f"CREATE VIEW v AS SELECT k, window_end FROM TABLE(SESSION(TABLE t, DESCRIPTOR(ts), {GAP}))"
    )
    # A row's session grows when a later row joins it: the view's rows change.
    assert relation["output_mode"] == "update"


@pytest.mark.parametrize(
    ("view", "final"),
    [
        (  # as GROUP BY SESSION: each session once, when no row can extend it
            "CREATE VIEW v WITH ('emit_final' = 'window_end') AS "
            "SELECT k, window_start, window_end, COUNT(*) AS n "
            f"FROM TABLE(SESSION(TABLE lt PARTITION BY k, DESCRIPTOR(ts), {GAP})) "
            "GROUP BY k, window_start, window_end",
            2,
        ),
        (
            "CREATE VIEW v AS SELECT STREAM k, window_start, window_end, COUNT(*) AS n "
            f"FROM TABLE(SESSION(TABLE s, DESCRIPTOR(rowtime), DESCRIPTOR(k), {GAP})) "
            "GROUP BY k, window_start, window_end",
            2,
        ),
    ],
)
def test_a_windows_end_has_the_waterline_of_its_time(view: str, final: int) -> None:
    _, relation = compiled_view(view)
    assert [c["name"] for c in relation["columns"] if c["waterline"]] == ["window_end"]
    assert relation["emit_final"] == final and relation["output_mode"] == "append"


TVF = "CREATE VIEW v AS SELECT * FROM TABLE("


@pytest.mark.parametrize(
    ("sql", "code", "message"),
    [
        (
            "«SESSION(TABLE t, DESCRIPTOR(ts))»",
            "SQL207",
            "SESSION is missing its GAP argument",
        ),
        (
            f"SESSION(TABLE t, «ts», {GAP})",
            "SQL206",
            "Expected DESCRIPTOR(column) naming the time column",
        ),
        (
            f"SESSION(TABLE t, DESCRIPTOR(ts), «k», {GAP})",
            "SQL206",
            "Expected DESCRIPTOR(column, ...) naming the key columns",
        ),
        (
            "SESSION(TABLE t, DESCRIPTOR(ts), DESCRIPTOR(k), «5»)",
            "SQL206",
            "SESSION expects a positive INTERVAL DAY TO SECOND literal, found INTEGER",
        ),
        (
            "SESSION(TABLE t, DESCRIPTOR(ts), «INTERVAL '1' MONTH»)",
            "SQL206",
            "SESSION expects a positive INTERVAL DAY TO SECOND literal, "
            "found INTERVAL YEAR TO MONTH",
        ),
        (
            f"SESSION(TABLE t, DESCRIPTOR(ts), DESCRIPTOR(k, «nope»), {GAP})",
            "SQL202",
            "Unknown column 'nope' in DESCRIPTOR",
        ),
        (
            f"SESSION(TABLE t PARTITION BY «nope», DESCRIPTOR(ts), {GAP})",
            "SQL202",
            "Unknown column 'nope' in PARTITION BY",
        ),
        (
            f"SESSION(TABLE t, DESCRIPTOR(«k»), {GAP})",
            "SQL206",
            "The time column 'k' must be a TIMESTAMP, found INTEGER",
        ),
        (
            f"SESSION(TABLE t PARTITION BY k, DESCRIPTOR(ts), «DESCRIPTOR(k)», {GAP})",
            "SQL207",
            "SESSION's keys are given twice: in PARTITION BY and in KEY",
        ),
        (
            f"SESSION(«t», DESCRIPTOR(ts), {GAP})",
            "SQL206",
            "SESSION expects TABLE name",
        ),
        (
            f"SESSION(TABLE t, DESCRIPTOR(ts), {GAP}, «WINDOW_SIZE» => {GAP})",
            "SQL207",
            "SESSION has no parameter WINDOW_SIZE: expected DATA, TIMECOL, KEY, GAP",
        ),
        (
            f"SESSION(TABLE t, DESCRIPTOR(ts), DESCRIPTOR(k), {GAP}, «{GAP}»)",
            "SQL207",
            "SESSION expects 3 to 4 arguments",
        ),
        (  # only SESSION has keys
            f"TUMBLE(TABLE t PARTITION BY «k, v», DESCRIPTOR(ts), {GAP})",
            "SQL207",
            "TUMBLE takes no PARTITION BY (SESSION does)",
        ),
    ],
)
def test_misused_session_table_functions_are_errors(sql: str, code: str, message: str) -> None:
    text, [span] = marked(DDL + TVF + sql + ");")
    [found] = [d for d in compile_program(text).diagnostics if d.severity == "error"]
    assert (found.code, found.message, found.span) == (code, message, span)


def test_partition_by_is_refused_where_a_table_function_takes_no_keys() -> None:
    text, [span] = marked(
        DDL + "CREATE VIEW v AS SELECT * FROM TO_CHANGELOG(TABLE t PARTITION BY «k»);"
    )
    [found] = [d for d in compile_program(text).diagnostics if d.severity == "error"]
    assert (found.code, found.message, found.span) == (
        "SQL207",
        "TO_CHANGELOG takes no PARTITION BY (SESSION does)",
        span,
    )


def test_a_sessions_bounds_are_null_only_for_a_null_time() -> None:
    # t's ts is NOT NULL; lt's is not.
    for table, nullable in (("t", False), ("lt", True)):
        _, relation = compiled_view(
            f"CREATE VIEW v AS SELECT * FROM TABLE(SESSION(TABLE {table}, DESCRIPTOR(ts), {GAP}))"
        )
        bounds = [c["nullable"] for c in relation["columns"] if c["name"].startswith("window_")]
        assert bounds == [nullable, nullable], table
