"""`LATERAL SEARCH_KEY(t, DESCRIPTOR(k, ...), x.a | (x.a, ...) [, MAP[...]])`: a lookup
join of the rows left of it with `SNAPSHOT(t)` on t.k = x.a (docs/dialect.md)."""

from __future__ import annotations

from backend.compiler.diagnostics import Code, error, warning
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import types
from backend.compiler.semantic.correlation import Pending, all_of, is_correlated, point_in_time
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
from backend.compiler.syntax import ast


def bind_search_key(
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
    correlated = any(is_correlated(value) for value in written)
    lateral = left if item.lateral and correlated else None
    ctx = ExprContext(
        lateral or Scope(),
        env.diagnostics,
        env.suggestions,
        constant_clause=None if lateral else "A lookup value of SEARCH_KEY without LATERAL",
        aggregate_clause="FROM",
        functions=env,
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
    ctx = ExprContext(
        Scope(), env.diagnostics, env.suggestions, constant_clause="An option", functions=env
    )
    values = [bind_expr(item, ctx) for item in arg.items]
    strings = []
    for item, value in zip(arg.items, values, strict=True):
        if value is None:
            return False
        if not (isinstance(value, plan.Literal) and value.type == types.VARCHAR):
            message = f"SEARCH_KEY options are string literals, found {value.type}"
            env.report(error(Code.TYPE_MISMATCH, message, value.span, hint=_pair_hint(item)))
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


def _pair_hint(item: ast.Expr) -> str | None:
    """`'key' = 'value'` in a MAP (the FLIP's own example has one): a comma is meant."""
    match item:
        case ast.BinaryOp(
            op="=", left=ast.StringLiteral() as key, right=ast.StringLiteral() as value
        ):
            return (
                f"a MAP separates a key from its value with a comma: '{key.value}', '{value.value}'"
            )
    return None
