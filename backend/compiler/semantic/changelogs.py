"""TO_CHANGELOG(t) and FROM_CHANGELOG(s): a relation's changes as rows, and back.

`TO_CHANGELOG(t)` has the columns `op TINYINT NOT NULL` (Flink's RowKind: 0
insert, 1 update-before, 2 update-after, 3 delete) and `payload ROW(...)` (t's
columns); `FROM_CHANGELOG(s)` reads a relation with such `op` and `payload`
columns back as a table of payload rows.
"""

from __future__ import annotations

from backend.compiler.diagnostics import Code, error
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import types
from backend.compiler.semantic.catalog import RelationKind
from backend.compiler.semantic.environment import Environment
from backend.compiler.semantic.table_functions import (
    BindQuery,
    Input,
    Resolve,
    function_input,
    place_arguments,
)
from backend.compiler.source import Span
from backend.compiler.syntax import ast

OP = "op"
PAYLOAD = "payload"


def bind_changelog(
    item: ast.TableFunction, env: Environment, resolve: Resolve, bind_query: BindQuery
) -> plan.Rel | None:
    call = item.call
    shown = call.name.value.upper()
    placed = place_arguments(call, ("input",), env)
    if placed is None:
        return None
    source = function_input(placed["input"], shown, env, resolve, bind_query)
    if source is None:
        return None
    if shown == "TO_CHANGELOG":
        return _to_changelog(source, call.span)
    return _from_changelog(source, env, call.span)


def _to_changelog(source: Input, span: Span) -> plan.ToChangelog:
    fields = tuple(types.RowField(c.name, c.type, c.nullable) for c in source.rel.columns)
    columns = (
        plan.Field(OP, types.TINYINT, False),
        plan.Field(PAYLOAD, types.row(fields), False),
    )
    return plan.ToChangelog(source.rel, _updated_by_key(source), columns, span)


def _updated_by_key(source: Input) -> tuple[int, ...]:
    """The primary key of a table whose inserts replace rows (op 1 and 2 pair by it)."""
    relation = source.relation
    if relation is None or relation.kind is not RelationKind.TABLE or relation.append_only:
        return ()
    positions = {c.name: i for i, c in enumerate(source.rel.columns)}
    return tuple(positions[name] for name in relation.primary_key if name in positions)


def _from_changelog(source: Input, env: Environment, span: Span) -> plan.Rel | None:
    positions: dict[str, int] = {}
    for index, column in enumerate(source.rel.columns):
        positions.setdefault(column.name, index)
    found = []
    for name, wanted in ((OP, "an integer"), (PAYLOAD, "a ROW")):
        if name not in positions:
            message = (
                f"FROM_CHANGELOG reads a changelog: {source.description} has no column '{name}'"
            )
            hint = "give it the columns op (an integer) and payload (a ROW), as TO_CHANGELOG does"
            env.report(error(Code.UNKNOWN_COLUMN, message, source.span, hint=hint))
            return None
        column = source.rel.columns[positions[name]]
        ok = types.is_integer(column.type) if name == OP else types.is_row(column.type)
        if not ok:
            message = f"FROM_CHANGELOG: column '{name}' must be {wanted}, found {column.type}"
            env.report(error(Code.TYPE_MISMATCH, message, source.span))
            return None
        found.append(positions[name])
    op, payload = found
    payload_type = source.rel.columns[payload].type
    columns = tuple(plan.Field(f.name, f.type, f.nullable) for f in payload_type.fields)
    return plan.FromChangelog(source.rel, op, payload, columns, span)
