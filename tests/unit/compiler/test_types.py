from __future__ import annotations

from typing import Any

import pytest

from backend.compiler.diagnostics import Diagnostic
from backend.compiler.semantic import literals, types
from backend.compiler.semantic.type_names import resolve_type
from backend.compiler.semantic.types import (
    BIGINT,
    BOOLEAN,
    DATE,
    DOUBLE,
    INTEGER,
    INTERVAL_DAY_TIME,
    INTERVAL_YEAR_MONTH,
    NULL,
    REAL,
    SMALLINT,
    TIME,
    TIMESTAMP,
    TINYINT,
    VARCHAR,
    SqlType,
    decimal,
)
from backend.compiler.source import Span
from backend.compiler.syntax.ast import TypeName


@pytest.mark.parametrize(
    ("op", "left", "right", "result"),
    [
        ("+", INTEGER, INTEGER, INTEGER),
        ("+", TINYINT, SMALLINT, SMALLINT),
        ("*", INTEGER, BIGINT, BIGINT),
        ("/", INTEGER, INTEGER, INTEGER),  # standard SQL: integer division
        ("+", INTEGER, REAL, REAL),
        ("+", REAL, DOUBLE, DOUBLE),
        ("+", decimal(10, 2), REAL, DOUBLE),
        ("+", INTEGER, decimal(5, 2), decimal(13, 2)),  # Spark: INTEGER is DECIMAL(10,0)
        ("+", decimal(10, 2), decimal(10, 2), decimal(11, 2)),
        ("*", decimal(10, 2), decimal(10, 2), decimal(21, 4)),
        ("/", decimal(8, 3), decimal(8, 3), decimal(20, 12)),
        ("%", decimal(10, 2), decimal(5, 0), decimal(7, 2)),
        ("*", decimal(38, 10), decimal(38, 10), decimal(38, 6)),  # bounded like Spark
        ("+", NULL, INTEGER, INTEGER),
        ("+", TIMESTAMP, INTERVAL_DAY_TIME, TIMESTAMP),
        ("+", INTERVAL_DAY_TIME, TIMESTAMP, TIMESTAMP),
        ("-", TIMESTAMP, TIMESTAMP, INTERVAL_DAY_TIME),
        ("+", DATE, INTERVAL_YEAR_MONTH, DATE),
        ("+", DATE, INTERVAL_DAY_TIME, DATE),  # in whole days, as in Calcite and Feldera
        ("+", TIME, INTERVAL_DAY_TIME, TIME),
        ("*", INTERVAL_DAY_TIME, INTEGER, INTERVAL_DAY_TIME),
        ("*", INTEGER, INTERVAL_YEAR_MONTH, INTERVAL_YEAR_MONTH),
        ("+", VARCHAR, INTEGER, None),
        ("+", VARCHAR, VARCHAR, None),
        ("+", BOOLEAN, BOOLEAN, None),
        ("+", TIMESTAMP, INTEGER, None),
        ("-", INTERVAL_DAY_TIME, TIMESTAMP, None),
        ("+", INTERVAL_DAY_TIME, INTERVAL_YEAR_MONTH, None),
        # Intervals of one unit keep it; of two, all of both: INTERVAL DAY TO SECOND.
        ("+", types.interval_of("DAY"), types.interval_of("DAY"), types.interval_of("DAY")),
        ("-", types.interval_of("DAY"), types.interval_of("HOUR"), INTERVAL_DAY_TIME),
        ("+", types.interval_of("YEAR"), types.interval_of("MONTH"), INTERVAL_YEAR_MONTH),
        ("*", types.interval_of("MONTH"), INTEGER, types.interval_of("MONTH")),
        ("+", NULL, NULL, None),
    ],
)
def test_arithmetic_result_types(
    op: str, left: SqlType, right: SqlType, result: SqlType | None
) -> None:
    assert types.arithmetic_type(op, left, right) == result


@pytest.mark.parametrize(
    ("a", "b", "ok"),
    [
        (INTEGER, DOUBLE, True),
        (decimal(5, 2), BIGINT, True),
        (VARCHAR, VARCHAR, True),
        (DATE, TIMESTAMP, True),
        (NULL, VARCHAR, True),
        (VARCHAR, INTEGER, False),
        (BOOLEAN, INTEGER, False),
        (TIMESTAMP, VARCHAR, False),
        (TIME, TIMESTAMP, False),
    ],
)
def test_comparable(a: SqlType, b: SqlType, ok: bool) -> None:
    assert types.comparable(a, b) is ok
    assert types.comparable(b, a) is ok


def test_common_type_widens_numbers_and_timestamps() -> None:
    assert types.common_type(INTEGER, BIGINT) == BIGINT
    assert types.common_type(decimal(5, 2), decimal(10, 0)) == decimal(12, 2)
    assert types.common_type(DATE, TIMESTAMP) == TIMESTAMP
    assert types.common_type(NULL, VARCHAR) == VARCHAR
    assert types.common_type(VARCHAR, INTEGER) is None


@pytest.mark.parametrize(
    ("source", "target", "ok"),
    [
        (VARCHAR, TIMESTAMP, True),
        (TIMESTAMP, VARCHAR, True),
        (DOUBLE, decimal(10, 2), True),
        (BOOLEAN, INTEGER, True),
        (DATE, TIMESTAMP, True),
        (TIMESTAMP, TIME, True),
        (TIME, TIMESTAMP, True),
        (REAL, BOOLEAN, True),
        (NULL, DATE, True),
        (DATE, BOOLEAN, False),
        (BOOLEAN, decimal(3, 1), True),
        (TIMESTAMP, BOOLEAN, False),
        (TIME, DATE, False),
        (INTERVAL_DAY_TIME, INTEGER, False),
    ],
)
def test_can_cast(source: SqlType, target: SqlType, ok: bool) -> None:
    assert types.can_cast(source, target) is ok


def test_canonical_type_names() -> None:
    assert [str(t) for t in (INTEGER, decimal(10, 2), NULL, INTERVAL_DAY_TIME)] == [
        "INTEGER",
        "DECIMAL(10,2)",
        "NULL",
        "INTERVAL DAY TO SECOND",
    ]


@pytest.mark.parametrize(
    ("words", "params", "expected"),
    [
        (("int",), (), "INTEGER"),
        (("bool",), (), "BOOLEAN"),
        (("float",), (), "REAL"),
        (("float",), (53,), "DOUBLE"),
        (("double", "precision"), (), "DOUBLE"),
        (("numeric",), (12, 4), "DECIMAL(12,4)"),
        (("decimal",), (), "DECIMAL(10,0)"),
        (("decimal",), (7,), "DECIMAL(7,0)"),
        (("char",), (3,), "VARCHAR"),
        (("character", "varying"), (10,), "VARCHAR"),
        (("string",), (), "VARCHAR"),
        (("text",), (), "VARCHAR"),
        (("timestamp", "without", "time", "zone"), (3,), "TIMESTAMP"),
        (("time",), (), "TIME"),
    ],
)
def test_type_names_resolve_to_canonical_types(
    words: tuple[str, ...], params: tuple[int, ...], expected: str
) -> None:
    diagnostics: list[Diagnostic] = []
    resolved = resolve_type(TypeName(words, params, Span(0, 1)), diagnostics)
    assert str(resolved) == expected
    assert diagnostics == []


@pytest.mark.parametrize(
    ("text", "kind", "negative", "value", "sql_type"),
    [
        ("7", "integer", False, 7, INTEGER),
        ("2147483648", "integer", True, -2147483648, INTEGER),
        ("2147483648", "integer", False, 2147483648, BIGINT),
        ("9223372036854775808", "integer", False, "9223372036854775808", decimal(19, 0)),
        ("12.50", "decimal", False, "12.50", decimal(4, 2)),
        ("0.05", "decimal", False, "0.05", decimal(2, 2)),
        ("1.", "decimal", True, "-1", decimal(1, 0)),
        ("0.0000001", "decimal", False, "0.0000001", decimal(7, 7)),
        ("2.5e2", "float", False, 250.0, DOUBLE),
    ],
)
def test_number_literals(
    text: str, kind: str, negative: bool, value: object, sql_type: SqlType
) -> None:
    assert literals.number(text, kind, negative) == (value, sql_type)


@pytest.mark.parametrize(
    ("value", "start", "end", "expected"),
    [
        ("1", "hour", None, 3_600_000_000),
        ("1:30", "hour", "minute", 5_400_000_000),
        ("1:00", "hour", "minute", 3_600_000_000),
        ("2 03:04:05.5", "day", "second", 183_845_500_000),
        ("-10", "second", None, -10_000_000),
        ("90", "minute", None, 5_400_000_000),  # the leading field is unbounded
        ("1-6", "year", "month", 18),
        ("3", "month", None, 3),
    ],
)
def test_interval_literals(value: str, start: str, end: str | None, expected: int) -> None:
    assert literals.interval(value, False, start, end)[0] == expected


@pytest.mark.parametrize(
    ("value", "start", "end"),
    [
        ("1:60", "hour", "minute"),  # a non-leading field out of range
        ("1 hour", "hour", None),
        ("1", "hour", "day"),  # not a valid qualifier
        ("1-12", "year", "month"),
        ("1.1234567", "second", None),
    ],
)
def test_invalid_interval_literals(value: str, start: str, end: str | None) -> None:
    with pytest.raises(literals.InvalidLiteral):
        literals.interval(value, False, start, end)


def test_datetime_literals_are_canonical() -> None:
    assert literals.timestamp(" 2024-2-9 7:05 ") == "2024-02-09 07:05:00"
    assert literals.timestamp("2024-01-01T10:00:00.25") == "2024-01-01 10:00:00.250000"
    assert literals.date("2024-02-29") == "2024-02-29"
    assert literals.time("23:59:59.000001") == "23:59:59.000001"
    for bad in ("2023-02-29", "2024-01-01 24:00:00", "01/02/2024", "2024-01-01 10:00:00.1234567"):
        with pytest.raises(literals.InvalidLiteral):
            literals.timestamp(bad)


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (("int2",), "SMALLINT"),
        (("int4",), "INTEGER"),
        (("int8",), "BIGINT"),
        (("float4",), "REAL"),
        (("float8",), "DOUBLE"),
    ],
)
def test_postgresql_type_names_by_bytes(words: tuple[str, ...], expected: str) -> None:
    diagnostics: list[Diagnostic] = []
    assert str(resolve_type(TypeName(words, (), Span(0, 1)), diagnostics)) == expected


def _view_exprs(program: str) -> list[Any]:
    """The expressions of the first view's projection in `program`'s plan."""
    from backend.compiler import compile_program

    result = compile_program(program)
    assert not result.has_errors, result.diagnostics_json()
    return result.to_json()["plan"]["views"][0]["query"]["exprs"]  # type: ignore[no-any-return]


def test_a_string_literal_compared_with_a_date_or_time_is_one_of_that_type() -> None:
    exprs = _view_exprs(
        "CREATE TABLE t (d DATE, ts TIMESTAMP, tm TIME);\n"
        "CREATE VIEW v AS SELECT d > '2014-11-05' AS a, '2020-01-01' <= ts AS b, "
        "tm = '10:00' AS c FROM t;"
    )
    literals = [e["args"][1] if e["args"][0]["kind"] == "column" else e["args"][0] for e in exprs]
    assert [(lit["type"], lit["value"]) for lit in literals] == [
        ("DATE", "2014-11-05"),
        ("TIMESTAMP", "2020-01-01 00:00:00"),
        ("TIME", "10:00:00"),
    ]


def test_a_simple_case_compares_its_literals_as_the_operand_s_type() -> None:
    # CASE x WHEN v is x = v, so the same literals take x's type (Feldera's tests).
    exprs = _view_exprs(
        "CREATE TABLE t (r REAL, d DATE);\n"
        "CREATE VIEW v AS SELECT CASE r WHEN -57681.18 THEN 0 END AS a, "
        "CASE d WHEN '2020-06-21' THEN 1 END AS b FROM t;"
    )
    [[real, _]] = exprs[0]["whens"]
    [[date, _]] = exprs[1]["whens"]
    assert (real["args"][1]["kind"], real["args"][1]["type"]) == ("cast", "REAL")
    assert date["args"][1] == {"kind": "literal", "value": "2020-06-21", "type": "DATE"}
