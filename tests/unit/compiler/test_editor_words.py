"""The editor colours every function the compiler accepts (frontend weirSql.ts)."""

from __future__ import annotations

import re
from pathlib import Path

from backend.compiler.semantic import functions, time_functions, windows

WEIR_SQL = Path(__file__).parents[3] / "frontend/src/features/editor/weirSql.ts"


def _listed(name: str) -> set[str]:
    """The words of the exported array `name` in weirSql.ts."""
    text = WEIR_SQL.read_text()
    body = re.search(rf"export const {name}: readonly string\[\] = \[(.*?)\];", text, re.S)
    assert body is not None, name
    return set(re.findall(r"'([A-Z_0-9]+)'", body.group(1)))


def test_every_function_the_compiler_accepts_is_coloured() -> None:
    coloured = set()
    for name in ("BUILTIN_FUNCTIONS", "KEYWORDS", "DIALECT_KEYWORDS"):
        coloured |= _listed(name)
    accepted = {
        *functions.SCALAR_FUNCTIONS,
        *(functions.AGGREGATE_FUNCTIONS - {"any_value"}),
        *windows.RANKING,
        *windows.OFFSETS,
        *windows.FRAME_VALUES,
        "ntile",
        *time_functions.DATE_PART_FUNCTIONS,
        *time_functions.WINDOW_FUNCTIONS,
        *time_functions.TIMESTAMP_ARITHMETIC,
        *time_functions.TRUNCATIONS,
        *time_functions.DATE_SHIFTS,
    }
    assert sorted(f.upper() for f in accepted if f.upper() not in coloured) == []


def test_the_words_of_create_function_are_keywords() -> None:
    assert {"FUNCTION", "RETURNS"} <= _listed("KEYWORDS")
