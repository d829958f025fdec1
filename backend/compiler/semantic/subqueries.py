"""Subqueries as conditions of WHERE: `x [NOT] IN (SELECT y ...)`, `[NOT] EXISTS (...)`,
`x op ANY | ALL (SELECT y ...)`.

Each such condition, as a top-level conjunct of WHERE (`a AND x IN (...)`),
becomes a `SemiJoin` of the FROM's rows with the subquery: `semi` keeps the rows
with a match, `anti` those without, and `not_in` follows SQL's NULL rule for
NOT IN (a row passes when the subquery is empty, or when its value is not NULL,
equals no value of the subquery, and the subquery holds no NULL).

An EXISTS subquery of the form SELECT ... FROM ... [WHERE ...] may refer to
the outer query's columns (correlation): its WHERE becomes the join condition.
An IN, ANY or ALL subquery of that form whose WHERE names the outer query's columns
is such an EXISTS: `x IN (SELECT y ... WHERE c)` and `x op ANY (...)` are
`EXISTS (SELECT ... WHERE c AND x op y)`, `x NOT IN (...)` is `NOT EXISTS (... WHERE c
AND (x = y) IS NOT FALSE)` and `x op ALL (...)` is `NOT EXISTS (... WHERE c AND (x op
y) IS NOT TRUE)`: as conditions of WHERE, they keep the same rows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Literal

from backend.compiler.diagnostics import Code, error
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import types
from backend.compiler.semantic.correlation import all_of, syntax_nodes
from backend.compiler.semantic.environment import Environment
from backend.compiler.semantic.expressions import COMPARISONS, ExprContext, bind_expr
from backend.compiler.semantic.scope import Scope, resolve_column
from backend.compiler.syntax import ast

BindQuery = Callable[[ast.Query, Environment], "tuple[plan.Rel, object] | None"]
BindFrom = Callable[[tuple[ast.FromItem, ...], Environment], "tuple[Scope, plan.Rel | None]"]


def conjuncts(condition: ast.Expr) -> list[ast.Expr]:
    """`a AND b AND c` as [a, b, c] (without recursion: chains can be long)."""
    found: list[ast.Expr] = []
    stack = [condition]
    while stack:
        expr = stack.pop()
        if isinstance(expr, ast.BinaryOp) and expr.op == "and":
            stack.extend((expr.right, expr.left))
        else:
            found.append(expr)
    return found


def is_subquery_condition(expr: ast.Expr) -> bool:
    if isinstance(expr, ast.UnaryOp) and expr.op == "not":
        return isinstance(expr.operand, ast.Exists)
    return isinstance(expr, ast.InSubquery | ast.Exists | ast.QuantifiedComparison)


def bind_subquery_condition(
    expr: ast.Expr,
    left: plan.Rel,
    scope: Scope,
    env: Environment,
    bind_query: BindQuery,
    bind_from: BindFrom,
) -> plan.SemiJoin | None:
    if isinstance(expr, ast.InSubquery | ast.QuantifiedComparison):
        rewritten = _as_exists(expr, scope, env, bind_from)
        if rewritten is not None:
            negated, condition = rewritten
            return _exists(condition, negated, left, scope, env, bind_query, bind_from)
        return _compared(expr, left, scope, env, bind_query)
    negated = isinstance(expr, ast.UnaryOp)
    exists = expr.operand if isinstance(expr, ast.UnaryOp) else expr
    assert isinstance(exists, ast.Exists)
    return _exists(exists, negated, left, scope, env, bind_query, bind_from)


def _as_exists(
    expr: ast.InSubquery | ast.QuantifiedComparison,
    scope: Scope,
    env: Environment,
    bind_from: BindFrom,
) -> tuple[bool, ast.Exists] | None:
    """A correlated IN, ANY or ALL as [NOT] EXISTS (the module's docstring); None for
    another (uncorrelated, or not a plain SELECT of one value)."""
    compared = _correlated_comparison(expr, scope, env, bind_from)
    if compared is None:
        return None
    every = expr.negated if isinstance(expr, ast.InSubquery) else expr.quantifier == "all"
    if every:  # a row that does not make it TRUE (NOT IN: that does not make it FALSE)
        refuted: Literal["true", "false"] = "false" if isinstance(expr, ast.InSubquery) else "true"
        compared = ast.IsBoolean(compared, refuted, True, expr.span)
    return every, _exists_of(expr, compared)


def correlated_tests(
    expr: ast.InSubquery | ast.QuantifiedComparison,
    scope: Scope,
    env: Environment,
    bind_from: BindFrom,
) -> tuple[ast.Exists, ast.Exists] | None:
    """A correlated IN, ANY or ALL as a value: the EXISTS of a row that decides it (makes
    `x op y` TRUE for IN and ANY, FALSE for ALL) and the EXISTS of a row that makes it
    UNKNOWN; None for another (uncorrelated, or not a plain SELECT of one value)."""
    compared = _correlated_comparison(expr, scope, env, bind_from)
    if compared is None:
        return None
    span = expr.span
    if isinstance(expr, ast.QuantifiedComparison) and expr.quantifier == "all":
        deciding: ast.Expr = ast.IsBoolean(compared, "false", False, span)
    else:
        deciding = compared
    unknown = ast.IsBoolean(compared, "unknown", False, span)
    return _exists_of(expr, deciding), _exists_of(expr, unknown)


def _correlated_comparison(
    expr: ast.InSubquery | ast.QuantifiedComparison,
    scope: Scope,
    env: Environment,
    bind_from: BindFrom,
) -> ast.Expr | None:
    """`x op y` of a correlated IN (op `=`), ANY or ALL over a plain SELECT of one value
    y whose WHERE names the outer query's columns; None for another."""
    query, body = expr.query, expr.query.body
    plain = (
        isinstance(body, ast.Select)
        and not query.with_
        and query.limit is None
        and body.from_
        and body.where is not None
        and body.group_by is None
        and body.having is None
        and not body.windows
        and len(body.items) == 1
        and isinstance(body.items[0], ast.ExprItem)
        and not isinstance(expr.operand, ast.RowConstructor)
    )
    if not plain:
        return None
    assert isinstance(body, ast.Select) and isinstance(body.items[0], ast.ExprItem)
    assert body.where is not None
    inner_scope = _trial_scope(body.from_, env, bind_from)
    if inner_scope is None or not _names_outer_in([body.where], inner_scope, scope, env):
        return None
    if _names_inner_in([expr.operand], inner_scope, env):
        return None  # x would be read as the subquery's own column inside it
    op = "=" if isinstance(expr, ast.InSubquery) else expr.op
    return ast.BinaryOp(op, expr.operand, body.items[0].expr, expr.span, expr.span)


def _exists_of(expr: ast.InSubquery | ast.QuantifiedComparison, test: ast.Expr) -> ast.Exists:
    """EXISTS (SELECT 1 FROM ... WHERE <the subquery's WHERE> AND test)."""
    query, body, span = expr.query, expr.query.body, expr.span
    assert isinstance(body, ast.Select) and body.where is not None
    where = ast.BinaryOp("and", body.where, test, span, span)
    one = ast.ExprItem(ast.NumberLiteral("1", "integer", span), None, span)
    return ast.Exists(replace(query, body=replace(body, items=(one,), where=where)), span)


def names_outer(
    exprs: list[ast.Expr],
    from_: tuple[ast.FromItem, ...],
    scope: Scope,
    env: Environment,
    bind_from: BindFrom,
) -> bool:
    """Whether `exprs`, written in a subquery over `from_`, name a column of the outer
    query (`scope`) that is not one of the subquery's own."""
    inner_scope = _trial_scope(from_, env, bind_from)
    return inner_scope is not None and _names_outer_in(exprs, inner_scope, scope, env)


def _trial_scope(
    from_: tuple[ast.FromItem, ...], env: Environment, bind_from: BindFrom
) -> Scope | None:
    """The names of a subquery's FROM, bound silently (it is bound for real later)."""
    inner_scope, inner = bind_from(from_, replace(env, diagnostics=[]))
    return None if inner is None else inner_scope


def _names_outer_in(
    exprs: list[ast.Expr], inner_scope: Scope, scope: Scope, env: Environment
) -> bool:
    return any(
        isinstance(node, ast.ColumnRef)
        and resolve_column(inner_scope, node, [], env.suggestions) is None
        and resolve_column(scope, node, [], env.suggestions) is not None
        for expr in exprs
        for node in syntax_nodes(expr)
    )


def _names_inner_in(exprs: list[ast.Expr], inner_scope: Scope, env: Environment) -> bool:
    """Whether `exprs` name a column of the subquery's FROM (which would hide an outer one)."""
    return any(
        isinstance(node, ast.ColumnRef)
        and resolve_column(inner_scope, node, [], env.suggestions) is not None
        for expr in exprs
        for node in syntax_nodes(expr)
    )


def _compared(
    expr: ast.InSubquery | ast.QuantifiedComparison,
    left: plan.Rel,
    scope: Scope,
    env: Environment,
    bind_query: BindQuery,
) -> plan.SemiJoin | None:
    """`x [NOT] IN (SELECT y ...)`, `x op ANY (...)` and `x op ALL (...)`.

    IN and ANY keep the rows for which some y makes the comparison TRUE (a semi
    join); ALL keeps those for which no y makes it FALSE or UNKNOWN (an anti join
    on `(x op y) IS NOT TRUE`), so ALL over no rows is TRUE."""
    if isinstance(expr, ast.InSubquery) and isinstance(expr.operand, ast.RowConstructor):
        return _rows_in(expr, left, scope, env, bind_query)
    bound = _operand_and_subquery(expr, scope, env, bind_query)
    if bound is None:
        return None
    operand, right = bound
    column = right.columns[0]
    width = len(left.columns)
    value = plan.ColumnRef(width, column.name, column.type, column.nullable, expr.query.span)
    if isinstance(expr, ast.InSubquery):
        condition = plan.Call("eq", (operand, value), types.BOOLEAN, True, expr.span)
        kind = "not_in" if expr.negated else "semi"
        return plan.SemiJoin(kind, left, right, condition, left.columns, expr.span)
    compared = plan.Call(COMPARISONS[expr.op], (operand, value), types.BOOLEAN, True, expr.span)
    if expr.quantifier == "any":
        return plan.SemiJoin("semi", left, right, compared, left.columns, expr.span)
    false = plan.Literal(False, types.BOOLEAN, False, expr.span)
    holds = plan.Call("coalesce", (compared, false), types.BOOLEAN, False, expr.span)
    fails = plan.Call("not", (holds,), types.BOOLEAN, False, expr.span)
    return plan.SemiJoin("anti", left, right, fails, left.columns, expr.span)


def _rows_in(
    expr: ast.InSubquery,
    left: plan.Rel,
    scope: Scope,
    env: Environment,
    bind_query: BindQuery,
) -> plan.SemiJoin | None:
    """`(a, b) [NOT] IN (SELECT x, y ...)`: rows are equal when every pair of values
    is (FALSE when a pair differs, else UNKNOWN when one is NULL). IN keeps the rows
    some subquery row equals; NOT IN those every subquery row differs from (an anti
    join on equal-or-unknown, so a subquery of no rows keeps every row)."""
    assert isinstance(expr.operand, ast.RowConstructor)
    ctx = ExprContext(
        scope, env.diagnostics, env.suggestions, aggregate_clause="WHERE", functions=env
    )
    values = [bind_expr(item, ctx) for item in expr.operand.items]
    bound = bind_query(expr.query, env)
    if bound is None or None in values:
        return None
    right = bound[0]
    if len(right.columns) != len(values):
        message = (
            f"The subquery of IN must return {len(values)} columns, as the row it is "
            f"compared with has, not {len(right.columns)}"
        )
        env.report(error(Code.SET_OPERATION_SHAPE, message, expr.query.span))
        return None
    width = len(left.columns)
    equalities: list[plan.Expr] = []
    for at, (value, column) in enumerate(zip(values, right.columns, strict=True)):
        assert value is not None
        if not types.comparable(value.type, column.type):
            message = f"IN compares {value.type} with a subquery column of {column.type}"
            env.report(error(Code.TYPE_MISMATCH, message, value.span))
            return None
        other = plan.ColumnRef(width + at, column.name, column.type, True, expr.query.span)
        equalities.append(plan.Call("eq", (value, other), types.BOOLEAN, True, value.span))
    equal = all_of(equalities)
    assert equal is not None
    if not expr.negated:
        return plan.SemiJoin("semi", left, right, equal, left.columns, expr.span)
    true = plan.Literal(True, types.BOOLEAN, False, expr.span)
    maybe_equal = plan.Call("coalesce", (equal, true), types.BOOLEAN, False, expr.span)
    return plan.SemiJoin("anti", left, right, maybe_equal, left.columns, expr.span)


def _operand_and_subquery(
    expr: ast.InSubquery | ast.QuantifiedComparison,
    scope: Scope,
    env: Environment,
    bind_query: BindQuery,
) -> tuple[plan.Expr, plan.Rel] | None:
    """The compared value, bound over `scope`, and the (uncorrelated) subquery of one
    column of a comparable type; None after reporting an error."""
    shown = "IN" if isinstance(expr, ast.InSubquery) else f"{expr.op} {expr.quantifier.upper()}"
    if isinstance(expr.operand, ast.RowConstructor):
        env.not_supported(f"a row (a, b, ...) {shown} (subquery) outside WHERE", expr.span)
        return None
    ctx = ExprContext(
        scope, env.diagnostics, env.suggestions, aggregate_clause="WHERE", functions=env
    )
    operand = bind_expr(expr.operand, ctx)
    bound = bind_query(expr.query, env)
    if operand is None or bound is None:
        return None
    right = bound[0]
    if len(right.columns) != 1:
        env.report(
            error(
                Code.SET_OPERATION_SHAPE,
                f"The subquery of {shown} must return one column, not {len(right.columns)}",
                expr.query.span,
            )
        )
        return None
    column = right.columns[0]
    if not types.comparable(operand.type, column.type):
        env.report(
            error(
                Code.TYPE_MISMATCH,
                f"{shown} compares {operand.type} with a subquery of {column.type}",
                expr.query.span,
            )
        )
        return None
    return operand, right


def compared_value(
    expr: ast.InSubquery | ast.QuantifiedComparison,
    rel: plan.Rel,
    scope: Scope,
    env: Environment,
    bind_query: BindQuery,
) -> tuple[plan.Rel, plan.Expr, plan.Expr] | None:
    """`x [NOT] IN (SELECT y ...)` or `x op ANY | ALL (SELECT y ...)` as a value (under
    OR, in the select list): `rel` joined with what the subquery's rows say of it, the
    value, TRUE, FALSE or NULL as SQL has it, and x (over `rel`'s row).

    The subquery is summed up in one row (its rows, its values that are not NULL, and
    for an order comparison their least and greatest), and for IN its distinct values
    are left-joined on `x = y`. Then, as SQL says: over no rows, ANY (IN) is FALSE
    and ALL TRUE; for a NULL x, NULL; when some y decides it (makes the comparison
    TRUE for ANY, FALSE for ALL), that; else NULL if a y is NULL, else as over no rows."""
    bound = _operand_and_subquery(expr, scope, env, bind_query)
    if bound is None:
        return None
    x, right = bound
    span = expr.span
    y_field = right.columns[0]
    y = plan.ColumnRef(0, y_field.name, y_field.type, y_field.nullable, span)
    # IN, = ANY, and NOT IN, <> ALL (negated): whether x is one of the values.
    membership = isinstance(expr, ast.InSubquery) or (
        COMPARISONS[expr.op],
        expr.quantifier,
    ) in (("eq", "any"), ("ne", "all"))
    counts = [plan.AggCall("count_star", (), False, types.BIGINT, False, span)]
    counts.append(plan.AggCall("count", (y,), False, types.BIGINT, False, span))
    if not membership:
        counts += [plan.AggCall(f, (y,), False, y.type, True, span) for f in ("min", "max")]
    fields = tuple(plan.Field(f"s{i}", c.type, c.nullable) for i, c in enumerate(counts))
    # ANY's answer when some y decides it; ALL's is the opposite (and IN is ANY).
    any_ = membership or (isinstance(expr, ast.QuantifiedComparison) and expr.quantifier == "any")
    summary = plan.Aggregate(right, (), tuple(counts), fields, span)
    width = len(rel.columns)
    joined: plan.Rel = plan.Join("inner", rel, summary, None, (*rel.columns, *fields), span)
    total, present, *extremes = (
        plan.ColumnRef(width + i, f.name, f.type, f.nullable, span) for i, f in enumerate(fields)
    )
    if membership:  # x = some y: the distinct values, left-joined on it
        nulls_out = plan.Filter(right, _call("is_not_null", y), right.columns, span)
        values = plan.Distinct(nulls_out, right.columns, span)
        at = len(joined.columns)
        found_y = plan.ColumnRef(at, y.name, y.type, True, span)
        columns = (*joined.columns, replace(y_field, nullable=True))
        joined = plan.Join("left", joined, values, _call("eq", x, found_y), columns, span)
        decides = _call("is_not_null", found_y)
    else:
        assert isinstance(expr, ast.QuantifiedComparison)
        least, greatest = extremes
        function = COMPARISONS[expr.op]
        if function in ("eq", "ne"):  # some y differs from x
            decides = _call("or", _call("ne", least, x), _call("ne", greatest, x))
        elif any_:  # x > ANY: x > the least y
            extreme = least if function in ("gt", "ge") else greatest
            decides = _call(function, x, extreme)
        else:  # x > ALL is FALSE when x > the greatest y is
            extreme = greatest if function in ("gt", "ge") else least
            decides = _call("not", _call(function, x, extreme))
    empty = plan.Literal(not any_, types.BOOLEAN, False, span)
    null = plan.Literal(None, types.BOOLEAN, True, span)
    zero = plan.Literal(0, types.BIGINT, False, span)
    value: plan.Expr = plan.Case(
        (
            (_call("eq", total, zero), empty),
            (_call("is_null", x), null),
            (decides, plan.Literal(any_, types.BOOLEAN, False, span)),
            (_call("gt", total, present), null),
        ),
        empty,
        types.BOOLEAN,
        True,
        span,
    )
    negated = expr.negated if isinstance(expr, ast.InSubquery) else expr.quantifier == "all"
    if membership and negated:  # NOT IN, <> ALL: not IN
        value = _call("not", value)
    return joined, value, x


def _call(function: str, *args: plan.Expr) -> plan.Call:
    """A BOOLEAN call (NULL when an argument may be)."""
    nullable = function not in ("is_null", "is_not_null") and any(a.nullable for a in args)
    return plan.Call(function, args, types.BOOLEAN, nullable, args[0].span)


def _exists(
    expr: ast.Exists,
    negated: bool,
    left: plan.Rel,
    scope: Scope,
    env: Environment,
    bind_query: BindQuery,
    bind_from: BindFrom,
) -> plan.SemiJoin | None:
    kind = "anti" if negated else "semi"
    body = expr.query.body
    simple = (
        isinstance(body, ast.Select)
        and not expr.query.with_
        and not expr.query.order_by
        and expr.query.limit is None
        and body.from_
        and body.group_by is None
        and body.having is None
        and not body.windows
    )
    if not simple:
        bound = bind_query(expr.query, env)  # uncorrelated: any query
        if bound is None:
            return None
        return plan.SemiJoin(kind, left, bound[0], None, left.columns, expr.span)
    assert isinstance(body, ast.Select)
    inner_scope, right = bind_from(body.from_, env)
    if right is None:
        return None
    condition = None
    if body.where is not None:
        # The subquery's columns come after the outer query's in the join's row.
        shifted = tuple(
            replace(entry, offset=entry.offset + len(left.columns)) for entry in inner_scope.entries
        )
        ctx = ExprContext(
            Scope(shifted),
            env.diagnostics,
            env.suggestions,
            aggregate_clause="WHERE",
            functions=env,
        )
        ctx = replace(ctx, outer=scope)
        condition = bind_expr(body.where, ctx)
        if condition is None:
            return None
    return plan.SemiJoin(kind, left, right, condition, left.columns, expr.span)
