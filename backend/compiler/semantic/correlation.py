"""What the temporal table functions' arguments are, and the pieces they bind to.

A call whose arguments name columns of the FROM items left of it (a correlated
call: `LATERAL SNAPSHOT(t, x.ts)`, `LATERAL SEARCH_KEY(t, ..., x.a)`) binds to a
`Pending` join side, which `temporal.join_items` joins to them; an uncorrelated
one to a plan relation (a `Snapshot`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass

from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import types
from backend.compiler.semantic.functions import NILADIC_CONSTANTS, NILADIC_FUNCTIONS
from backend.compiler.source import Span
from backend.compiler.syntax import ast

# FOR SYSTEM_TIME AS OF these is "as of each step" (Flink's lookup-join spellings).
NOW = frozenset(("now", "proctime", "current_timestamp", "localtimestamp"))
_NONDETERMINISTIC = NOW | NILADIC_FUNCTIONS | {"rand", "random", "uuid"}


@dataclass(frozen=True, slots=True)
class Pending:
    """A correlated FROM item, bound but not yet joined to the relation left of it."""

    kind: str  # "lookup" (SEARCH_KEY) | "temporal" (LATERAL SNAPSHOT(t, x.ts))
    table: plan.Rel
    time: plan.Expr | None  # temporal: over the left's columns
    version: int | None  # temporal: the table's time column
    key: tuple[int, ...]  # temporal: the table's primary key
    condition: plan.Expr | None  # lookup: over the left's columns then the table's
    span: Span  # the call

    @property
    def columns(self) -> tuple[plan.Field, ...]:
        return self.table.columns


def point_in_time(rel: plan.Rel, span: Span) -> plan.Snapshot:
    return plan.Snapshot(rel, None, None, (), rel.columns, span)


def all_of(parts: list[plan.Expr]) -> plan.Expr | None:
    """The conjunction of `parts` (None for none)."""
    if not parts:
        return None
    result = parts[0]
    for part in parts[1:]:
        nullable = result.nullable or part.nullable
        result = plan.Call("and", (result, part), types.BOOLEAN, nullable, part.span)
    return result


def is_now(expr: ast.Expr) -> bool:
    if isinstance(expr, ast.FunctionCall):
        return not expr.args and not expr.name.quoted and expr.name.value.lower() in NOW
    return _is_niladic(expr) and isinstance(expr, ast.ColumnRef) and expr.parts[0].value in NOW


def _is_niladic(expr: object) -> bool:
    return (
        isinstance(expr, ast.ColumnRef)
        and len(expr.parts) == 1
        and not expr.parts[0].quoted
        and expr.parts[0].value in NILADIC_FUNCTIONS | NILADIC_CONSTANTS
    )


def is_correlated(expr: ast.Expr) -> bool:
    """Whether `expr` names a column (of the FROM items left of it)."""
    return any(
        isinstance(node, ast.ColumnRef) and not _is_niladic(node) for node in syntax_nodes(expr)
    )


def is_nondeterministic(expr: ast.Expr) -> bool:
    for node in syntax_nodes(expr):
        if _is_niladic(node):
            return True
        if isinstance(node, ast.FunctionCall) and node.name.value.lower() in _NONDETERMINISTIC:
            return True
    return False


def syntax_nodes(node: object, *, subqueries: bool = False) -> Iterator[object]:
    """`node` and the syntax nodes inside it; inside subqueries too when `subqueries`."""
    stack: list[object] = [node]
    while stack:
        item = stack.pop()
        yield item
        if (isinstance(item, ast.Query) and not subqueries) or not dataclasses.is_dataclass(item):
            continue
        for field in dataclasses.fields(item):
            value = getattr(item, field.name)
            values = value if isinstance(value, tuple) else (value,)
            for v in values:  # a tuple of tuples: VALUES' rows, GROUPING SETS
                stack.extend(
                    w for w in (v if isinstance(v, tuple) else (v,)) if dataclasses.is_dataclass(w)
                )
