"""The select list's names and positions where a clause may use them for its items.

GROUP BY and QUALIFY read the FROM's columns; as PostgreSQL, DuckDB, MySQL and
Spark have it (and Calcite's lenient conformance), a name there that is no FROM
column may be a select list alias, and a GROUP BY item that is an integer is a
position in the select list:

    SELECT k % 10 AS bucket, COUNT(*) FROM t GROUP BY bucket
    SELECT k % 10, COUNT(*) FROM t GROUP BY 1
    SELECT k, ROW_NUMBER() OVER (ORDER BY ts DESC) AS rn FROM t QUALIFY rn = 1

Both are rewritten into the select list's expressions before binding.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from backend.compiler.diagnostics import Code, Diagnostic, error
from backend.compiler.semantic import time_functions
from backend.compiler.semantic.expressions import MAX_DEPTH
from backend.compiler.semantic.scalar_subqueries import has_aggregates
from backend.compiler.semantic.scope import Scope, quiet_column
from backend.compiler.syntax import ast


def with_aliases(expr: ast.Expr, items: Sequence[ast.SelectItem], scope: Scope) -> ast.Expr:
    """`expr` with each name of the select list that is no FROM column replaced by its
    expression. Not inside subqueries."""
    aliases = {
        item.alias.value: item.expr
        for item in items
        if isinstance(item, ast.ExprItem) and item.alias is not None
    }

    if not aliases:
        return expr

    def rewritten(node: Any, depth: int) -> Any:
        if isinstance(node, tuple):
            return tuple(rewritten(part, depth) for part in node)
        if isinstance(node, ast.ColumnRef) and len(node.parts) == 1:
            name = node.parts[0]
            if name.value in aliases and quiet_column(scope, name) is None:
                return aliases[name.value]
            return node
        if not dataclasses.is_dataclass(node) or isinstance(node, type | ast.Query):
            return node
        if depth > MAX_DEPTH:  # too deep to bind: the binder reports it
            return node
        if isinstance(node, ast.FunctionCall) and _unit_position(node) is not None:
            at = _unit_position(node)  # DATEDIFF(MONTH, ...): MONTH is a unit, not an alias
            args = tuple(
                arg if i == at else rewritten(arg, depth + 1) for i, arg in enumerate(node.args)
            )
            return dataclasses.replace(node, args=args) if args != node.args else node
        changed = {
            f.name: new
            for f in dataclasses.fields(node)
            if (new := rewritten(getattr(node, f.name), depth + 1)) is not getattr(node, f.name)
        }
        return dataclasses.replace(node, **changed) if changed else node

    result: ast.Expr = rewritten(expr, 0)
    return result


# Functions with a time unit written as a bare word, and where it is (DATEDIFF(MONTH, a, b),
# DATE_TRUNC(d, MONTH)): the word is no column, and no alias either.
_UNIT_FIRST = (*time_functions.TIMESTAMP_ARITHMETIC, "date_part")


def _unit_position(call: ast.FunctionCall) -> int | None:
    name = call.name.value.lower()
    if name in _UNIT_FIRST:
        return 0
    return 1 if name in time_functions.TRUNCATIONS else None


def with_earlier_aliases(select: ast.Select, scope: Scope) -> ast.Select:
    """`select` with each select item's names of the items before it, and HAVING's names
    of the select list, that are no FROM columns replaced by their expressions (Feldera's
    and BigQuery's: `SELECT k % 10 AS b, b * 2 AS d`, `... HAVING n > 1` for `COUNT(*)
    AS n`)."""
    items = list(select.items)
    for index, item in enumerate(items):
        if isinstance(item, ast.ExprItem):
            expr = with_aliases(item.expr, items[:index], scope)
            if expr is not item.expr:
                items[index] = dataclasses.replace(item, expr=expr)
    having = select.having
    if having is not None:
        exprs = tuple(with_aliases(e, items, scope) for e in having.exprs)
        having = dataclasses.replace(having, exprs=exprs)
    return dataclasses.replace(select, items=tuple(items), having=having)


def grouping_key(
    key: ast.Expr, items: Sequence[ast.SelectItem], scope: Scope, found: list[Diagnostic]
) -> ast.Expr | None:
    """A GROUP BY item as the expression it means: `GROUP BY 2` the select list's second
    expression (unless that is an aggregate: then the number itself), an alias its
    expression; None after reporting a position out of range."""
    if isinstance(key, ast.NumberLiteral) and key.kind == "integer":
        position = int(key.text)
        if not 1 <= position <= len(items) or isinstance(items[position - 1], ast.StarItem):
            expressions = sum(isinstance(item, ast.ExprItem) for item in items)
            message = (
                f"GROUP BY {position} is no position in the select list "
                f"(1 to {len(items)}, of expressions)"
                if expressions == len(items)
                else f"GROUP BY {position} is no expression of the select list"
            )
            found.append(error(Code.NOT_GROUPED, message, key.span))
            return None
        item = items[position - 1]
        assert isinstance(item, ast.ExprItem)
        if has_aggregates(item.expr):  # `GROUP BY 1` over `COUNT(*)`: the constant 1, as
            return key  # Calcite (and Feldera) read a number in GROUP BY
        return item.expr
    return with_aliases(key, items, scope)
