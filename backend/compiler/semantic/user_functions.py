"""CREATE FUNCTION ... AS expression (Feldera's SQL functions) and calls of them.

A function's body is one expression over its parameters only, checked where the
function is defined. A call means the body with each parameter replaced by the
argument cast to the parameter's type, cast to the declared result type: the plan
has no function calls of its own, so nothing after the binder knows of them. The
expanded body takes the call's span, so a view's plan holds no span of another
statement. Functions are defined before use, like relations: a body can call the
functions defined above it, so never itself.
"""

from __future__ import annotations

from dataclasses import replace

from backend.compiler.diagnostics import Code, Diagnostic, Note, error
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import functions, time_functions, types, windows
from backend.compiler.semantic.catalog import Parameter, UserFunction
from backend.compiler.semantic.environment import Environment
from backend.compiler.semantic.expressions import ExprContext, bind_expr
from backend.compiler.semantic.scope import Scope, ScopeEntry
from backend.compiler.semantic.type_names import resolve_type
from backend.compiler.source import Span
from backend.compiler.suggest import Budget
from backend.compiler.syntax import ast
from backend.compiler.syntax import statements as stmt

# Every name a call resolves to a built-in before a user function.
BUILT_IN = frozenset(
    (
        *functions.SCALAR_FUNCTIONS,
        *functions.AGGREGATE_FUNCTIONS,
        *functions.NOT_YET_FUNCTIONS,
        *functions.GROUPING_FUNCTIONS,
        *functions.NILADIC_FUNCTIONS,
        *functions.NILADIC_CONSTANTS,
        *functions.CANONICAL,
        *time_functions.WINDOW_FUNCTIONS,
        *time_functions.DATE_PART_FUNCTIONS,
        *time_functions.TIMESTAMP_ARITHMETIC,
        *time_functions.TRUNCATIONS,
        *time_functions.DATE_SHIFTS,
        *windows.RANKING,
        *windows.OFFSETS,
        *windows.FRAME_VALUES,
        "ntile",
    )
)


def bind_function(
    statement: stmt.CreateFunction, env: Environment
) -> tuple[str | None, UserFunction | None]:
    """The name the statement defines (None when it cannot have it: a built-in's, an
    earlier function's) and the function (None after an error, or without a body)."""
    name = statement.name.value
    if name.lower() in BUILT_IN:
        env.report(
            error(
                Code.INVALID_FUNCTION,
                f"{name.upper()} is a built-in function: a function of the program "
                "needs a name of its own",
                statement.name.span,
            )
        )
        _check_parts(statement, env)
        return None, None
    declared, first = env.function(name)
    if declared:
        env.report(
            error(
                Code.INVALID_FUNCTION,
                f"Function {name.upper()} is already defined",
                statement.name.span,
                notes=() if first is None else (Note("first defined here", first.span),),
            )
        )
        _check_parts(statement, env)
        return None, None
    return name, _define(statement, env)


def abandoned_function(name: ast.Identifier, env: Environment) -> str | None:
    """The name a CREATE FUNCTION abandoned after a syntax error defines (to keep calls
    of it silent): None when it is a built-in's or an earlier function's."""
    if name.value.lower() in BUILT_IN or env.function(name.value)[0]:
        return None
    return name.value


def _check_parts(statement: stmt.CreateFunction, env: Environment) -> None:
    """A definition that is refused still has its types checked."""
    for parameter in statement.parameters:
        resolve_type(parameter.type, env.diagnostics, env.suggestions, env.user_type)
    resolve_type(statement.returns, env.diagnostics, env.suggestions, env.user_type)


def _define(statement: stmt.CreateFunction, env: Environment) -> UserFunction | None:
    name = statement.name.value
    parameters: list[Parameter] = []
    seen: set[str] = set()
    ok = True
    for written in statement.parameters:
        sql_type = resolve_type(written.type, env.diagnostics, env.suggestions, env.user_type)
        if written.name.value in seen:
            env.report(
                error(
                    Code.INVALID_FUNCTION,
                    f"Function {name.upper()} has two parameters named '{written.name.value}'",
                    written.name.span,
                )
            )
            ok = False
        seen.add(written.name.value)
        if sql_type is None:
            ok = False
        else:
            parameters.append(Parameter(written.name.value, sql_type, not written.not_null))
    returns = resolve_type(statement.returns, env.diagnostics, env.suggestions, env.user_type)
    if statement.body is None:
        env.report(
            error(
                Code.NOT_SUPPORTED,
                f"Not supported yet: user functions without a SQL body ({name.upper()} "
                "declares a function written in Rust)",
                statement.span,
                hint="Weir compiles functions whose body is one SQL expression: "
                "CREATE FUNCTION ... RETURNS type AS expression",
            )
        )
        return None
    if not ok or returns is None:
        return None
    function = UserFunction(
        name,
        tuple(parameters),
        returns,
        not statement.returns_not_null,
        statement.body,
        statement.name.span,
    )
    fields = tuple(plan.Field(p.name, p.type, p.nullable) for p in parameters)
    body = _bind_body(function, fields, env.diagnostics, env.suggestions, env)
    if body is None:
        return None
    if not types.can_cast(body.type, returns):
        env.report(
            error(
                Code.TYPE_MISMATCH,
                f"The body of {name.upper()} is {body.type}, which does not cast to "
                f"{returns}, the type it RETURNS",
                statement.body.span,
            )
        )
        return None
    if statement.returns_not_null and body.nullable:
        env.report(
            error(
                Code.TYPE_MISMATCH,
                f"{name.upper()} RETURNS {returns} NOT NULL, but its body can be NULL",
                statement.body.span,
                hint="declare its parameters NOT NULL, or give a value for NULL with COALESCE",
            )
        )
        return None
    return function


def _bind_body(
    function: UserFunction,
    fields: tuple[plan.Field, ...],
    diagnostics: list[Diagnostic],
    suggestions: Budget,
    env: Environment | None,
) -> plan.Expr | None:
    """The body over a row of `fields`, the parameters: nothing else is in scope."""
    entry = ScopeEntry(function.name, function.span, f"function {function.name.upper()}", fields, 0)
    ctx = ExprContext(
        Scope((entry,)),
        diagnostics,
        suggestions,
        aggregate_clause="a function's body",
        functions=env,
        function_body=function.name,
    )
    return bind_expr(function.body, ctx)


def expand(
    function: UserFunction, call: ast.FunctionCall, ctx: ExprContext, depth: int
) -> plan.Expr | None:
    """A call of `function`: its body over the arguments, at the call's span."""
    shown = function.name.upper()
    if call.star or call.distinct or call.filter is not None or call.order_by:
        what = "*" if call.star else "DISTINCT" if call.distinct else "FILTER"
        what = "ORDER BY" if call.order_by and not call.star else what
        message = f"{shown} is not an aggregate function: {what} is not allowed"
        ctx.report(Code.UNKNOWN_FUNCTION, message, call.span)
        _bind_args(call, ctx, depth)
        return None
    if len(call.args) != len(function.parameters):
        count = len(function.parameters)
        ctx.report(
            Code.UNKNOWN_FUNCTION,
            f"{shown} expects {count} argument{'s' * (count != 1)}, got {len(call.args)}: "
            f"{function.signature()}",
            call.span,
        )
        _bind_args(call, ctx, depth)
        return None
    bound = [bind_expr(arg, ctx, depth) for arg in call.args]
    args: list[plan.Expr] = []
    for position, (arg, parameter) in enumerate(zip(bound, function.parameters, strict=True)):
        if arg is None:
            continue
        if not types.can_cast(arg.type, parameter.type):
            ctx.report(
                Code.TYPE_MISMATCH,
                f"Argument {position + 1} of {shown} is {arg.type}, which does not cast to "
                f"{parameter.type}, the type of its parameter '{parameter.name}'",
                arg.span,
            )
            continue
        if arg.type != parameter.type:
            arg = plan.Cast(arg, parameter.type, arg.nullable, arg.span)
        args.append(arg)
    if len(args) < len(bound):
        return None
    # Bound again with the arguments' nullability, so that the result's is exact; the
    # body was checked where the function is defined, so nothing is reported here.
    fields = tuple(
        plan.Field(p.name, p.type, a.nullable)
        for p, a in zip(function.parameters, args, strict=True)
    )
    scratch: list[Diagnostic] = []
    body = _bind_body(function, fields, scratch, Budget(0), ctx.functions)
    if body is None:
        ctx.diagnostics.extend(replace(d, span=call.span) for d in scratch)
        return None
    value = _substituted(body, tuple(args), call.span)
    if value.type != function.returns:
        value = plan.Cast(value, function.returns, value.nullable, call.span)
    return value


def _bind_args(call: ast.FunctionCall, ctx: ExprContext, depth: int) -> None:
    for arg in call.args:
        bind_expr(arg, ctx, depth)


def _substituted(expr: plan.Expr, args: tuple[plan.Expr, ...], span: Span) -> plan.Expr:
    """`expr` (a body over the parameters) with each parameter its argument, at `span`."""
    match expr:
        case plan.ColumnRef():
            return args[expr.index]
        case plan.Literal():
            return replace(expr, span=span)
        case plan.Call():
            inner = tuple(_substituted(arg, args, span) for arg in expr.args)
            return replace(expr, args=inner, span=span)
        case plan.Cast():
            return replace(expr, operand=_substituted(expr.operand, args, span), span=span)
        case plan.Lambda():  # its body sees its own parameter only
            return replace(expr, span=span)
        case plan.Case():
            whens = tuple(
                (_substituted(c, args, span), _substituted(r, args, span)) for c, r in expr.whens
            )
            else_ = None if expr.else_ is None else _substituted(expr.else_, args, span)
            return replace(expr, whens=whens, else_=else_, span=span)
    raise AssertionError(f"a function's body has no {type(expr).__name__}")
