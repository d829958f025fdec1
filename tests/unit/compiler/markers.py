"""Shared helpers for the compiler tests."""

from __future__ import annotations

from backend.compiler.source import Span

OPEN, CLOSE = "«", "»"


def marked(text: str) -> tuple[str, list[Span]]:
    """Strip «» markers from `text`, returning it and the spans they enclosed.

    Tests write the expected span of a diagnostic inside the SQL itself:
    `SELECT «amout» FROM orders` expects a span covering `amout`.
    """
    spans: list[Span] = []
    clean: list[str] = []
    start = None
    for char in text:
        if char == OPEN:
            start = len(clean)
        elif char == CLOSE:
            assert start is not None, "» without «"
            spans.append(Span(start, len(clean)))
            start = None
        else:
            clean.append(char)
    assert start is None, "« without »"
    return "".join(clean), spans
