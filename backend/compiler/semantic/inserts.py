"""INSERT INTO ... as a statement of a program: SQL402, with how the rows get in.

A program declares a pipeline; rows enter it through its inputs, the ingress API
(`POST /api/v1/pipelines/{name}/ingress/{table}`) or a step line of `weir replay`
(`{"t": [{"insert": {...}}]}`), never through the program. The Feldera spec writes
its input transactions as INSERT statements: the hint turns such a statement's rows
into the step line that sends them. A query's rows go into a stream or table with a
pump, `CREATE PUMP p AS INSERT INTO t SELECT ...` (semantic/pumps.py).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from backend.compiler.diagnostics import Code, error
from backend.compiler.semantic.catalog import Relation
from backend.compiler.semantic.environment import Environment
from backend.compiler.semantic.queries import bind_query
from backend.compiler.syntax import ast
from backend.compiler.syntax import statements as stmt

# Rows written out in full in a hint; the rest are counted.
HINT_ROWS = 3

JsonValue = str | int | float | bool | None | list[int]  # a list: bytes


def bind_insert(insert: stmt.Insert, env: Environment) -> None:
    """Report the statement (SQL402), its target's name and its query still checked."""
    target = env.lookup(insert.target)
    name = target.name if target is not None else insert.target.value
    body = insert.query.body
    if isinstance(body, ast.Values):
        columns = _columns(insert, target)
        hint = (
            f"send the rows to the pipeline's ingress, POST /api/v1/pipelines/{{pipeline}}/"
            f"ingress/{name}, or to weir replay as a step line: {step_line(name, columns, body)}"
        )
    else:
        bind_query(insert.query, env)
        hint = (
            "to insert a query's rows as they come, make it a pump: "
            f"CREATE PUMP name AS {_head(insert, name)} SELECT ..."
        )
    env.report(
        error(
            Code.INSERT_STATEMENT,
            f"A program does not run INSERT statements: rows enter '{name}' through the "
            "pipeline's ingress",
            insert.span,
            hint=hint,
        )
    )


def step_line(name: str, columns: Sequence[str] | None, values: ast.Values) -> str:
    """The `weir replay` step line that inserts the rows, or its shape when the rows
    are not all literals matching `columns` (None: the columns are not known).

    >>> from backend.compiler.source import Span
    >>> at = Span(0, 0)
    >>> rows = ((ast.StringLiteral("home", at), ast.NumberLiteral("2", "integer", at)),)
    >>> step_line("t", ["location", "n"], ast.Values(rows, at))
    '{"t": [{"insert": {"location": "home", "n": 2}}]}'
    >>> step_line("t", ["location"], ast.Values(rows, at))
    '{"t": [{"insert": {"location": ...}}]}'
    """
    rows = [_row(columns, row) for row in values.rows[:HINT_ROWS]]
    if any(row is None for row in rows):
        shape = ", ".join(f"{json.dumps(column)}: ..." for column in columns or ()) or "..."
        return f'{{{json.dumps(name)}: [{{"insert": {{{shape}}}}}]}}'
    line = json.dumps({name: [{"insert": row} for row in rows]}, ensure_ascii=False)
    more = len(values.rows) - HINT_ROWS
    return line if more <= 0 else f"{line} (the first {HINT_ROWS} rows; {more} more)"


def _columns(insert: stmt.Insert, target: Relation | None) -> list[str] | None:
    if insert.columns:
        return [column.value for column in insert.columns]
    return None if target is None else [column.name for column in target.columns]


def _row(columns: Sequence[str] | None, row: tuple[ast.Expr, ...]) -> dict[str, JsonValue] | None:
    if columns is None or len(columns) != len(row):
        return None
    found: dict[str, JsonValue] = {}
    for column, expr in zip(columns, row, strict=True):
        value = _literal(expr)
        if isinstance(value, _NotLiteral):
            return None
        found[column] = value
    return found


class _NotLiteral:
    """An expression whose value only running it could tell."""


def _literal(expr: ast.Expr) -> JsonValue | _NotLiteral:
    """The JSON value of a literal, as ingress takes it."""
    match expr:
        case ast.NumberLiteral(text=text, kind="integer"):
            return int(text)
        case ast.NumberLiteral(text=text):
            return float(text)
        case ast.UnaryOp(op="-", operand=ast.NumberLiteral() as number):
            value = _literal(number)
            return -value if isinstance(value, int | float) else _NotLiteral()
        case ast.TypedLiteral(type="binary", value=digits) if len(digits) % 2 == 0:
            try:  # bytes: the list of their numbers
                return list(bytes.fromhex(digits))
            except ValueError:
                return _NotLiteral()
        case ast.StringLiteral(value=value) | ast.TypedLiteral(value=value):
            return value
        case ast.BooleanLiteral(value=value):
            return value
        case ast.NullLiteral():
            return None
    return _NotLiteral()


def _head(insert: stmt.Insert, name: str) -> str:
    """`INSERT INTO name [(columns)]`, as written."""
    columns = ", ".join(column.value for column in insert.columns)
    return f"INSERT INTO {name}" + (f" ({columns})" if columns else "")
