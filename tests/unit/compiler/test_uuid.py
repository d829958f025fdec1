"""UUID (Feldera's uuid.md): a column type, `UUID '...'` literals in any of its
spellings (kept in one canonical text), casts from and to strings, and comparisons
with strings, which read the string as a UUID."""

from __future__ import annotations

import pytest

from backend.compiler import compile_program
from backend.compiler.semantic import literals
from tests.unit.compiler.compiled import errors_of

DDL = "CREATE TABLE t (id UUID NOT NULL, s VARCHAR);\n"
CANONICAL = "123e4567-e89b-12d3-a456-426655440000"


@pytest.mark.parametrize(
    "text",
    [
        "123e4567-e89b-12d3-a456-426655440000",
        "123E4567-E89B-12D3-A456-426655440000",
        "123e4567e89b12d3a456426655440000",
        "{123e4567-e89b-12d3-a456-426655440000}",
        "123e-4567-e89b-12d3-a456-4266-5544-0000",
    ],
)
def test_every_spelling_of_uuid_md_is_one_value(text: str) -> None:
    assert literals.uuid(text) == CANONICAL


@pytest.mark.parametrize(
    "text",
    [
        " 123e4567-e89b-12d3-a456-426655440000",  # blanks are never trimmed
        "urn:uuid:123e4567-e89b-12d3-a456-426655440000",
        "{123e4567-e89b-12d3-a456-426655440000",  # one brace
        "123e45-67e89b-12d3-a456-426655440000",  # a hyphen inside a group of four
        "123e4567-e89b-12d3-a456-42665544000",  # 31 digits
        "",
    ],
)
def test_other_strings_are_no_uuid(text: str) -> None:
    with pytest.raises(literals.InvalidLiteral, match="Invalid UUID"):
        literals.uuid(text)


def test_uuid_columns_literals_casts_and_comparisons() -> None:
    result = compile_program(
        DDL + "CREATE VIEW v AS SELECT id, CAST(id AS VARCHAR) AS txt, CAST(s AS UUID) AS u, "
        "UUID '{123E4567E89B12D3A456426655440000}' AS lit, id = s AS same, "
        f"id = '{CANONICAL.upper()}' AS same_literal FROM t;"
    )
    assert not result.has_errors, result.diagnostics_json()
    [view] = [r for r in result.to_json()["catalog"]["relations"] if r["name"] == "v"]
    assert [(c["name"], c["type"], c["nullable"]) for c in view["columns"]] == [
        ("id", "UUID", False),
        ("txt", "VARCHAR", False),
        ("u", "UUID", True),
        ("lit", "UUID", False),
        ("same", "BOOLEAN", True),
        ("same_literal", "BOOLEAN", False),
    ]
    [plan] = result.to_json()["plan"]["views"]
    exprs = plan["query"]["exprs"]
    assert exprs[3] == {"kind": "literal", "value": CANONICAL, "type": "UUID"}
    assert exprs[4]["args"][1] == {  # the string is read as a UUID
        "kind": "cast",
        "expr": {"kind": "column", "index": 1, "name": "s", "type": "VARCHAR"},
        "type": "UUID",
    }
    assert exprs[5]["args"][1] == {"kind": "literal", "value": CANONICAL, "type": "UUID"}


def test_uuid_mistakes() -> None:
    assert errors_of(DDL + "CREATE VIEW v AS SELECT UUID 'xyz' AS u FROM t;") == [
        (
            "SQL209",
            "Invalid UUID 'xyz': expected 32 hex digits, such as "
            "'123e4567-e89b-12d3-a456-426655440000'",
        )
    ]
    assert errors_of(DDL + "CREATE VIEW v AS SELECT id + 1 AS u FROM t;") == [
        ("SQL206", "Cannot apply '+' to UUID and INTEGER")
    ]
