from __future__ import annotations

import pytest

from backend.compiler.source import Position, Source, Span


@pytest.mark.parametrize(
    ("text", "offset", "expected"),
    [
        ("abc", 0, Position(1, 1)),
        ("abc", 3, Position(1, 4)),  # end of text
        ("ab\ncd", 3, Position(2, 1)),
        ("ab\r\ncd", 4, Position(2, 1)),  # \r\n is one line break
        ("ab\rcd", 3, Position(2, 1)),  # a lone \r too, as in Monaco
        ("a\n\nb", 3, Position(3, 1)),
    ],
)
def test_offsets_map_to_one_based_lines_and_columns(
    text: str, offset: int, expected: Position
) -> None:
    assert Source(text).position(offset) == expected


def test_columns_count_utf16_code_units_like_the_editor() -> None:
    source = Source("'😀' x")  # the emoji is two UTF-16 code units
    assert source.position(4).column == 6  # the space after the closing quote
    assert Source("'é' x").position(4).column == 5  # BMP characters are one unit


def test_offsets_outside_the_text_are_clamped() -> None:
    source = Source("ab")
    assert source.position(-5) == Position(1, 1)
    assert source.position(99) == Position(1, 3)


def test_snippet_is_the_lines_a_span_touches_without_line_breaks() -> None:
    source = Source("one\r\ntwo\nthree")
    assert source.snippet(Span(5, 6)) == "two"
    assert source.snippet(Span(1, 7)) == "one\ntwo"
    assert source.snippet(Span(14, 14)) == "three"  # an empty span at the end


def test_a_span_ending_at_a_line_break_touches_only_its_line() -> None:
    source = Source("abc\ndef")
    assert list(source.lines_of(Span(0, 4))) == [1]


def test_span_to_covers_both_spans() -> None:
    assert Span(5, 7).to(Span(1, 2)) == Span(1, 7)
