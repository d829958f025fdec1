"""Queries over a program, each compiled as a view appended to it.

`weir replay --query` and the API's ad-hoc queries both work this way: a
`SELECT STREAM ...` is a view like any other, a plain `SELECT` a view whose
content is read at one moment. Diagnostics of a query are located in the
query's own text.

>>> query = Query("query_1", "SELECT x + FROM t", stream=False)
>>> result = compile_with_queries("CREATE TABLE t (x INT);", [query])
>>> [(d["start_line_number"], d["start_column"]) for d in query_diagnostics(result, query)]
[(1, 12)]
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from backend.compiler.diagnostics import Diagnostic
from backend.compiler.driver import CompileResult, compile_program
from backend.compiler.source import Source, Span

STREAM_QUERY = re.compile(r"^\s*SELECT\s+STREAM\b", re.IGNORECASE)


@dataclass(frozen=True)
class Query:
    name: str
    sql: str
    stream: bool


def queries_of(texts: Sequence[str]) -> list[Query]:
    """Named `query_1`, `query_2`, ... in order."""
    return [
        Query(f"query_{i}", text.strip().rstrip(";"), bool(STREAM_QUERY.match(text)))
        for i, text in enumerate(texts, 1)
    ]


def _with_queries(program: str, queries: Sequence[Query]) -> tuple[str, list[int]]:
    """The program text with the queries appended, and where each query's text starts."""
    text = program.rstrip()
    if text and not text.endswith(";"):
        text += ";"
    starts = []
    for query in queries:
        text += f"\nCREATE VIEW {query.name} AS "
        starts.append(len(text))
        text += f"{query.sql};"
    return text, starts


def compile_with_queries(program: str, queries: Sequence[Query]) -> CompileResult:
    """The program with each query appended as a view (a plain SELECT stays a SELECT)."""
    return compile_program(_with_queries(program, queries)[0])


def _shifted(span: Span, start: int, length: int) -> Span:
    def inside(offset: int) -> int:
        return min(max(offset - start, 0), length)

    return Span(inside(span.start), inside(span.end))


def query_diagnostics(result: CompileResult, query: Query) -> list[dict[str, Any]]:
    """The diagnostics in `query` (the last query compiled into `result`), as JSON with
    lines and columns of the query's text; notes about the program are left out."""
    program = result.source.text[: result.source.text.rindex(f"\nCREATE VIEW {query.name} AS ")]
    start = _with_queries(program, [query])[1][0]
    length = len(query.sql)
    located: list[Diagnostic] = [
        replace(
            diagnostic,
            span=_shifted(diagnostic.span, start, length),
            notes=tuple(
                replace(note, span=_shifted(note.span, start, length))
                for note in diagnostic.notes
                if note.span.start >= start
            ),
        )
        for diagnostic in result.diagnostics
        if diagnostic.span.end > start
    ]
    source = Source(query.sql)
    return [diagnostic.to_json(source) for diagnostic in located]
