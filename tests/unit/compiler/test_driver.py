from __future__ import annotations

import json

from backend.compiler import CompileResult, Diagnostic, compile_program
from backend.compiler.driver import (
    PASSES,
    bind_pass,
    lower_pass,
    parse_pass,
    streaming_pass,
    tokenize_pass,
)

PROGRAM = """
CREATE TABLE orders (id BIGINT NOT NULL, amount DOUBLE);
CREATE VIEW big AS SELECT id FROM orders WHERE amount > 10;
"""


def test_passes_run_in_a_fixed_order() -> None:
    assert [p.__name__ for p in PASSES] == [
        tokenize_pass.__name__,
        parse_pass.__name__,
        bind_pass.__name__,
        streaming_pass.__name__,
        lower_pass.__name__,
    ]


def test_result_json_has_exactly_the_contract_keys() -> None:
    result = compile_program(PROGRAM)
    assert isinstance(result, CompileResult)
    payload = result.to_json()
    assert list(payload) == ["diagnostics", "catalog", "plan"]
    assert list(payload["catalog"]) == ["relations", "pumps"]
    assert list(payload["plan"]) == ["version", "inputs", "views"]
    assert list(payload["catalog"]["relations"][0]) == [
        "name",
        "kind",
        "columns",
        "primary_key",
        "append_only",
        "materialized",
        "local",
        "emit_final",
        "output_mode",
        "foreign",
    ]
    json.dumps(payload)  # serialisable as is


def test_diagnostic_json_matches_the_contract() -> None:
    result = compile_program(
        "CREATE TABLE t (amount INT);\nCREATE VIEW v AS\n  SELECT amout FROM t;"
    )
    (diagnostic,) = result.diagnostics
    assert isinstance(diagnostic, Diagnostic)
    assert diagnostic.to_json(result.source) == {
        "code": "SQL202",
        "severity": "error",
        "message": "Unknown column 'amout' in table 't'",
        "start_line_number": 3,
        "start_column": 10,
        "end_line_number": 3,
        "end_column": 15,
        "snippet": "  SELECT amout FROM t;",
        "notes": [],
        "hint": "did you mean 'amount'?",
    }


def test_notes_carry_their_own_location() -> None:
    result = compile_program("CREATE TABLE t (a INT);\nCREATE TABLE t (b INT);")
    note = result.diagnostics_json()[0]["notes"][0]
    assert note == {
        "message": "'t' is first declared here",
        "start_line_number": 1,
        "start_column": 14,
        "end_line_number": 1,
        "end_column": 15,
    }


def test_comments_and_whitespace_compile_to_an_empty_program() -> None:
    payload = compile_program("  -- nothing here\n/* at all */\n").to_json()
    assert payload == {
        "diagnostics": [],
        "catalog": {"relations": [], "pumps": []},
        "plan": {"version": 2, "inputs": [], "views": []},
    }


def test_plan_is_null_when_any_error_even_from_an_unrelated_statement() -> None:
    result = compile_program(PROGRAM + "CREATE VIEW bad AS SELECT nope FROM orders;")
    assert result.has_errors
    assert result.plan is None and result.to_json()["plan"] is None
    assert [r["name"] for r in result.to_json()["catalog"]["relations"]] == ["orders", "big"]


def test_plan_is_null_after_a_syntax_error_the_binder_never_saw() -> None:
    result = compile_program(PROGRAM + "CREATE VIEW v AS SELECT a @ b FROM orders;")
    assert result.to_json()["plan"] is None


def test_diagnostics_are_in_source_order_across_passes() -> None:
    result = compile_program(
        "CREATE VIEW a AS SELECT * FROM nope;\nCREATE TABLE t (x INT,,);\nSELECT 'open"
    )
    assert [d.code.value for d in result.diagnostics] == ["SQL201", "SQL101", "SQL102"]


def test_output_is_deterministic() -> None:
    text = PROGRAM + "CREATE VIEW x AS SELECT UPPR(id) FROM ordrs; CREATE TABLE orders (z INT);"
    outputs = {json.dumps(compile_program(text).to_json()) for _ in range(3)}
    assert len(outputs) == 1
