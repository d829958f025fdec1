"""FORMAT_DATE and FORMAT_TIMESTAMP: strftime's specifiers, checked as the program
compiles (backend/compiler/semantic/time_formats.py)."""

from __future__ import annotations

from backend.compiler import compile_program
from tests.unit.compiler.compiled import errors_of

DDL = "CREATE TABLE t (d DATE, ts TIMESTAMP NOT NULL, s VARCHAR);\n"


def test_the_value_is_cast_to_the_functions_type_and_the_result_is_varchar() -> None:
    result = compile_program(
        DDL + "CREATE VIEW v AS SELECT FORMAT_DATE('%Y-%m-%d', ts) AS a, "
        "FORMAT_TIMESTAMP('%F %T', d) AS b, FORMAT_TIMESTAMP('%H:%M', ts) AS c FROM t;"
    )
    assert not result.has_errors, result.diagnostics_json()
    spec = result.to_json()
    [view] = [r for r in spec["catalog"]["relations"] if r["name"] == "v"]
    assert [(c["type"], c["nullable"]) for c in view["columns"]] == [
        ("VARCHAR", False),
        ("VARCHAR", True),
        ("VARCHAR", False),
    ]
    [plan_view] = [v for v in spec["plan"]["views"] if v["name"] == "v"]
    date_of_ts, timestamp_of_d, _ = plan_view["query"]["exprs"]
    assert date_of_ts["args"][1] == {
        "kind": "cast",
        "type": "DATE",
        "expr": {"kind": "column", "index": 1, "name": "ts", "type": "TIMESTAMP"},
    }
    assert timestamp_of_d["args"][1]["type"] == "TIMESTAMP"


def test_a_format_is_a_literal_of_known_specifiers_and_a_date_has_no_time_of_day() -> None:
    errors = errors_of(
        DDL + "CREATE VIEW v AS SELECT FORMAT_DATE('%d %H', d), FORMAT_TIMESTAMP('%Q', ts), "
        "FORMAT_TIMESTAMP(s, ts), FORMAT_DATE('%Y', s), FORMAT_TIMESTAMP('100%', ts) FROM t;"
    )
    assert [code for code, _ in errors] == ["SQL209", "SQL209", "SQL206", "SQL206", "SQL209"]
    assert errors[0][1] == (
        "FORMAT_DATE's format '%d %H' has %H, a time of day: a DATE has none (FORMAT_TIMESTAMP has)"
    )
    assert errors[1][1].startswith("FORMAT_TIMESTAMP's format '%Q' has %Q, not one of %Y %y")
    assert errors[2][1] == "FORMAT_TIMESTAMP's format must be a string literal, found VARCHAR"
    assert errors[3][1] == "FORMAT_DATE expects a DATE or TIMESTAMP, found VARCHAR"
