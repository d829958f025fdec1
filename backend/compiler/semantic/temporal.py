"""The temporal table functions in FROM, and the joins they make (Flink's FLIP;
docs/dialect.md): SNAPSHOT and FOR SYSTEM_TIME AS OF (time_travel.py), SEARCH_KEY
(search_key.py), TO_CHANGELOG and FROM_CHANGELOG (changelogs.py).

A snapshot as of now joined with a relation that is not one is a `LookupJoin`; a
correlated SNAPSHOT (a `Pending` side) a `TemporalJoin`, or, for a table without a
primary key, a join on t.time <= x.ts.
"""

from __future__ import annotations

from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import types
from backend.compiler.semantic.changelogs import bind_changelog
from backend.compiler.semantic.correlation import Pending, all_of, point_in_time
from backend.compiler.semantic.environment import Environment
from backend.compiler.semantic.lateral import PendingLateral, lateral_join
from backend.compiler.semantic.scope import Scope
from backend.compiler.semantic.search_key import bind_search_key
from backend.compiler.semantic.table_functions import BindQuery, Resolve
from backend.compiler.semantic.time_travel import bind_snapshot
from backend.compiler.semantic.unnest import PendingUnnest, unnest_join
from backend.compiler.source import Span
from backend.compiler.syntax import ast

TEMPORAL_FUNCTIONS = frozenset(("snapshot", "search_key", "to_changelog", "from_changelog"))


def bind_temporal_function(
    item: ast.TableFunction,
    env: Environment,
    left: Scope | None,
    resolve: Resolve,
    bind_query: BindQuery,
) -> plan.Rel | Pending | None:
    """One of TEMPORAL_FUNCTIONS in FROM; `left`: what a LATERAL call may refer to."""
    if item.column_aliases:
        env.not_supported("column aliases in FROM", item.column_aliases[0].span)
        return None
    name = item.call.name.value.lower()
    if name == "snapshot":
        return bind_snapshot(item, env, left, resolve, bind_query)
    if name == "search_key":
        return bind_search_key(item, env, left, resolve, bind_query)
    return bind_changelog(item, env, resolve, bind_query)


def default_alias(call: ast.FunctionCall) -> ast.Identifier:
    """SNAPSHOT(t) and SEARCH_KEY(t, ...) are named t in FROM (like t FOR SYSTEM_TIME ...)."""
    if call.name.value.lower() in ("snapshot", "search_key") and call.args:
        first = call.args[0]
        if isinstance(first, ast.NamedArgument) and first.name.value.lower() == "input":
            first = first.value
        if isinstance(first, ast.ColumnRef) and len(first.parts) == 1:
            return first.parts[0]
        if isinstance(first, ast.TableArg):
            return first.name
    return call.name


# ---------------------------------------------------------------- joins


def join_items(
    kind: str,
    left: plan.Rel,
    right: plan.Rel | Pending | PendingUnnest | PendingLateral,
    condition: plan.Expr | None,
    columns: tuple[plan.Field, ...],
    span: Span,
    env: Environment,
) -> plan.Rel | None:
    """The join of two FROM items: a lookup join when one side (only) is a snapshot as of
    now, a temporal join with a correlated SNAPSHOT, the rows of an UNNEST's left side
    each once per element, else an ordinary join."""
    if isinstance(right, Pending | PendingUnnest | PendingLateral):
        if kind not in ("inner", "left"):  # a correlated item's rows for each left row
            env.not_supported(f"{kind.upper()} JOIN {_correlated_item(right)}", right.span)
            return None
        if isinstance(right, PendingUnnest):
            return unnest_join(kind, left, right, condition, columns, span, env)
        if isinstance(right, PendingLateral):
            return lateral_join(kind, left, right, condition, columns, span, env)
        return _join_pending(kind, left, right, condition, columns, span, env)
    left_now, right_now = _as_of_now(left), _as_of_now(right)
    if left_now is not None and right_now is not None:
        both = plan.Join(kind, left_now, right_now, condition, columns, span)
        return point_in_time(both, span)
    if right_now is not None:
        assert isinstance(right, plan.Snapshot)
        return _lookup(kind, "right", left, right_now, condition, columns, right.span, env)
    if left_now is not None:
        assert isinstance(left, plan.Snapshot)
        return _lookup(kind, "left", left_now, right, condition, columns, left.span, env)
    return plan.Join(kind, left, right, condition, columns, span)


def _correlated_item(item: Pending | PendingUnnest | PendingLateral) -> str:
    """How a message names a correlated FROM item, after `RIGHT JOIN`."""
    if isinstance(item, PendingUnnest):
        return "UNNEST"
    return "LATERAL" if isinstance(item, PendingLateral) else "with a LATERAL table function"


def _as_of_now(rel: plan.Rel) -> plan.Rel | None:
    """The input of a snapshot as of now; None for anything else."""
    if isinstance(rel, plan.Snapshot) and rel.at is None:
        return rel.input
    return None


def _lookup(
    kind: str,
    table: str,
    left: plan.Rel,
    right: plan.Rel,
    condition: plan.Expr | None,
    columns: tuple[plan.Field, ...],
    span: Span,
    env: Environment,
) -> plan.Rel | None:
    kept = {"right": ("inner", "left"), "left": ("inner", "right")}[table]
    if kind not in kept:
        env.not_supported(
            f"{kind.upper()} JOIN keeping the rows of a snapshot that match nothing "
            "(a lookup join keeps only the other side's)",
            span,
        )
        return None
    return plan.LookupJoin(kind, table, left, right, condition, columns, span)


def _join_pending(
    kind: str,
    left: plan.Rel,
    pending: Pending,
    condition: plan.Expr | None,
    columns: tuple[plan.Field, ...],
    span: Span,
    env: Environment,
) -> plan.Rel | None:
    condition = all_of([c for c in (pending.condition, condition) if c is not None])
    if pending.kind == "lookup":
        return plan.LookupJoin(kind, "right", left, pending.table, condition, columns, pending.span)
    assert pending.time is not None and pending.version is not None
    if pending.key:
        return plan.TemporalJoin(
            kind,
            left,
            pending.table,
            pending.time,
            pending.version,
            pending.key,
            condition,
            columns,
            pending.span,
        )
    # Without a primary key there are no versions: every row of t up to x.ts joins.
    column = pending.table.columns[pending.version]
    width = len(left.columns)
    ref = plan.ColumnRef(width + pending.version, column.name, column.type, True, pending.span)
    valid = plan.Call("le", (ref, pending.time), types.BOOLEAN, True, pending.span)
    both = all_of([c for c in (condition, valid) if c is not None])
    return plan.Join(kind, left, pending.table, both, columns, span)
