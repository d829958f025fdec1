"""Moving compiled values: every span moves, nothing else changes."""

from __future__ import annotations

import pytest

from backend.compiler import compile_program
from backend.compiler.rebase import same_but_spans, shifted, spans_within
from backend.compiler.semantic.binder import bind
from backend.compiler.source import Span
from backend.compiler.syntax.ast import Identifier
from backend.compiler.syntax.parser import parse
from backend.compiler.syntax.tokens import tokenize

PROGRAM = """CREATE TABLE t (a INT, ts TIMESTAMP LATENESS INTERVAL '1' MINUTE);
CREATE VIEW v AS SELECT a + 1 AS b, ts FROM t WHERE a > 0;
CREATE VIEW w AS SELECT COUNT(*) AS n FROM v GROUP BY b;
"""


def syntax_and_plan(text: str) -> tuple[object, object]:
    program, _ = parse(tokenize(text)[0])
    return program.statements, bind(program)


def test_moving_equals_compiling_the_moved_text() -> None:
    # (The Program's own span is (0, end): the statements are what moves.)
    assert shifted(syntax_and_plan(PROGRAM), 7) == syntax_and_plan("\n" * 7 + PROGRAM)


def test_a_diagnostic_moves_with_its_notes() -> None:
    text = "CREATE TABLE t (a INT);\nCREATE TABLE t (b INT);"
    diagnostic = compile_program(text).diagnostics[0]
    assert diagnostic.notes
    assert shifted(diagnostic, 3) == compile_program("   " + text).diagnostics[0]


def test_what_is_kept_stays_where_it_was() -> None:
    a, b = Identifier("a", False, Span(1, 2)), Identifier("b", False, Span(3, 4))
    assert shifted((a, (b,)), 10, keep=(b,)) == (Identifier("a", False, Span(11, 12)), (b,))


def test_a_value_the_walk_does_not_know_is_refused() -> None:
    with pytest.raises(TypeError, match="cannot move"):
        shifted([Span(1, 2)], 1)


def test_spans_within_and_same_but_spans() -> None:
    statements, plan = syntax_and_plan(PROGRAM)
    assert spans_within(statements, 0, len(PROGRAM))
    assert not spans_within(statements, 1, len(PROGRAM))
    assert not spans_within(statements, 0, len(PROGRAM) - 3)
    assert same_but_spans(plan, shifted(plan, 5))
    assert not same_but_spans(plan, syntax_and_plan(PROGRAM.replace("a > 0", "a > 1"))[1])
