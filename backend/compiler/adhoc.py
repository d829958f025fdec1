"""Queries over a program, each compiled as a view appended to it.

`weir replay --query` and the API's ad-hoc queries both work this way: a
`SELECT STREAM ...` is a view like any other, a plain `SELECT` a view whose
content is read at one moment. Diagnostics of a query are located in the
query's own text. A query the program itself writes as a statement is a view
of the program (`query_1`, ...: semantic/binder.py); these come after it.

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
from backend.compiler.semantic.binder import declared_name, query_names, query_span
from backend.compiler.source import Source, Span
from backend.compiler.syntax.parser import parse
from backend.compiler.syntax.tokens import tokenize

STREAM_QUERY = re.compile(r"^\s*SELECT\s+STREAM\b", re.IGNORECASE)


@dataclass(frozen=True)
class Query:
    name: str
    sql: str
    stream: bool


def queries_of(texts: Sequence[str], program: str = "") -> list[Query]:
    """Named `query_1`, `query_2`, ... in order, after the queries the program itself
    writes as statements (which are views `query_1`, ... of their own).

    >>> [q.name for q in queries_of(["SELECT 1", "SELECT 2"], "SELECT 0 AS zero;")]
    ['query_2', 'query_3']
    """
    names = _names_after(program, len(texts))
    return [
        Query(name, text.strip().rstrip(";"), bool(STREAM_QUERY.match(text)))
        for name, text in zip(names, texts, strict=True)
    ]


def _names_after(program: str, count: int) -> list[str]:
    """`count` names after those of the program's own queries, none a name it declares."""
    if not count:
        return []
    statements = parse(tokenize(program)[0])[0].statements
    taken = {name.value for s in statements if (name := declared_name(s)) is not None}
    own = sum(query_span(s) is not None for s in statements)
    return query_names(taken, own + count)[own:]


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
