"""GROUP BY SESSION(ts, gap): the FROM's rows get their session through window
functions, and the query is grouped by its start and end (semantic/sessions.py)."""

from __future__ import annotations

import pytest

from backend.compiler import compile_program
from tests.unit.compiler.compiled import plan_nodes, the_error

DDL = (
    "CREATE TABLE t (k INT, v INT, ts TIMESTAMP);\nCREATE STREAM s (k INT);\n"
    "CREATE TABLE lt (k INT, ts TIMESTAMP LATENESS INTERVAL '1' MINUTE);\n"
)
GAP = "INTERVAL '5' MINUTE"


def test_rows_are_grouped_by_their_sessions_start_and_end() -> None:
    sql = (
        f"SELECT k, SESSION_END(ts, {GAP}) AS e, SESSION_START(ts, {GAP}) AS b, COUNT(*) AS n "
        f"FROM t GROUP BY k, SESSION(ts, {GAP})"
    )
    result = compile_program(DDL + f"CREATE VIEW v AS {sql};")
    assert not result.has_errors, result.diagnostics_json()
    query = result.to_json()["plan"]["views"][0]["query"]
    [grouped] = plan_nodes(query, "aggregate")
    # k, the session's start (in SESSION's place), then its end (from t's 3 columns on).
    assert [key["index"] for key in grouped["keys"]] == [0, 3, 4]
    windows = plan_nodes(query, "window")
    functions = [[c["function"] for c in w["calls"]] for w in windows]
    assert functions == [["session_close"], ["max"], ["lag"]]
    end, start, previous = windows
    assert [p["index"] for p in previous["calls"][0]["partition"]] == [0]  # by k
    assert [p["index"] for p in end["calls"][0]["partition"]] == [0, 3]  # by k and start
    assert start["calls"][0]["frame"] == {"unit": "range", "start": None, "end": 0}
    assert [c["name"] for c in query["columns"]] == ["k", "e", "b", "n"]
    assert [e["index"] for e in query["exprs"][:3]] == [0, 2, 1]


@pytest.mark.parametrize(
    ("sql", "code", "message"),
    [
        (
            f"SELECT SESSION_START(ts, {GAP}) FROM t",
            "SQL214",
            "SESSION_START(...) needs GROUP BY SESSION(...) with the same arguments",
        ),
        (
            f"SELECT SESSION_END(ts, INTERVAL '1' MINUTE) FROM t GROUP BY SESSION(ts, {GAP})",
            "SQL214",
            "SESSION_END(...) needs GROUP BY SESSION(...) with the same arguments",
        ),
        (
            f"SELECT COUNT(*) FROM t GROUP BY SESSION(ts, {GAP}, {GAP})",
            "SQL207",
            "SESSION expects 2 arguments: a TIMESTAMP and an INTERVAL literal (gap)",
        ),
        (
            f"SELECT SESSION(ts, {GAP}) FROM t",
            "SQL401",
            "Not supported yet: SESSION(...) outside GROUP BY",
        ),
        (
            "SELECT COUNT(*) FROM t GROUP BY SESSION(ts, INTERVAL '1' MONTH)",
            "SQL206",
            "SESSION expects a positive INTERVAL DAY TO SECOND literal as its gap",
        ),
        (
            f"SELECT COUNT(*) FROM t GROUP BY GROUPING SETS ((k, SESSION(ts, {GAP})), ())",
            "SQL401",
            "Not supported yet: SESSION in GROUPING SETS",
        ),
        (  # a session's start is as old as its first row, however late the stream
            f"SELECT SESSION_START(ts, {GAP}) AS b FROM lt GROUP BY SESSION(ts, {GAP})",
            "SQL301",
            "'emit_final' needs a waterline, but none can be inferred for column 'b'",
        ),
    ],
)
def test_misused_sessions_are_errors(sql: str, code: str, message: str) -> None:
    final = " WITH ('emit_final' = 'b')" if code == "SQL301" else ""
    found = the_error(DDL + f"CREATE VIEW v{final} AS {sql};")
    assert found[0] == code and found[1].startswith(message), found


@pytest.mark.parametrize(
    ("view", "final"),
    [
        (  # a streaming aggregate emits each row once final: here, once no row can extend it
            "CREATE VIEW v AS SELECT STREAM k, SESSION_START(rowtime, {gap}) AS b, "
            "SESSION_END(rowtime, {gap}) AS e, COUNT(*) AS n "
            "FROM s GROUP BY k, SESSION(rowtime, {gap})",
            2,
        ),
        (
            "CREATE VIEW v WITH ('emit_final' = 'e') AS SELECT k, "
            "SESSION_END(ts, {gap}) AS e FROM lt GROUP BY SESSION(ts, {gap}), k",
            1,
        ),
    ],
)
def test_a_sessions_end_has_the_waterline_of_its_time(view: str, final: int) -> None:
    result = compile_program(DDL + view.format(gap=GAP) + ";")
    assert not [d for d in result.diagnostics if d.severity == "error"], result.diagnostics_json()
    [relation] = [r for r in result.to_json()["catalog"]["relations"] if r["name"] == "v"]
    waterlines = [c["name"] for c in relation["columns"] if c["waterline"]]
    assert waterlines == ["e"]
    assert relation["emit_final"] == final and relation["output_mode"] == "append"
