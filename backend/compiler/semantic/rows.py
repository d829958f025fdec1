"""ROW values: `payload.col` field access and `payload.*` (TO_CHANGELOG's payload).

A name `a.b` is first a column `b` of the FROM entry `a` (standard SQL); only
when no entry is named `a` is it the field `b` of a ROW column `a`. A field
access is the call `field(row, index)` (docs/contracts.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from backend.compiler.diagnostics import Code, Diagnostic, error
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import types
from backend.compiler.source import Span
from backend.compiler.suggest import Budget, did_you_mean
from backend.compiler.syntax import ast


def field_access(
    base: plan.Expr,
    names: Sequence[ast.Identifier],
    diagnostics: list[Diagnostic],
    suggestions: Budget,
) -> plan.Expr | None:
    """`base.n1.n2...`: fields of a ROW value, or None (reported)."""
    result = base
    for name in names:
        if not types.is_row(result.type):
            message = f"'{name.value}' is not a field: {result.type} is not a ROW"
            diagnostics.append(error(Code.TYPE_MISMATCH, message, name.span))
            return None
        position = field_position(result.type, name.value)
        if position is None:
            known = [f.name for f in result.type.fields]
            hint = did_you_mean(name.value, known, suggestions)
            message = f"Unknown field '{name.value}' in {result.type}"
            diagnostics.append(error(Code.UNKNOWN_COLUMN, message, name.span, hint=hint))
            return None
        result = field_of(result, position, base.span.to(name.span))
    return result


def field_of(base: plan.Expr, position: int, span: Span) -> plan.Call:
    """The `position`-th field of the ROW value `base`."""
    found = base.type.fields[position]
    index = plan.Literal(position, types.INTEGER, False, span)
    nullable = base.nullable or found.nullable
    return plan.Call("field", (base, index), found.type, nullable, span)


def field_position(row_type: types.SqlType, name: str) -> int | None:
    for position, found in enumerate(row_type.fields):
        if found.name == name:
            return position
    return None


def row_fields(base: plan.Expr, span: Span) -> list[tuple[plan.Expr, str]]:
    """`row.*`: every field of a ROW value, with its name."""
    return [(field_of(base, i, span), f.name) for i, f in enumerate(base.type.fields)]
