"""The compiler never raises for any input: user errors are diagnostics."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backend.compiler import compile_program

CASES = Path(__file__).parent / "cases"
VALID_PROGRAMS = [
    path.read_text(encoding="utf-8")
    for path in sorted(CASES.glob("*.sql"))
    if not any(
        d["severity"] == "error"
        for d in json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))["diagnostics"]
    )
]

# Fragments that make random text look like SQL, so the fuzzing reaches deep
# into the parser and binder rather than stopping at the first token.
SQL_FRAGMENTS = [
    "CREATE", "TABLE", "STREAM", "VIEW", "LOCAL", "MATERIALIZED", "AS", "SELECT", "STREAM",
    "FROM", "WHERE", "GROUP", "BY", "JOIN", "ON", "UNION", "ALL", "WITH", "VALUES", "CASE",
    "WHEN", "THEN", "END", "NOT", "NULL", "AND", "OR", "IS", "IN", "LIKE", "BETWEEN", "CAST",
    "INTERVAL", "TIMESTAMP", "DATE", "HOUR", "TO", "INT", "VARCHAR", "DECIMAL", "PRIMARY",
    "KEY", "LATENESS", "t", "a", "b", "rowtime", "UPPER", "COUNT", "'x'", "'2020-01-01'",
    "1", "2.5", "1e3", "(", ")", ",", ";", ".", "*", "+", "-", "/", "%", "=", "<>", "<", ">=",
    "||", '"Q"', "--c\n", "/*", "*/", "'", '"', "@", "\n",
    "HAVING", "DISTINCT", "LEFT", "FULL", "CROSS", "NATURAL", "USING", "SUM", "MAX", "FLOOR",
    "TUMBLE", "HOP", "TUMBLE_END", "DESCRIPTOR", "TABLE", "=>", "SIZE", "EXTRACT", "'emit_final'",
    "WATERMARK", "v.a", "ELSE", "INTERSECT", "EXCEPT", "ORDER", "LIMIT", "OFFSET", "FETCH",
    "DESC", "SUBSTRING", "POSITION", "TRIM", "LEADING", "FOR", "MOD", "GREATEST", "ROUND",
    "OVER", "PARTITION", "ROWS", "RANGE", "PRECEDING", "FOLLOWING", "ROW_NUMBER", "WINDOW",
    "w", "CURRENT", "ROW", "UNBOUNDED", "PUMP", "INSERT", "INTO", "FOREIGN", "SERVER", "OPTIONS",
    "UNKNOWN", "TRUE", "FALSE", "FROM", "DISTINCT", "EXISTS", "(SELECT", "t.a",
    "SNAPSHOT", "SNAPSHOT(", "LATERAL", "SEARCH_KEY", "SEARCH_KEY(", "TO_CHANGELOG",
    "TO_CHANGELOG(", "FROM_CHANGELOG", "FROM_CHANGELOG(", "FOR SYSTEM_TIME AS OF", "SYSTEM_TIME",
    "OF", "NOW()", "PROCTIME()", "CURRENT_TIMESTAMP", "input =>", "to_time =>", "on_key =>",
    "lookup =>", "options =>", "DESCRIPTOR(", "MAP", "MAP[", "[", "]", "payload", "payload.*",
    "payload.a", "op", "(a, b)", "PRIMARY KEY", "t.rowtime",
]  # fmt: skip


def assert_compiles_without_raising(text: str) -> None:
    result = compile_program(text)
    payload = result.to_json()
    json.dumps(payload)
    for diagnostic in result.diagnostics:
        assert 0 <= diagnostic.span.start <= diagnostic.span.end <= len(text)
    assert (payload["plan"] is None) == result.has_errors


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text())
def test_random_text(text: str) -> None:
    assert_compiles_without_raising(text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(SQL_FRAGMENTS), max_size=60).map(" ".join))
def test_random_sql_like_token_soup(text: str) -> None:
    assert_compiles_without_raising(text)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(VALID_PROGRAMS), st.data())
def test_random_truncations_of_valid_programs(program: str, data: st.DataObject) -> None:
    cut = data.draw(st.integers(min_value=0, max_value=len(program)))
    assert_compiles_without_raising(program[:cut])


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(VALID_PROGRAMS), st.data())
def test_random_edits_of_valid_programs(program: str, data: st.DataObject) -> None:
    start = data.draw(st.integers(min_value=0, max_value=len(program)))
    end = data.draw(st.integers(min_value=start, max_value=min(len(program), start + 20)))
    insert = data.draw(st.sampled_from(["", *SQL_FRAGMENTS]))
    assert_compiles_without_raising(program[:start] + insert + program[end:])


def test_pathological_inputs() -> None:
    for text in [
        "(" * 5000,
        "SELECT " + "-" * 5000 + "1 FROM t",
        "SELECT " + "NOT " * 5000 + "a FROM t",
        "CREATE TABLE t (a INT); CREATE VIEW v AS SELECT " + " + ".join(["a"] * 5000) + " FROM t",
        "CREATE TABLE t (a VARCHAR(" + "9" * 5000 + "))",
        "SELECT " + "9" * 5000 + " FROM t",
        "SELECT INTERVAL '" + "9" * 5000 + "' HOUR FROM t",
        "CREATE VIEW v WITH ('emit_final' = '" + "9" * 5000 + "') AS SELECT 1",
        "'" * 10001,
        "CREATE TABLE t (a INT); CREATE VIEW v AS "
        + " UNION ALL ".join(["SELECT a FROM t"] * 3000),
        "CREATE TABLE t (a INT); CREATE VIEW v AS "
        + " ".join(["SELECT a FROM t UNION ALL SELECT a FROM t UNION"] * 2000)
        + " SELECT a FROM t",
        "CREATE TABLE t (a INT); CREATE VIEW v AS SELECT 1 AS x FROM t "
        + " ".join(f"JOIN t t{i} ON TRUE" for i in range(3000)),
        "CREATE TABLE t (a INT); CREATE VIEW v AS SELECT 1 AS x FROM "
        + ", ".join(f"t t{i}" for i in range(3000)),
        "CREATE TABLE t (a INT); CREATE VIEW v AS WITH x0 AS (SELECT a FROM t)"
        + "".join(f", x{i + 1} AS (SELECT p.a FROM x{i} p JOIN x{i} q ON TRUE)" for i in range(60))
        + " SELECT a FROM x60",
        "/*" * 1000,
        "\x00\ud800\U0001f600",
    ]:
        assert_compiles_without_raising(text)
