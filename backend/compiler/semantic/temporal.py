"""SNAPSHOT, SEARCH_KEY and FOR SYSTEM_TIME AS OF (Flink's FLIP; docs/dialect.md).

- `SNAPSHOT(t)`, `t FOR SYSTEM_TIME AS OF NOW() | CURRENT_TIMESTAMP | PROCTIME()`:
  t as of each step, a `Snapshot` without `at`. Joined with a relation that is not
  such a snapshot, it is a `LookupJoin` (`join_items`).
- `SNAPSHOT(t, TIMESTAMP x)`, `t FOR SYSTEM_TIME AS OF TIMESTAMP x`: time travel,
  a `Snapshot` with `at`, versioned by t's time column.
- `LATERAL SNAPSHOT(t, x.ts)`, `t FOR SYSTEM_TIME AS OF x.ts`: an event-time
  temporal join: a `TemporalJoin` when t has a primary key, else a join on
  t.time <= x.ts.
- `LATERAL SEARCH_KEY(t, DESCRIPTOR(k, ...), x.a | (x.a, ...) [, MAP[...]])`: a
  lookup join on t.k = x.a.

A call whose arguments name columns of the FROM items left of it (a correlated
call) is bound to a `Pending` join side, which `join_items` joins to them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass

from backend.compiler.diagnostics import Code, error, warning
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import types
from backend.compiler.semantic.catalog import RelationKind
from backend.compiler.semantic.changelogs import bind_changelog
from backend.compiler.semantic.environment import Environment
from backend.compiler.semantic.expressions import ExprContext, bind_expr
from backend.compiler.semantic.functions import NILADIC_FUNCTIONS
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

TEMPORAL_FUNCTIONS = frozenset(("snapshot", "search_key", "to_changelog", "from_changelog"))
# FOR SYSTEM_TIME AS OF these is "as of each step" (Flink's lookup-join spellings).
_NOW = frozenset(("now", "proctime", "current_timestamp", "localtimestamp"))
_NONDETERMINISTIC = _NOW | NILADIC_FUNCTIONS | {"rand", "random", "uuid"}
ROWTIME = "rowtime"


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
        return _snapshot(item, env, left, resolve, bind_query)
    if name == "search_key":
        return _search_key(item, env, left, resolve, bind_query)
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


def bind_system_time(
    item: ast.TableRef, env: Environment, left: Scope | None, resolve: Resolve
) -> plan.Rel | Pending | None:
    """`t FOR SYSTEM_TIME AS OF expr`: as of now, a fixed time, or a column of the left."""
    assert item.as_of is not None
    rel, description, broken, _ = resolve(item.name, item.name.span, env)
    if rel is None or broken:
        return None
    relation = None if item.name.value in env.ctes else env.relations.get(item.name.value)
    source = Input(rel, relation, description, item.name.span)
    span = item.name.span.to(item.as_of.span)
    if _is_now(item.as_of):
        return point_in_time(rel, span)
    what = "FOR SYSTEM_TIME AS OF"
    return _at_time(source, item.as_of, what, left, env, span, f"{what} first in FROM")


def point_in_time(rel: plan.Rel, span: Span) -> plan.Snapshot:
    return plan.Snapshot(rel, None, None, (), rel.columns, span)


# ---------------------------------------------------------------- SNAPSHOT


def _snapshot(
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
    if _is_correlated(expr) and left is not None:
        return _temporal(source, expr, what, left, env, span)
    if _is_nondeterministic(expr):
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
        Scope(), env.diagnostics, env.suggestions, constant_clause=uncorrelated_clause
    )
    at = bind_expr(expr, ctx)
    version = version_column(source, what, span, env)
    if at is None or version is None or not _is_time_for(at, source, version, what, env):
        return None
    key = _primary_key(source)
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
    ctx = ExprContext(left, env.diagnostics, env.suggestions, aggregate_clause="FROM")
    time = bind_expr(expr, ctx)
    version = version_column(source, what, span, env)
    if time is None or version is None or not _is_time_for(time, source, version, what, env):
        return None
    return Pending("temporal", source.rel, time, version, _primary_key(source), None, span)


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


def _primary_key(source: Input) -> tuple[int, ...]:
    relation = source.relation
    if relation is None or relation.kind is not RelationKind.TABLE:
        return ()
    positions = {c.name: i for i, c in enumerate(source.rel.columns)}
    return tuple(positions[name] for name in relation.primary_key if name in positions)


# ---------------------------------------------------------------- SEARCH_KEY


def _search_key(
    item: ast.TableFunction,
    env: Environment,
    left: Scope | None,
    resolve: Resolve,
    bind_query: BindQuery,
) -> plan.Rel | Pending | None:
    call = item.call
    parameters = ("input", "on_key", "lookup", "options")
    placed = place_arguments(call, parameters, env, optional=("options",))
    if placed is None:
        return None
    source = function_input(placed["input"], "SEARCH_KEY", env, resolve, bind_query)
    keys = None if source is None else _descriptor(placed["on_key"], source, env)
    options = placed.get("options")
    options_ok = options is None or _check_options(options, env)
    lookup = placed["lookup"]
    written = lookup.items if isinstance(lookup, ast.RowConstructor) else (lookup,)
    correlated = any(_is_correlated(value) for value in written)
    lateral = left if item.lateral and correlated else None
    ctx = ExprContext(
        lateral or Scope(),
        env.diagnostics,
        env.suggestions,
        constant_clause=None if lateral else "A lookup value of SEARCH_KEY without LATERAL",
        aggregate_clause="FROM",
    )
    values = [bind_expr(value, ctx) for value in written]
    if source is None or keys is None or not options_ok:
        return None
    present = [value for value in values if value is not None]
    if len(present) < len(values):
        return None
    if len(present) != len(keys):
        message = (
            f"SEARCH_KEY has {len(keys)} key columns, so its lookup needs {len(keys)} values: "
            f"found {len(present)}"
        )
        env.report(error(Code.UNKNOWN_FUNCTION, message, lookup.span))
        return None
    width = 0 if lateral is None else sum(entry.width for entry in lateral.entries)
    equalities: list[plan.Expr] = []
    for key, value in zip(keys, present, strict=True):
        column = source.rel.columns[key]
        if not types.comparable(column.type, value.type):
            message = (
                f"Lookup value of type {value.type} cannot be compared with "
                f"key column '{column.name}' of type {column.type}"
            )
            env.report(error(Code.TYPE_MISMATCH, message, value.span))
            return None
        ref = plan.ColumnRef(width + key, column.name, column.type, column.nullable, value.span)
        nullable = column.nullable or value.nullable
        equalities.append(plan.Call("eq", (value, ref), types.BOOLEAN, nullable, value.span))
    condition = all_of(equalities)
    assert condition is not None  # DESCRIPTOR names at least one column
    if lateral is not None:
        return Pending("lookup", source.rel, None, None, (), condition, call.span)
    found = plan.Filter(source.rel, condition, source.rel.columns, call.span)
    return point_in_time(found, call.span)


def _descriptor(arg: ast.Expr, source: Input, env: Environment) -> list[int] | None:
    """The input columns DESCRIPTOR(k1, k2, ...) names."""
    if not (
        isinstance(arg, ast.FunctionCall)
        and arg.name.value.lower() == "descriptor"
        and arg.args
        and all(isinstance(a, ast.ColumnRef) and len(a.parts) == 1 for a in arg.args)
    ):
        message = f"Expected DESCRIPTOR(column, ...) naming key columns of {source.description}"
        env.report(error(Code.TYPE_MISMATCH, message, arg.span))
        return None
    positions: dict[str, int] = {}
    for index, column in enumerate(source.rel.columns):
        positions.setdefault(column.name, index)
    found = []
    for name_ref in arg.args:
        assert isinstance(name_ref, ast.ColumnRef)
        name = name_ref.parts[0]
        if name.value not in positions:
            message = f"Unknown column '{name.value}' in {source.description}"
            env.report(error(Code.UNKNOWN_COLUMN, message, name.span))
            return None
        found.append(positions[name.value])
    return found


def _check_options(arg: ast.Expr, env: Environment) -> bool:
    """SEARCH_KEY's options: MAP['key', 'value', ...] of string literals; Spark has no
    asynchronous or retried lookups, so they are accepted with a warning."""
    if not isinstance(arg, ast.MapConstructor):
        message = "SEARCH_KEY options must be MAP['key', 'value', ...]"
        env.report(error(Code.TYPE_MISMATCH, message, arg.span))
        return False
    ctx = ExprContext(Scope(), env.diagnostics, env.suggestions, constant_clause="An option")
    values = [bind_expr(item, ctx) for item in arg.items]
    strings = []
    for value in values:
        if value is None:
            return False
        if not (isinstance(value, plan.Literal) and value.type == types.VARCHAR):
            message = f"SEARCH_KEY options are string literals, found {value.type}"
            env.report(error(Code.TYPE_MISMATCH, message, value.span))
            return False
        strings.append(str(value.value))
    if len(strings) % 2:
        message = f"SEARCH_KEY options come in pairs (key, value), but there are {len(strings)}"
        env.report(error(Code.TYPE_MISMATCH, message, arg.span))
        return False
    if strings:
        keys = ", ".join(f"'{key}'" for key in strings[0::2])
        message = f"SEARCH_KEY options have no effect on Spark: {keys}"
        env.report(warning(Code.UNKNOWN_PROPERTY, message, arg.span))
    return True


# ---------------------------------------------------------------- joins


def join_items(
    kind: str,
    left: plan.Rel,
    right: plan.Rel | Pending,
    condition: plan.Expr | None,
    columns: tuple[plan.Field, ...],
    span: Span,
    env: Environment,
) -> plan.Rel | None:
    """The join of two FROM items: a lookup join when one side (only) is a snapshot as of
    now, a temporal join with a correlated SNAPSHOT, else an ordinary join."""
    if isinstance(right, Pending):
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
    if kind not in ("inner", "left"):
        env.not_supported(f"{kind.upper()} JOIN with a LATERAL table function", pending.span)
        return None
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


def all_of(parts: list[plan.Expr]) -> plan.Expr | None:
    """The conjunction of `parts` (None for none)."""
    if not parts:
        return None
    result = parts[0]
    for part in parts[1:]:
        nullable = result.nullable or part.nullable
        result = plan.Call("and", (result, part), types.BOOLEAN, nullable, part.span)
    return result


# ---------------------------------------------------------------- what an argument is


def _is_now(expr: ast.Expr) -> bool:
    if isinstance(expr, ast.FunctionCall):
        return not expr.args and not expr.name.quoted and expr.name.value.lower() in _NOW
    return _is_niladic(expr) and isinstance(expr, ast.ColumnRef) and expr.parts[0].value in _NOW


def _is_niladic(expr: object) -> bool:
    return (
        isinstance(expr, ast.ColumnRef)
        and len(expr.parts) == 1
        and not expr.parts[0].quoted
        and expr.parts[0].value in NILADIC_FUNCTIONS
    )


def _is_correlated(expr: ast.Expr) -> bool:
    """Whether `expr` names a column (of the FROM items left of it)."""
    return any(isinstance(node, ast.ColumnRef) and not _is_niladic(node) for node in _nodes(expr))


def _is_nondeterministic(expr: ast.Expr) -> bool:
    for node in _nodes(expr):
        if _is_niladic(node):
            return True
        if isinstance(node, ast.FunctionCall) and node.name.value.lower() in _NONDETERMINISTIC:
            return True
    return False


def _nodes(expr: ast.Expr) -> Iterator[object]:
    """`expr` and the syntax nodes inside it (not inside subqueries)."""
    stack: list[object] = [expr]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.Query) or not dataclasses.is_dataclass(node):
            continue
        for item in dataclasses.fields(node):
            value = getattr(node, item.name)
            values = value if isinstance(value, tuple) else (value,)
            stack.extend(v for v in values if dataclasses.is_dataclass(v))
