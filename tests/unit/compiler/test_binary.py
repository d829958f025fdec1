"""BINARY and VARBINARY (Feldera's binary.md): column types, `x'...'` literals (of
several parts too), the string functions' forms for bytes and the functions of bytes,
casts from text and between bytes and UUIDs."""

from __future__ import annotations

import pytest

from backend.compiler import compile_program
from backend.compiler.semantic import literals
from tests.unit.compiler.compiled import errors_of

DDL = "CREATE TABLE t (b VARBINARY, f BINARY(4) NOT NULL, v BINARY VARYING(3), s VARCHAR);\n"


def _view(sql: str) -> tuple[list[tuple[str, str, bool]], list[dict]]:
    result = compile_program(DDL + sql)
    assert not result.has_errors, result.diagnostics_json()
    program = result.to_json()
    [view] = [r for r in program["catalog"]["relations"] if r["name"] == "v"]
    columns = [(c["name"], c["type"], c["nullable"]) for c in view["columns"]]
    return columns, program["plan"]["views"][0]["query"]["exprs"]


def test_literals_are_kept_as_lower_case_hex_digits() -> None:
    columns, exprs = _view(
        "CREATE VIEW v AS SELECT x'45F0ab' AS one, X'AB' 'cd' AS parts, x'' AS e FROM t;"
    )
    assert columns == [
        ("one", "VARBINARY", False),
        ("parts", "VARBINARY", False),
        ("e", "VARBINARY", False),
    ]
    assert [e["value"] for e in exprs] == ["45f0ab", "abcd", ""]


@pytest.mark.parametrize("text", ["A", "ABC", "0G", "12 34"])
def test_a_literal_needs_pairs_of_hex_digits(text: str) -> None:
    with pytest.raises(literals.InvalidLiteral, match="even number of hex digits"):
        literals.binary(text)


def test_every_binary_type_name_is_varbinary() -> None:
    result = compile_program(DDL.replace("s VARCHAR", "s BYTEA"))
    [table] = result.to_json()["catalog"]["relations"]
    assert [c["type"] for c in table["columns"]] == ["VARBINARY"] * 4
    assert [c.get("length") for c in result.to_json()["plan"]["inputs"][0]["columns"]] == [
        None,
        {"kind": "binary", "n": 4},  # zero bytes pad it at the ingress
        {"kind": "varbinary", "n": 3},
        None,
    ]


def test_the_string_functions_take_bytes_in_their_bytes_form() -> None:
    columns, exprs = _view(
        "CREATE VIEW v AS SELECT b || f AS joined, CONCAT(b, x'00', v) AS c3, "
        "OCTET_LENGTH(b) AS n, POSITION(x'20' IN f) AS p, SUBSTRING(b FROM 2 FOR 3) AS s3, "
        "SUBSTR(f, 2) AS s2, OVERLAY(f PLACING x'0203' FROM 2 FOR 3) AS o, LEFT(f, 2) AS l, "
        "RIGHT(f, 2) AS r, MD5(f) AS m, TO_HEX(f) AS h, TO_INT(f) AS i, BIN2UTF8(f) AS u, "
        "LENGTH(s) AS sl, s || 'x' AS text FROM t;"
    )
    assert [e["function"] for e in exprs] == [
        "binary_concat", "binary_concat", "binary_octet_length", "binary_position",
        "binary_substring", "binary_substring", "binary_overlay", "binary_left",
        "binary_right", "binary_md5", "to_hex", "to_int", "bin2utf8", "char_length", "concat",
    ]  # fmt: skip
    assert columns == [
        ("joined", "VARBINARY", True),
        ("c3", "VARBINARY", True),
        ("n", "INTEGER", True),
        ("p", "INTEGER", False),
        ("s3", "VARBINARY", True),
        ("s2", "VARBINARY", False),
        ("o", "VARBINARY", False),
        ("l", "VARBINARY", False),
        ("r", "VARBINARY", False),
        ("m", "VARCHAR", False),
        ("h", "VARCHAR", False),
        ("i", "INTEGER", False),
        ("u", "VARCHAR", True),  # NULL for bytes that are no UTF-8
        ("sl", "INTEGER", True),
        ("text", "VARCHAR", True),
    ]


def test_casts_from_text_and_between_bytes_and_uuids() -> None:
    columns, exprs = _view(
        "CREATE VIEW v AS SELECT CAST(s AS VARBINARY) AS from_text, CAST(b AS VARCHAR) AS hex, "
        "CAST(UUID '123e4567-e89b-12d3-a456-426655440000' AS BINARY(16)) AS of_uuid, "
        "CAST(f AS UUID) AS u, b = x'AB' AS same, b < f AS before FROM t;"
    )
    assert [c[1] for c in columns] == [
        "VARBINARY",
        "VARCHAR",
        "VARBINARY",
        "UUID",
        "BOOLEAN",
        "BOOLEAN",
    ]
    assert exprs[4]["args"][1] == {"kind": "literal", "value": "ab", "type": "VARBINARY"}


@pytest.mark.parametrize(
    ("sql", "error"),
    [
        (
            "SELECT x'ABC' AS a FROM t",
            (
                "SQL209",
                "Invalid binary literal x'ABC': expected an even number of hex digits, "
                "two for each byte, as in x'45F0AB'",
            ),
        ),
        (
            "SELECT b || 'x' AS a FROM t",
            ("SQL206", "CONCAT expects a VARBINARY as argument 2, found VARCHAR"),
        ),
        ("SELECT b = s AS a FROM t", ("SQL206", "Cannot compare VARBINARY with VARCHAR")),
        (
            "SELECT TO_HEX(s) AS a FROM t",
            ("SQL206", "TO_HEX expects a VARBINARY argument, found VARCHAR"),
        ),
        (
            "SELECT SUBSTRING(b FROM 'a') AS a FROM t",
            ("SQL206", "SUBSTRING expects an integer as argument 2, found VARCHAR"),
        ),
        ("SELECT CAST(b AS INTEGER) AS a FROM t", ("SQL206", "Cannot cast VARBINARY to INTEGER")),
        (
            "SELECT POSITION(b IN s) AS a FROM t",
            ("SQL206", "POSITION expects a VARBINARY as argument 2, found VARCHAR"),
        ),
    ],
)
def test_binary_mistakes(sql: str, error: tuple[str, str]) -> None:
    assert errors_of(DDL + f"CREATE VIEW v AS {sql};") == [error]


def test_bit_aggregates_take_bytes_too() -> None:
    result = compile_program(
        DDL + "CREATE VIEW v AS SELECT BIT_AND(b) AS a, BIT_XOR(f) AS x FROM t;"
    )
    assert not result.has_errors, result.diagnostics_json()
    [view] = [r for r in result.to_json()["catalog"]["relations"] if r["name"] == "v"]
    assert [c["type"] for c in view["columns"]] == ["VARBINARY", "VARBINARY"]
    assert errors_of(DDL + "CREATE VIEW v AS SELECT BIT_OR(s) AS o FROM t;")[0][0] == "SQL206"
