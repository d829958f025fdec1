"""Program text, spans into it, and the mapping from offsets to lines and columns.

Spans are half-open ranges of character offsets (`text[start:end]`). Lines and
columns are derived only when a diagnostic is rendered: they are 1-based, the end
is exclusive, and columns count UTF-16 code units because that is what the Monaco
editor (and JavaScript strings) count. For text without characters outside the
Basic Multilingual Plane that is the same as counting characters.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

# Monaco treats "\r\n", "\r" and "\n" as line breaks, so the compiler does too.
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


@dataclass(frozen=True, slots=True)
class Span:
    """A half-open range `[start, end)` of character offsets into the program text."""

    start: int
    end: int

    def to(self, other: Span) -> Span:
        """The smallest span covering both `self` and `other`.

        >>> Span(2, 4).to(Span(7, 9))
        Span(start=2, end=9)
        """
        return Span(min(self.start, other.start), max(self.end, other.end))

    def text(self, source_text: str) -> str:
        return source_text[self.start : self.end]


@dataclass(frozen=True, slots=True)
class Position:
    """A 1-based line and column (in UTF-16 code units)."""

    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Source:
    """The text of one program and the offsets where its lines start."""

    text: str
    line_starts: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        starts = [0]
        starts.extend(match.end() for match in _LINE_BREAK.finditer(self.text))
        object.__setattr__(self, "line_starts", tuple(starts))

    def position(self, offset: int) -> Position:
        """The line and column of a character offset.

        >>> Source("ab\\ncd").position(4)
        Position(line=2, column=2)
        """
        offset = max(0, min(offset, len(self.text)))
        index = bisect.bisect_right(self.line_starts, offset) - 1
        line_start = self.line_starts[index]
        prefix = self.text[line_start:offset]
        column = len(prefix) + len(_ASTRAL.findall(prefix)) + 1
        return Position(index + 1, column)

    def line_text(self, line: int) -> str:
        """The text of a 1-based line, without its line break."""
        start = self.line_starts[line - 1]
        end = self.line_starts[line] if line < len(self.line_starts) else len(self.text)
        return self.text[start:end].rstrip("\r\n")

    def line_start_offset(self, line: int) -> int:
        return self.line_starts[line - 1]

    def lines_of(self, span: Span) -> range:
        """The 1-based line numbers a span touches (an empty span touches one line)."""
        first = self.position(span.start).line
        last_offset = span.end - 1 if span.end > span.start else span.start
        last = self.position(last_offset).line
        return range(first, max(first, last) + 1)

    def snippet(self, span: Span) -> str:
        """The source line(s) a span touches, joined with newlines.

        >>> Source("a\\nSELECT amout\\nb").snippet(Span(9, 14))
        'SELECT amout'
        """
        return "\n".join(self.line_text(line) for line in self.lines_of(span))
