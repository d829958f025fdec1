"""`UNNEST(a) [WITH ORDINALITY] AS u(e[, i])` in FROM (docs/dialect.md): after the items
it reads (`FROM t, UNNEST(t.a) ...`, `t CROSS JOIN UNNEST(...)`, `t JOIN UNNEST(...) ON
...`), each row of them once per element of its array: `e`, the element, and `i`, its
place from 1. A NULL or empty array gives no row (as an inner join with it would).
First in FROM, the elements of a constant array. Of a MAP, each key and its value
(`UNNEST(t.m) AS u(k, v)`), in the order of the keys; of an array of ROWs, each
element's fields, as in Feldera."""

from __future__ import annotations

from dataclasses import dataclass

from backend.compiler.diagnostics import Code, error
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import types
from backend.compiler.semantic.environment import Environment
from backend.compiler.semantic.expressions import ExprContext, bind_expr
from backend.compiler.semantic.scope import Scope
from backend.compiler.source import Span
from backend.compiler.syntax import ast


@dataclass(frozen=True, slots=True)
class PendingUnnest:
    """An UNNEST bound against the items left of it, not yet joined to them."""

    array: plan.Expr
    ordinality: bool
    columns: tuple[plan.Field, ...]  # the element (and its place)
    span: Span


def is_unnest(item: ast.TableFunction) -> bool:
    return item.call.name.value.lower() == "unnest" and not item.call.name.quoted


def bind_unnest(
    item: ast.TableFunction, env: Environment, left: Scope | None
) -> PendingUnnest | plan.Unnest | None:
    """The UNNEST to join to the items before it; first in FROM (`FROM UNNEST(ARRAY[1,
    2]) AS u(x)`), the rows of its array, a constant: one row unnested."""
    call = item.call
    ctx = ExprContext(
        left or Scope(), env.diagnostics, env.suggestions, aggregate_clause="FROM", functions=env
    )
    several = len(call.args) > 1
    array = _zipped(call.args, ctx, env) if several else bind_expr(call.args[0], ctx)
    if array is None:
        return None
    if not types.is_array(array.type) and not types.is_map(array.type):
        message = f"UNNEST expects an array or a MAP, found {array.type}"
        env.report(error(Code.TYPE_MISMATCH, message, array.span))
        return None
    assert array.type.element is not None
    element = array.type.element
    if array.type.key is not None:  # a MAP's key and value
        made = [("key", array.type.key, False), ("value", element, True)]
        what = "the key, the value"
    elif types.is_row(element):  # an array of ROWs: the fields (NULL of a NULL element)
        made = [(f.name, f.type, True) for f in element.fields]
        what = "the fields " + ", ".join(f.name for f in element.fields)
    else:
        made = [("element", element, True)]
        what = "the element"
    if item.ordinality:
        made.append(("ordinality", types.INTEGER, False))
        what += " and its place"
    names = [a.value for a in item.column_aliases]
    if names and len(names) != len(made):
        message = f"UNNEST's columns are {what}: name {len(made)}"
        env.report(error(Code.TYPE_MISMATCH, message, item.span))
        return None
    names = names or [name for name, _, _ in made]
    columns = [
        plan.Field(name, sql_type, nullable)
        for name, (_, sql_type, nullable) in zip(names, made, strict=True)
    ]
    if left is None:
        one_row = plan.Values(((),), (), item.span)
        return plan.Unnest(one_row, array, item.ordinality, tuple(columns), item.span)
    return PendingUnnest(array, item.ordinality, tuple(columns), item.span)


def _zipped(args: tuple[ast.Expr, ...], ctx: ExprContext, env: Environment) -> plan.Expr | None:
    """UNNEST(a, b, ...): the arrays side by side, as an array of ROWs whose i-th field is
    the i-th array's element; the longest sets the length, the others padded with NULLs
    (a NULL array is an empty one), as PostgreSQL's UNNEST of several arrays."""
    bound = [bind_expr(arg, ctx) for arg in args]
    arrays = [array for array in bound if array is not None]
    if len(arrays) < len(bound):
        return None
    fields = []
    for i, array in enumerate(arrays):
        if not types.is_array(array.type) or array.type.element is None:
            message = f"UNNEST of several arrays expects arrays, found {array.type}"
            env.report(error(Code.TYPE_MISMATCH, message, array.span))
            return None
        fields.append(types.RowField(f"EXPR${i}", array.type.element, True))
    zipped = types.array_of(types.row(tuple(fields)))
    span = arrays[0].span.to(arrays[-1].span)
    return plan.Call("arrays_zip", tuple(arrays), zipped, False, span)


def unnest_join(
    kind: str,
    left: plan.Rel,
    unnest: PendingUnnest,
    condition: plan.Expr | None,
    columns: tuple[plan.Field, ...],
    span: Span,
    env: Environment,
) -> plan.Rel | None:
    """The rows left of an UNNEST, each once per element (an inner join: the ON condition
    filters them); LEFT JOIN UNNEST(...) ON TRUE keeps a row without elements once, its
    element (and place) NULL."""
    outer = kind == "left"
    if outer and not _is_true(condition):
        env.not_supported("LEFT JOIN UNNEST with an ON condition other than TRUE", unnest.span)
        return None
    rel: plan.Rel = plan.Unnest(left, unnest.array, unnest.ordinality, columns, span, outer)
    if outer:
        return rel
    if condition is not None:
        rel = plan.Filter(rel, condition, columns, span)
    return rel


def _is_true(condition: plan.Expr | None) -> bool:
    return isinstance(condition, plan.Literal) and condition.value is True
