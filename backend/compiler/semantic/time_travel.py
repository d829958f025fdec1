"""SNAPSHOT(t[, time]) and `t FOR SYSTEM_TIME AS OF ...` (docs/dialect.md).

- `SNAPSHOT(t)`, `t FOR SYSTEM_TIME AS OF NOW() | CURRENT_TIMESTAMP | PROCTIME()`:
  t as of each step, a `Snapshot` without `at` (a lookup in a join).
- `SNAPSHOT(t, TIMESTAMP x)`, `t FOR SYSTEM_TIME AS OF TIMESTAMP x`: time travel, a
  `Snapshot` with `at`, versioned by t's time column.
- `LATERAL SNAPSHOT(t, x.ts)`, `t FOR SYSTEM_TIME AS OF x.ts`: an event-time temporal
  join (a `Pending` side): with a primary key a `TemporalJoin`, without one a join on
  t.time <= x.ts (temporal.join_items).
"""

from __future__ import annotations

from backend.compiler.diagnostics import Code, error
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import types
from backend.compiler.semantic.catalog import RelationKind
from backend.compiler.semantic.correlation import (
    Pending,
    is_correlated,
    is_nondeterministic,
    is_now,
    point_in_time,
)
from backend.compiler.semantic.environment import Environment
from backend.compiler.semantic.expressions import ExprContext, bind_expr
from backend.compiler.semantic.scope import Scope
from backend.compiler.semantic.table_functions import (
    BindQuery,
    Input,
    Resolve,
    function_input,
    place_arguments,
)
from backend.compiler.source import Span
from backend.compiler.syntax import ast

ROWTIME = "rowtime"


def bind_system_time(
    item: ast.TableRef, env: Environment, left: Scope | None, resolve: Resolve
) -> plan.Rel | Pending | None:
    """`t FOR SYSTEM_TIME AS OF expr`: as of now, a fixed time, or a column of the left."""
    assert item.as_of is not None
    rel, description, broken, _ = resolve(item.name, item.name.span, env)
    if rel is None or broken:
        return None
    relation = None if item.name.value in env.ctes else env.relation(item.name.value)
    source = Input(rel, relation, description, item.name.span)
    span = item.name.span.to(item.as_of.span)
    if is_now(item.as_of):
        return point_in_time(rel, span)
    what = "FOR SYSTEM_TIME AS OF"
    return _at_time(source, item.as_of, what, left, env, span, f"{what} first in FROM")


def bind_snapshot(
    item: ast.TableFunction,
    env: Environment,
    left: Scope | None,
    resolve: Resolve,
    bind_query: BindQuery,
) -> plan.Rel | Pending | None:
    call = item.call
    placed = place_arguments(call, ("input", "to_time"), env, optional=("to_time",))
    if placed is None:
        return None
    source = function_input(placed["input"], "SNAPSHOT", env, resolve, bind_query)
    to_time = placed.get("to_time")
    if source is None:
        return None
    if to_time is None:
        return point_in_time(source.rel, call.span)
    lateral = left if item.lateral else None
    return _at_time(
        source, to_time, "SNAPSHOT", lateral, env, call.span, "The time of SNAPSHOT without LATERAL"
    )


def _at_time(
    source: Input,
    expr: ast.Expr,
    what: str,
    left: Scope | None,
    env: Environment,
    span: Span,
    uncorrelated_clause: str,
) -> plan.Rel | Pending | None:
    """Time travel to a constant `expr`, or a temporal join on a column of `left`."""
    if is_correlated(expr) and left is not None:
        return _temporal(source, expr, what, left, env, span)
    if is_nondeterministic(expr):
        env.report(
            error(
                Code.NONDETERMINISTIC_TIME,
                f"The time of {what} must not change while the pipeline runs",
                expr.span,
                hint="write SNAPSHOT(t) for the table as of each step, "
                "or a TIMESTAMP literal for a fixed time",
            )
        )
        return None
    ctx = ExprContext(
        Scope(),
        env.diagnostics,
        env.suggestions,
        constant_clause=uncorrelated_clause,
        functions=env,
    )
    at = bind_expr(expr, ctx)
    version = version_column(source, what, span, env)
    if at is None or version is None or not _is_time_for(at, source, version, what, env):
        return None
    key = primary_key(source)
    columns = source.rel.columns
    if key:
        return plan.Snapshot(source.rel, at, version, key, columns, span)
    column = columns[version]
    ref = plan.ColumnRef(version, column.name, column.type, column.nullable, span)
    kept = plan.Call("le", (ref, at), types.BOOLEAN, column.nullable, span)
    return plan.Snapshot(
        plan.Filter(source.rel, kept, columns, span), at, version, (), columns, span
    )


def _temporal(
    source: Input, expr: ast.Expr, what: str, left: Scope, env: Environment, span: Span
) -> Pending | None:
    ctx = ExprContext(
        left, env.diagnostics, env.suggestions, aggregate_clause="FROM", functions=env
    )
    time = bind_expr(expr, ctx)
    version = version_column(source, what, span, env)
    if time is None or version is None or not _is_time_for(time, source, version, what, env):
        return None
    return Pending("temporal", source.rel, time, version, primary_key(source), None, span)


def version_column(source: Input, what: str, span: Span, env: Environment) -> int | None:
    """The column that versions `source`: a stream's rowtime, else its one column with
    LATENESS or WATERMARK; None (reported, SQL321) without exactly one."""
    relation = source.relation
    if relation is not None and relation.kind is RelationKind.STREAM:
        found = [i for i, c in enumerate(relation.columns) if c.name == ROWTIME]
    elif relation is not None:
        found = [
            i
            for i, c in enumerate(relation.columns)
            if c.lateness is not None or c.watermark is not None
        ]
    else:
        found = []
    if len(found) == 1:
        return found[0]
    name = source.description
    if found:
        columns = ", ".join(f"'{source.rel.columns[i].name}'" for i in found)
        message = f"{what} versions {name} by its time column, but it has {len(found)}: {columns}"
        hint = "keep LATENESS or WATERMARK on one column only"
    else:
        message = f"{what} needs a time column to version {name} by, and it has none"
        hint = (
            "declare one of its columns with LATENESS (or WATERMARK), "
            "or read a stream (versioned by rowtime)"
        )
    env.report(error(Code.NO_VERSION_COLUMN, message, span, hint=hint))
    return None


def _is_time_for(time: plan.Expr, source: Input, version: int, what: str, env: Environment) -> bool:
    column = source.rel.columns[version]
    if not types.is_null(time.type) and types.comparable(column.type, time.type):
        return True
    message = (
        f"The time of {what} must be a {column.type} (the type of '{column.name}'), "
        f"found {time.type}"
    )
    env.report(error(Code.TYPE_MISMATCH, message, time.span))
    return False


def primary_key(source: Input) -> tuple[int, ...]:
    relation = source.relation
    if relation is None or relation.kind is not RelationKind.TABLE:
        return ()
    positions = {c.name: i for i, c in enumerate(source.rel.columns)}
    return tuple(positions[name] for name in relation.primary_key if name in positions)
