"""A compile with a `CompileCache` answers exactly what a compile without one does.

Programs are built from the golden corpus (`cases/*.sql`) and edited at random
the way an editor edits them: statements inserted, deleted, replaced and
moved, text typed or deleted inside a statement (often before everything
else, so that the rest moves), garbage pasted, the program cut short. After
every edit the cached compile must equal the uncached one: the JSON (with
diagnostics' lines and columns), the catalog and the plan with all their spans.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backend.compiler import compile_program
from backend.compiler.cache import CompileCache
from backend.compiler.syntax.tokens import semicolon_ends
from tests.unit.compiler.test_robustness import SQL_FRAGMENTS

CASES = Path(__file__).parent / "cases"
PROGRAMS = [path.read_text(encoding="utf-8") for path in sorted(CASES.glob("*.sql"))]


def pieces(text: str) -> list[str]:
    """`text` cut after each `;`: joined, the pieces are `text`."""
    starts = [0, *semicolon_ends(text)]
    cut = [text[a:b] for a, b in zip(starts, [*starts[1:], len(text)], strict=True)]
    return [piece for piece in cut if piece]


STATEMENTS = sorted({piece for program in PROGRAMS for piece in pieces(program)})


def assert_same_as_uncached(text: str, cache: CompileCache) -> None:
    cached = compile_program(text, cache)
    uncached = compile_program(text)
    assert cached.to_json() == uncached.to_json()
    assert cached.diagnostics == uncached.diagnostics
    assert cached.catalog == uncached.catalog
    assert cached.plan == uncached.plan


def edited(text: str, data: st.DataObject) -> str:
    parts = pieces(text)
    edit = data.draw(
        st.sampled_from(
            [
                "insert statement",
                "delete statement",
                "replace statement",
                "move statement",
                "type",
                "delete text",
                "type at the start",
                "garbage",
                "truncate",
            ]
        )
    )
    where = data.draw(st.integers(min_value=0, max_value=len(parts)))
    position = data.draw(st.integers(min_value=0, max_value=len(text)))
    if edit == "insert statement":
        parts.insert(where, data.draw(st.sampled_from(STATEMENTS)))
    elif edit == "replace statement" and parts:
        parts[min(where, len(parts) - 1)] = data.draw(st.sampled_from(STATEMENTS))
    elif edit == "delete statement" and parts:
        del parts[min(where, len(parts) - 1)]
    elif edit == "move statement" and parts:
        moved = parts.pop(min(where, len(parts) - 1))
        parts.insert(data.draw(st.integers(min_value=0, max_value=len(parts))), moved)
    elif edit in ("type", "type at the start"):
        at = 0 if edit == "type at the start" else position
        typed = data.draw(st.sampled_from([*SQL_FRAGMENTS, " ", "\n", "x", "é", "\U0001f600"]))
        return text[:at] + typed + text[at:]
    elif edit == "delete text":
        length = data.draw(st.integers(min_value=1, max_value=30))
        return text[:position] + text[position + length :]
    elif edit == "garbage":
        return text[:position] + data.draw(st.text(max_size=12)) + text[position:]
    elif edit == "truncate":
        return text[:position]
    return "".join(parts)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PROGRAMS), st.data())
def test_cached_compiles_equal_uncached_ones_through_random_edits(
    program: str, data: st.DataObject
) -> None:
    cache = CompileCache()
    text = program
    assert_same_as_uncached(text, cache)
    for _ in range(data.draw(st.integers(min_value=1, max_value=6))):
        text = edited(text, data)
        assert_same_as_uncached(text, cache)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(PROGRAMS), min_size=2, max_size=3), st.data())
def test_programs_of_several_cases_stay_equal_while_their_statements_move(
    programs: list[str], data: st.DataObject
) -> None:
    # Whole cases joined: names declared in one are redeclared in another, so
    # duplicate declarations, "declared later" notes and LATENESS statements for
    # views elsewhere all appear, and move.
    cache = CompileCache()
    text = "\n".join(programs)
    assert_same_as_uncached(text, cache)
    for _ in range(3):
        text = edited(text, data)
        assert_same_as_uncached(text, cache)


def test_every_golden_case_compiles_the_same_cached_cold_warm_and_moved() -> None:
    cache = CompileCache()
    for program in PROGRAMS:
        for text in (program, program, "-- moved\n" + program, program + "\n;"):
            assert_same_as_uncached(text, cache)
