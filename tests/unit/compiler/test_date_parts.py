"""EXTRACT's units and the functions that are EXTRACT of one unit (YEAR(ts), ...)."""

from __future__ import annotations

import pytest

from backend.compiler import compile_program

DDL = "CREATE TABLE t (ts TIMESTAMP, d DATE NOT NULL, tm TIME, s VARCHAR);\n"


def _errors(sql: str) -> list[tuple[str, str]]:
    result = compile_program(DDL + sql)
    return [(d.code, d.message) for d in result.diagnostics if d.severity == "error"]


def _columns(sql: str) -> list[tuple[str, str, bool]]:
    result = compile_program(DDL + sql)
    assert not result.has_errors, result.diagnostics_json()
    [view] = [r for r in result.to_json()["catalog"]["relations"] if r["name"] == "v"]
    return [(c["name"], c["type"], c["nullable"]) for c in view["columns"]]


def test_every_unit_of_extract_and_its_function_is_a_bigint() -> None:
    sql = (
        "CREATE VIEW v AS SELECT EXTRACT(QUARTER FROM ts) AS q, EXTRACT(WEEK FROM d) AS w, "
        "EXTRACT(DOW FROM d) AS dow, EXTRACT(DOY FROM ts) AS doy, YEAR(d) AS y, "
        "QUARTER(ts) AS q2, MONTH(d) AS m, WEEK(ts) AS w2, DAYOFMONTH(d) AS dm, "
        "DAYOFWEEK(ts) AS dw, DAYOFYEAR(d) AS dy, HOUR(tm) AS h, MINUTE(ts) AS mi, "
        "SECOND(tm) AS sec FROM t;"
    )
    columns = _columns(sql)
    assert {type_ for _, type_, _ in columns} == {"BIGINT"}
    nullable = {name: is_nullable for name, _, is_nullable in columns}
    assert nullable["y"] is False and nullable["dm"] is False, "d is NOT NULL"
    assert nullable["q"] is True and nullable["h"] is True


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        ("SELECT HOUR(d) FROM t", "Cannot HOUR from DATE"),
        ("SELECT EXTRACT(DOW FROM tm) FROM t", "Cannot EXTRACT DOW from TIME"),
        ("SELECT YEAR(s) FROM t", "Cannot YEAR from VARCHAR"),
        ("SELECT EXTRACT(FORTNIGHT FROM ts) FROM t", "Cannot EXTRACT FORTNIGHT"),
        ("SELECT YEAR(ts, d) FROM t", "YEAR expects 1 argument"),
        ("SELECT MONTH(*) FROM t", "MONTH expects 1 argument"),
    ],
)
def test_a_unit_its_argument_cannot_have_is_an_error(sql: str, message: str) -> None:
    errors = _errors(f"CREATE VIEW v AS {sql};")
    assert len(errors) == 1 and message in errors[0][1], errors
