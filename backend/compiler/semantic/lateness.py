"""The LATENESS statement: `LATENESS view.column expr;` (Feldera).

A statement may come before the view it names (the spec's own example does),
so all of them are collected first; each view takes its columns' values when
it is bound, and what no view took is reported at the end.
"""

from __future__ import annotations

from dataclasses import replace

from backend.compiler.diagnostics import Code, Note, error, warning
from backend.compiler.semantic import types
from backend.compiler.semantic.catalog import Column, RelationKind
from backend.compiler.semantic.environment import Environment
from backend.compiler.semantic.expressions import ExprContext, bind_expr
from backend.compiler.semantic.scope import Scope
from backend.compiler.source import Span
from backend.compiler.suggest import did_you_mean
from backend.compiler.syntax import statements as stmt


def collect_lateness(statements: tuple[stmt.LatenessStatement, ...], env: Environment) -> None:
    """Bind every LATENESS statement's value; a second one for a column is an error."""
    for statement in statements:
        ctx = ExprContext(
            Scope(), env.diagnostics, env.suggestions, constant_clause="LATENESS", functions=env
        )
        value = bind_expr(statement.expr, ctx)
        key = (statement.relation.value, statement.column.value)
        first = env.lateness.get(key)
        if first is not None:
            env.report(
                error(
                    Code.DUPLICATE_LATENESS,
                    f"Duplicate LATENESS for '{key[0]}.{key[1]}'",
                    _target_span(statement),
                    notes=(Note("the first LATENESS for this column", _target_span(first[1])),),
                )
            )
            continue
        env.lateness[key] = (value, statement)


def attach_lateness(view: str, columns: tuple[Column, ...], env: Environment) -> tuple[Column, ...]:
    """The view's columns with the values of the LATENESS statements naming them."""
    if not env.lateness_of(view):
        return columns
    result = list(columns)
    for position, column in enumerate(columns):
        entry = env.lateness.pop((view, column.name), None)
        if entry is None:
            continue
        value, statement = entry
        if value is None:
            continue
        value_span = statement.expr.span
        if types.arithmetic_type("-", column.type, value.type) is None:
            env.report(
                error(
                    Code.TYPE_MISMATCH,
                    f"LATENESS of type {value.type} cannot be subtracted from "
                    f"{column.type} column '{column.name}'",
                    value_span,
                    hint="a TIMESTAMP column takes an INTERVAL, such as INTERVAL '1' HOUR"
                    if types.is_datetime(column.type)
                    else None,
                )
            )
            continue
        result[position] = replace(column, lateness=value)
    _report_unknown_columns(view, columns, env)
    return tuple(result)


def _report_unknown_columns(view: str, columns: tuple[Column, ...], env: Environment) -> None:
    names = [column.name for column in columns]
    for key in [key for key in env.lateness if key[0] == view]:
        _, statement = env.lateness.pop(key)
        column = key[1]
        env.report(
            error(
                Code.UNKNOWN_COLUMN,
                f"Unknown column '{column}' in view '{view}'",
                statement.column.span,
                hint=did_you_mean(column, names, env.suggestions),
            )
        )


def report_unused_lateness(env: Environment) -> None:
    """LATENESS statements whose view was never declared (or is not a view)."""
    for (relation, _), (_, statement) in env.lateness.items():
        span = _target_span(statement)
        if relation in env.unresolvable:
            continue
        declared = env.relations.get(relation)
        if declared is not None and declared.kind is not RelationKind.VIEW:
            env.report(
                error(
                    Code.INVALID_DEFINITION,
                    f"A LATENESS statement applies to a view, but '{relation}' is a "
                    f"{declared.kind.value}",
                    span,
                    hint="declare a table column's LATENESS in its CREATE TABLE",
                )
            )
            continue
        env.report(  # a warning, as in Feldera: the statement has no effect
            warning(
                Code.UNKNOWN_RELATION,
                f"LATENESS names an unknown view '{relation}': it has no effect",
                statement.relation.span,
                hint=did_you_mean(relation, env.relations, env.suggestions),
            )
        )
    env.lateness.clear()


def _target_span(statement: stmt.LatenessStatement) -> Span:
    """`view.column` in the statement."""
    return statement.relation.span.to(statement.column.span)
