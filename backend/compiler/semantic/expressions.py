"""Binding expressions: syntax to typed plan expressions, with type errors.

`bind_expr` returns None when the expression is wrong; the diagnostic has been
recorded by then, and callers propagate None without adding their own, so one
mistake gives one message. Sugar is lowered here: BETWEEN to `and(ge, le)`,
IN lists to `or(eq, ...)`, `||` to `concat`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from backend.compiler.diagnostics import Code, Diagnostic, error
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import aggregates, functions, literals, time_functions, types
from backend.compiler.semantic.scope import Scope, ScopeEntry, resolve_column
from backend.compiler.semantic.similar import similar_to_regex
from backend.compiler.semantic.type_names import fixed_length, resolve_cast_type
from backend.compiler.semantic.types import SqlType
from backend.compiler.source import Span
from backend.compiler.suggest import Budget, did_you_mean
from backend.compiler.syntax import ast

if TYPE_CHECKING:
    from backend.compiler.semantic.environment import Environment
    from backend.compiler.semantic.windows import WindowCalls

# Left-deep chains such as `a + b + c ...` recurse once per operator here.
MAX_DEPTH = 128

COMPARISONS = {"=": "eq", "<>": "ne", "!=": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge"}
ARITHMETIC = {"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "mod"}


@dataclass(slots=True)
class ExprContext:
    """What binding an expression needs: the names in scope and where to report."""

    scope: Scope
    diagnostics: list[Diagnostic]
    suggestions: Budget
    # Set to the clause name ("LATENESS") where the expression must be a constant.
    constant_clause: str | None = None
    # A grouped SELECT list or HAVING collects its aggregate calls here; None
    # where aggregates are not allowed (`aggregate_clause` names the place).
    aggregates: list[plan.AggCall] | None = None
    aggregate_clause: str = "WHERE"
    # In GROUP BY, `TUMBLE(ts, INTERVAL ...)` names the window start.
    group_by: bool = False
    # A deep chain hits the depth limit on both sides of many operators, but one
    # SQL105 per context is enough.
    too_deep_reported: bool = False
    # A SELECT list collects its window function calls here (semantic/windows.py);
    # None where they are not allowed.
    windows: WindowCalls | None = None
    # In a correlated subquery: the outer query's names, found when the inner
    # scope has no column of that name.
    outer: Scope | None = None
    # The scalar subqueries of the SELECT being bound, each by its span: the column
    # its value is joined in as (semantic/scalar_subqueries.py).
    scalars: Mapping[Span, plan.Expr] | None = None
    # Where the functions and types of the program (CREATE FUNCTION, CREATE TYPE) are
    # looked up; None: nowhere.
    functions: Environment | None = None
    # While a function's body is checked: the function's name.
    function_body: str | None = None

    def report(self, code: Code, message: str, span: Span, hint: str | None = None) -> None:
        self.diagnostics.append(error(code, message, span, hint=hint))

    def not_supported(self, construct: str, span: Span) -> None:
        self.report(Code.NOT_SUPPORTED, f"Not supported yet: {construct}", span)


def bind_expr(expr: ast.Expr, ctx: ExprContext, depth: int = 0) -> plan.Expr | None:
    """The typed form of `expr`, or None after its errors were reported."""
    if depth > MAX_DEPTH:
        if not ctx.too_deep_reported:
            ctx.too_deep_reported = True
            message = f"Expression nested deeper than {MAX_DEPTH} levels"
            ctx.report(Code.TOO_DEEP, message, expr.span)
        return None
    depth += 1
    match expr:
        case ast.NumberLiteral():
            return _number(expr, False, expr.span, ctx)
        case ast.StringLiteral():
            return plan.Literal(expr.value, types.VARCHAR, False, expr.span)
        case ast.BooleanLiteral():
            return plan.Literal(expr.value, types.BOOLEAN, False, expr.span)
        case ast.NullLiteral():
            return plan.Literal(None, types.NULL, True, expr.span)
        case ast.TypedLiteral():
            return _typed_literal(expr, ctx)
        case ast.IntervalLiteral():
            return _interval(expr, ctx)
        case ast.Parameter():
            ctx.report(
                Code.DYNAMIC_PARAMETER,
                "A program has no values for parameters: '?' is for a client's prepared statement",
                expr.span,
                hint="write the value itself, a literal",
            )
            return None
        case ast.ColumnRef():
            return _column(expr, ctx)
        case ast.UnaryOp():
            return _unary(expr, ctx, depth)
        case ast.BinaryOp():
            return _binary(expr, ctx, depth)
        case ast.DatetimeInterval():
            return _datetime_interval(expr, ctx, depth)
        case ast.IntervalOf():
            return _interval_of(expr, ctx, depth)
        case ast.PeriodPredicate():
            return _period_predicate(expr, ctx, depth)
        case ast.IsNull():
            operand = bind_expr(expr.operand, ctx, depth)
            if operand is None:
                return None
            function = "is_not_null" if expr.negated else "is_null"
            return plan.Call(function, (operand,), types.BOOLEAN, False, expr.span)
        case ast.IsBoolean():
            return _is_boolean(expr, ctx, depth)
        case ast.IsDistinctFrom():
            return _is_distinct_from(expr, ctx, depth)
        case ast.Between():
            return _between(expr, ctx, depth)
        case ast.InList():
            return _in_list(expr, ctx, depth)
        case ast.Like():
            return _like(expr, ctx, depth)
        case ast.Cast():
            return _cast(expr, ctx, depth)
        case ast.FunctionCall():
            return _function_call(expr, ctx, depth)
        case ast.Case():
            return _case(expr, ctx, depth)
        case ast.FloorCeil():
            operand = bind_expr(expr.operand, ctx, depth)
            if operand is None:
                return None
            return time_functions.floor_ceil(expr, operand, ctx.diagnostics)
        case ast.Extract():
            operand = bind_expr(expr.operand, ctx, depth)
            if operand is None:
                return None
            return time_functions.extract(expr, operand, ctx.diagnostics)
        case _ if isinstance(expr, ast.QueryValue) and ctx.scalars and expr.span in ctx.scalars:
            return ctx.scalars[expr.span]
        case _ if isinstance(expr, ast.QueryValue) and ctx.function_body is not None:
            message = f"The body of {ctx.function_body.upper()} reads a query: a function's "
            ctx.report(Code.INVALID_FUNCTION, message + "body sees its parameters only", expr.span)
            return None
        case ast.RowConstructor():
            return _row_value(expr.items, expr.span, ctx, depth)
        case ast.Lambda():
            message = "A lambda (x -> ...) is an argument of TRANSFORM or ARRAY_EXISTS only"
            ctx.report(Code.UNKNOWN_FUNCTION, message, expr.span)
            return None
        case ast.MapConstructor():  # MAP[k, v, ...]: the `map` function (functions.py)
            name = ast.Identifier("map", False, expr.span)
            call = ast.FunctionCall(name, expr.items, False, False, None, None, expr.span)
            return _function_call(call, ctx, depth)
        case _:
            _not_supported_expression(expr, ctx, depth)
            return None


def _row_value(
    items: tuple[ast.Expr, ...], span: Span, ctx: ExprContext, depth: int
) -> plan.Expr | None:
    """`ROW(a, b)` or `(a, b)`: a ROW value, its fields named as Calcite names them
    (EXPR$0, EXPR$1, ...)."""
    bound = [bind_expr(item, ctx, depth + 1) for item in items]
    args = tuple(arg for arg in bound if arg is not None)
    if len(args) < len(bound):
        return None
    for arg in args:
        if types.is_null(arg.type):
            ctx.report(
                Code.TYPE_MISMATCH, "A ROW's field needs a type: CAST(NULL AS ...)", arg.span
            )
            return None
    fields = tuple(types.RowField(f"EXPR${i}", a.type, a.nullable) for i, a in enumerate(args))
    return plan.Call("row", args, types.row(fields), False, span)


def _not_supported_expression(expr: ast.Expr, ctx: ExprContext, depth: int) -> None:
    """Report a construct that is parsed but not compiled yet, checking its parts."""
    parts: tuple[ast.Expr | None, ...] = ()
    match expr:
        case ast.InSubquery():
            construct = "IN (subquery)"
            parts = (expr.operand,)
        case ast.QuantifiedComparison():
            construct = f"{expr.quantifier.upper()} (subquery)"
            parts = (expr.operand,)
        case ast.Subquery():
            construct = "subqueries in expressions"
        case ast.ArraySubquery():
            construct = "ARRAY(subquery) here"
        case ast.Exists():
            construct = "EXISTS"
        case ast.NamedArgument():
            construct = "named arguments outside a table function"
            parts = (expr.value,)
        case _:
            construct = "TABLE arguments outside a table function"
    ctx.not_supported(construct, expr.span)
    _bind_parts(parts, ctx, depth)


def _bind_parts(parts: tuple[ast.Expr | None, ...], ctx: ExprContext, depth: int) -> None:
    for part in parts:
        if part is not None:
            bind_expr(part, ctx, depth)


# ---------------------------------------------------------------- leaves


def _number(
    literal: ast.NumberLiteral, negative: bool, span: Span, ctx: ExprContext
) -> plan.Literal | None:
    try:
        value, sql_type = literals.number(literal.text, literal.kind, negative)
    except literals.InvalidLiteral as exc:
        ctx.report(Code.INVALID_LITERAL, exc.message, span)
        return None
    return plan.Literal(value, sql_type, False, span)


DATETIME_LITERALS: dict[str, tuple[SqlType, Callable[[str], str]]] = {
    "timestamp": (types.TIMESTAMP, literals.timestamp),
    "date": (types.DATE, literals.date),
    "time": (types.TIME, literals.time),
    "uuid": (types.UUID, literals.uuid),
    "binary": (types.VARBINARY, literals.binary),
}


def _typed_literal(literal: ast.TypedLiteral, ctx: ExprContext) -> plan.Literal | None:
    return _datetime_literal(literal.type, literal.value, literal.span, ctx)


def _datetime_literal(kind: str, text: str, span: Span, ctx: ExprContext) -> plan.Literal | None:
    """`kind 'text'` (DATE '2020-01-01', ...), or None after reporting SQL206."""
    sql_type, convert = DATETIME_LITERALS[kind]
    try:
        value = convert(text)
    except literals.InvalidLiteral as exc:
        ctx.report(Code.INVALID_LITERAL, exc.message, span)
        return None
    return plan.Literal(value, sql_type, False, span)


def _text_as_number(left: plan.Expr, right: plan.Expr) -> tuple[plan.Expr, plan.Expr]:
    """Text in arithmetic with a number is cast to the number's type (to the widest
    DECIMAL for a DECIMAL), as Calcite coerces it, after PostgreSQL: `deptno + '1'` adds
    1; text that is no number fails the step, as its CAST does."""
    for text, number in ((left, right), (right, left)):
        if types.is_string(text.type) and types.is_numeric(number.type):
            decimal = number.type.kind is types.TypeKind.DECIMAL
            widest = types.decimal(types.MAX_DECIMAL_PRECISION, types.MAX_DECIMAL_PRECISION // 2)
            target = widest if decimal else number.type
            cast = plan.Cast(text, target, text.nullable, text.span)
            return (cast, number) if text is left else (number, cast)
    return left, right


def _coerced_literals(
    left: plan.Expr, right: plan.Expr, ctx: ExprContext
) -> tuple[plan.Expr | None, plan.Expr | None]:
    """A string literal compared with a DATE, TIMESTAMP, TIME or UUID is a literal of that
    type (another string compared with a UUID is cast to one, as in Feldera),
    as Calcite and Feldera read `d > '2020-01-01'` (None after reporting a bad one); a
    number literal compared with a REAL is a REAL, as in Feldera (`r = -57681.18` holds
    for the REAL that literal makes, which as a DOUBLE is -57681.1796875)."""
    for number, other in ((left, right), (right, left)):
        literal = isinstance(number, plan.Literal) and types.is_numeric(number.type)
        if literal and other.type == types.REAL and number.type != types.REAL:
            real = plan.Cast(number, types.REAL, number.nullable, number.span)
            return (real, other) if number is left else (other, real)
    for text, other in ((left, right), (right, left)):
        kind = other.type.kind.value.lower()
        if kind not in DATETIME_LITERALS or not types.is_string(text.type):
            continue
        if isinstance(text, plan.Literal) and isinstance(text.value, str):
            typed = _datetime_literal(kind, text.value, text.span, ctx)
            return (typed, other) if text is left else (other, typed)
        if other.type == types.UUID:  # a string compared with a UUID is read as one
            cast = plan.Cast(text, types.UUID, text.nullable, text.span)
            return (cast, other) if text is left else (other, cast)
    return left, right


def _interval(literal: ast.IntervalLiteral, ctx: ExprContext) -> plan.Literal | None:
    try:
        value, sql_type = literals.interval(
            literal.value, literal.negative, literal.start_unit, literal.end_unit
        )
    except literals.InvalidLiteral as exc:
        ctx.report(Code.INVALID_LITERAL, exc.message, literal.span)
        return None
    return plan.Literal(value, sql_type, False, literal.span)


def _column(ref: ast.ColumnRef, ctx: ExprContext) -> plan.Expr | None:
    word = _bare_word(ref, ctx)
    if word in functions.NILADIC_CONSTANTS:  # a constant, so also where one must be
        return functions.type_scalar_call(word, (), ref.span, ctx.diagnostics)
    written = ".".join(part.value for part in ref.parts)
    if ctx.constant_clause is not None:
        ctx.report(
            Code.INVALID_DEFINITION,
            f"{ctx.constant_clause} must be a constant expression, but '{written}' is a column",
            ref.span,
        )
        return None
    if word in functions.NILADIC_FUNCTIONS:
        ctx.not_supported(word.upper(), ref.span)
        return None
    if ctx.outer is not None:
        scratch: list[Diagnostic] = []
        inner = resolve_column(ctx.scope, ref, scratch, ctx.suggestions)
        unknown = (Code.UNKNOWN_COLUMN, Code.UNKNOWN_RELATION)
        if inner is not None or any(d.code not in unknown for d in scratch):
            ctx.diagnostics.extend(scratch)
            return inner
        outer = resolve_column(ctx.outer, ref, [], ctx.suggestions)
        if outer is not None:
            return outer
        ctx.diagnostics.extend(scratch)
        return None
    return resolve_column(ctx.scope, ref, ctx.diagnostics, ctx.suggestions)


def _bare_word(ref: ast.ColumnRef, ctx: ExprContext) -> str | None:
    """The unquoted word `ref` is when it names no column in scope (CURRENT_DATE, PI)."""
    first = ref.parts[0]
    if len(ref.parts) > 1 or first.quoted:
        return None
    if any(entry.find(first.value) is not None for entry in ctx.scope.entries):
        return None
    return first.value


# ---------------------------------------------------------------- operators


def _unary(expr: ast.UnaryOp, ctx: ExprContext, depth: int) -> plan.Expr | None:
    if expr.op == "-" and isinstance(expr.operand, ast.NumberLiteral):
        # Folded so that -2147483648 is an INTEGER literal, as written.
        return _number(expr.operand, True, expr.span, ctx)
    operand = bind_expr(expr.operand, ctx, depth)
    if operand is None:
        return None
    if expr.op == "not":
        if not _check_boolean(operand, "NOT", ctx):
            return None
        return plan.Call("not", (operand,), types.BOOLEAN, operand.nullable, expr.span)
    result = types.negation_type(operand.type)
    if result is None:
        ctx.report(
            Code.TYPE_MISMATCH, f"Cannot apply unary '{expr.op}' to {operand.type}", expr.span
        )
        return None
    if expr.op == "+":
        return operand
    return plan.Call("neg", (operand,), result, operand.nullable, expr.span)


def _datetime_interval(
    expr: ast.DatetimeInterval, ctx: ExprContext, depth: int
) -> plan.Expr | None:
    """`(t1 - t2) unit [TO unit]` of two DATEs or two TIMESTAMPs, as Calcite has it: in
    YEAR or MONTH units the whole months from t2 to t1 (TIMESTAMPDIFF's); in shorter
    units t1 - t2. Its type has those units (INTERVAL MONTH, INTERVAL DAY TO HOUR):
    they decide how it is written and what it casts to."""
    difference = expr.difference
    left = bind_expr(difference.left, ctx, depth)
    right = bind_expr(difference.right, ctx, depth)
    if left is None or right is None:
        return None
    dated = (types.TypeKind.DATE, types.TypeKind.TIMESTAMP)
    in_months = expr.start_unit in ("year", "month")
    timed = left.type.kind is types.TypeKind.TIME and not in_months  # (t1 - t2) SECOND
    if (left.type.kind not in dated and not timed) or right.type.kind != left.type.kind:
        also = "" if in_months else ", or two TIMEs"
        ctx.report(
            Code.TYPE_MISMATCH,
            f"(t1 - t2) {expr.start_unit.upper()} expects two DATEs or two TIMESTAMPs{also}, "
            f"found {left.type} and {right.type}",
            difference.span,
        )
        return None
    try:
        literals.interval_fields(expr.start_unit, expr.end_unit or expr.start_unit)
    except literals.InvalidLiteral as exc:  # YEAR TO DAY, MINUTE TO HOUR
        ctx.report(Code.INVALID_LITERAL, exc.message, expr.span)
        return None
    end = expr.end_unit.upper() if expr.end_unit else None
    typed = types.interval_of(expr.start_unit.upper(), end)
    nullable = left.nullable or right.nullable
    if typed.kind is types.TypeKind.INTERVAL_DAY_TIME:
        elapsed = _binary(difference, ctx, depth)
        return None if elapsed is None else plan.Cast(elapsed, typed, nullable, expr.span)
    month = plan.Literal("MONTH", types.VARCHAR, False, expr.span)
    months = plan.Call("timestampdiff", (month, right, left), types.INTEGER, nullable, expr.span)
    return plan.Call("months", (months,), typed, nullable, expr.span)


# Feldera's period predicates, over (s1, e1) and (s2, e2) with s <= e (the ends swapped
# where they are not): which comparisons of the ends each one is.
_PERIOD_TESTS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "contains": (("s1", "<=", "s2"), ("e1", ">=", "e2")),
    "overlaps": (("s1", "<=", "e2"), ("e1", ">=", "s2")),
    "equals": (("s1", "=", "s2"), ("e1", "=", "e2")),
    "precedes": (("e1", "<=", "s2"),),
    "immediately precedes": (("e1", "=", "s2"),),
    "succeeds": (("s1", ">=", "e2"),),
    "immediately succeeds": (("s1", "=", "e2"),),
}


def _period_predicate(expr: ast.PeriodPredicate, ctx: ExprContext, depth: int) -> plan.Expr | None:
    """`(s1, e1) CONTAINS (s2, e2)` and the others (_PERIOD_TESTS): comparisons of the
    periods' ends, each period's ends in order (LEAST and GREATEST: NULL if one is); an
    end that is an interval is the start plus it; CONTAINS x is CONTAINS (x, x)."""
    other = expr.other
    if not isinstance(other, ast.RowConstructor):
        other = ast.RowConstructor((other, other), other.span)
    ends: dict[str, ast.Expr] = {}
    for number, period in (("1", expr.period), ("2", other)):
        start, end = period.items
        bound_start, bound_end = bind_expr(start, ctx, depth), bind_expr(end, ctx, depth)
        if bound_start is None or bound_end is None:
            return None
        if types.is_interval(bound_end.type):
            end = ast.BinaryOp("+", start, end, end.span, period.span)
        for key, function in (("s", "least"), ("e", "greatest")):
            name = ast.Identifier(function, False, period.span)
            ends[key + number] = ast.FunctionCall(
                name, (start, end), False, False, None, None, period.span
            )
    tests = [
        ast.BinaryOp(op, ends[a], ends[b], expr.span, expr.span)
        for a, op, b in _PERIOD_TESTS[expr.op]
    ]
    condition = functools.reduce(
        lambda x, y: ast.BinaryOp("and", x, y, expr.span, expr.span), tests
    )
    return bind_expr(condition, ctx, depth)


def _interval_of(expr: ast.IntervalOf, ctx: ExprContext, depth: int) -> plan.Expr | None:
    """`INTERVAL amount unit`: that many units (a number, or its text: '+10', '-1.5'), an
    interval of that unit (INTERVAL HOUR), as Feldera has it."""
    amount = bind_expr(expr.amount, ctx, depth)
    if amount is None:
        return None
    if not (types.is_numeric(amount.type) or types.is_string(amount.type)):
        ctx.report(
            Code.TYPE_MISMATCH,
            f"INTERVAL ... {expr.unit.upper()} expects a number or its text, found {amount.type}",
            expr.amount.span,
        )
        return None
    unit = plan.Literal(expr.unit.upper(), types.VARCHAR, False, expr.span)
    typed = types.interval_of(expr.unit.upper())
    return plan.Call("interval_of", (amount, unit), typed, amount.nullable, expr.span)


def _binary(expr: ast.BinaryOp, ctx: ExprContext, depth: int) -> plan.Expr | None:
    if expr.op in ("and", "or", "||"):
        return _chain(expr, ctx, depth)
    left = bind_expr(expr.left, ctx, depth)
    right = bind_expr(expr.right, ctx, depth)
    if left is None or right is None:
        return None
    nullable = left.nullable or right.nullable
    if expr.op in COMPARISONS:
        left, right = _coerced_literals(left, right, ctx)
        if left is None or right is None:
            return None
        if not types.comparable(left.type, right.type):
            ctx.report(
                Code.TYPE_MISMATCH,
                f"Cannot compare {left.type} with {right.type}",
                expr.span,
                hint=_comparison_hint(left, right),
            )
            return None
        function = COMPARISONS[expr.op]
        return plan.Call(function, (left, right), types.BOOLEAN, nullable, expr.span)
    left, right = _text_as_number(left, right)
    result = types.arithmetic_type(expr.op, left.type, right.type)
    if result is None:
        hint = None
        if expr.op == "+" and types.is_string(left.type) and types.is_string(right.type):
            hint = "use || to concatenate strings"
        elif expr.op in "+-" and types.is_datetime(left.type) and types.is_numeric(right.type):
            verb = "add" if expr.op == "+" else "subtract"
            hint = f"{verb} an INTERVAL, such as INTERVAL '0.1' SECOND"
        ctx.report(
            Code.TYPE_MISMATCH,
            f"Cannot apply '{expr.op}' to {left.type} and {right.type}",
            expr.span,
            hint=hint,
        )
        return None
    return plan.Call(ARITHMETIC[expr.op], (left, right), result, nullable, expr.span)


def _chain(expr: ast.BinaryOp, ctx: ExprContext, depth: int) -> plan.Expr | None:
    """AND, OR and `||` chains, flattened without recursion (they can be long)."""
    rights: list[ast.Expr] = []
    node: ast.Expr = expr
    while isinstance(node, ast.BinaryOp) and node.op == expr.op:
        rights.append(node.right)
        node = node.left
    operands = [bind_expr(operand, ctx, depth) for operand in [node, *reversed(rights)]]
    bound = [operand for operand in operands if operand is not None]
    if len(bound) < len(operands):
        return None
    if expr.op == "||":
        return functions.concat(tuple(bound), expr.span, ctx.diagnostics)
    keyword = expr.op.upper()
    if not all([_check_boolean(operand, keyword, ctx) for operand in bound]):
        return None
    return _balanced(expr.op, bound)


def _balanced(function: str, operands: list[plan.Expr]) -> plan.Expr:
    """`and`/`or` over many operands as a balanced tree, so its depth stays small."""
    if len(operands) == 1:
        return operands[0]
    middle = (len(operands) + 1) // 2
    left = _balanced(function, operands[:middle])
    right = _balanced(function, operands[middle:])
    nullable = left.nullable or right.nullable
    return plan.Call(function, (left, right), types.BOOLEAN, nullable, left.span.to(right.span))


def _check_boolean(operand: plan.Expr, keyword: str, ctx: ExprContext) -> bool:
    if operand.type in (types.BOOLEAN, types.NULL):
        return True
    ctx.report(
        Code.TYPE_MISMATCH,
        f"{keyword} expects BOOLEAN operands, found {operand.type}",
        operand.span,
    )
    return False


def _comparison_hint(left: plan.Expr, right: plan.Expr) -> str | None:
    if not (types.is_string(left.type) or types.is_string(right.type)):
        return None
    return "use CAST to convert one side to the other's type"


def _is_boolean(expr: ast.IsBoolean, ctx: ExprContext, depth: int) -> plan.Expr | None:
    """`x IS [NOT] TRUE | FALSE | UNKNOWN`: never NULL, written with the contract's calls."""
    operand = bind_expr(expr.operand, ctx, depth)
    if operand is None or not _check_boolean(operand, f"IS {expr.value.upper()}", ctx):
        return None
    if expr.value == "unknown":
        function = "is_not_null" if expr.negated else "is_null"
        return plan.Call(function, (operand,), types.BOOLEAN, False, expr.span)
    if expr.value == "false":
        operand = plan.Call("not", (operand,), types.BOOLEAN, operand.nullable, operand.span)
    false = plan.Literal(False, types.BOOLEAN, False, expr.span)
    holds = plan.Call("coalesce", (operand, false), types.BOOLEAN, False, expr.span)
    if expr.negated:
        return plan.Call("not", (holds,), types.BOOLEAN, False, expr.span)
    return holds


def _is_distinct_from(expr: ast.IsDistinctFrom, ctx: ExprContext, depth: int) -> plan.Expr | None:
    """`a IS [NOT] DISTINCT FROM b`: equality where NULL equals NULL; never NULL."""
    left = bind_expr(expr.left, ctx, depth)
    right = bind_expr(expr.right, ctx, depth)
    if left is None or right is None:
        return None
    if not _check_comparable(left, right, "The right side of IS DISTINCT FROM", ctx):
        return None
    function = "is_not_distinct_from" if expr.negated else "is_distinct_from"
    return plan.Call(function, (left, right), types.BOOLEAN, False, expr.span)


def _between(expr: ast.Between, ctx: ExprContext, depth: int) -> plan.Expr | None:
    operand = bind_expr(expr.operand, ctx, depth)
    low = bind_expr(expr.low, ctx, depth)
    high = bind_expr(expr.high, ctx, depth)
    if operand is None or low is None or high is None:
        return None
    if not (
        _check_comparable(operand, low, "BETWEEN bound", ctx)
        and _check_comparable(operand, high, "BETWEEN bound", ctx)
    ):
        return None
    between = _within(operand, low, high, expr.span)
    if expr.symmetric:  # as the SQL standard defines it, NULLs included
        reversed_bounds = _within(operand, high, low, expr.span)
        nullable = between.nullable or reversed_bounds.nullable
        between = plan.Call("or", (between, reversed_bounds), types.BOOLEAN, nullable, expr.span)
    return _negate(between) if expr.negated else between


def _within(operand: plan.Expr, low: plan.Expr, high: plan.Expr, span: Span) -> plan.Expr:
    """`low <= operand AND operand <= high`."""
    lower = plan.Call("ge", (operand, low), types.BOOLEAN, operand.nullable or low.nullable, span)
    upper = plan.Call("le", (operand, high), types.BOOLEAN, operand.nullable or high.nullable, span)
    nullable = lower.nullable or upper.nullable
    return plan.Call("and", (lower, upper), types.BOOLEAN, nullable, span)


def _in_list(expr: ast.InList, ctx: ExprContext, depth: int) -> plan.Expr | None:
    operand = bind_expr(expr.operand, ctx, depth)
    items = [bind_expr(item, ctx, depth) for item in expr.items]
    if operand is None:
        return None
    equalities: list[plan.Expr] = []
    for item in items:
        if item is None or not _check_comparable(operand, item, "IN list item", ctx):
            continue
        nullable = operand.nullable or item.nullable
        equalities.append(plan.Call("eq", (operand, item), types.BOOLEAN, nullable, item.span))
    if len(equalities) < len(items):
        return None
    any_equal = replace(_balanced("or", equalities), span=expr.span)
    return _negate(any_equal) if expr.negated else any_equal


def _check_comparable(operand: plan.Expr, other: plan.Expr, what: str, ctx: ExprContext) -> bool:
    if types.comparable(operand.type, other.type):
        return True
    ctx.report(
        Code.TYPE_MISMATCH,
        f"{what} of type {other.type} cannot be compared with {operand.type}",
        other.span,
    )
    return False


def _negate(expr: plan.Expr) -> plan.Expr:
    return plan.Call("not", (expr,), types.BOOLEAN, expr.nullable, expr.span)


def _like(expr: ast.Like, ctx: ExprContext, depth: int) -> plan.Expr | None:
    """`operand LIKE pattern [ESCAPE 'c']`: a call of `like` with the escape character
    as a third argument, a one-character literal (without ESCAPE no character escapes,
    as in the SQL standard: a backslash is an ordinary character). ILIKE, as in
    PostgreSQL, is LIKE of both sides in lower case."""
    operand = bind_expr(expr.operand, ctx, depth)
    pattern = bind_expr(expr.pattern, ctx, depth)
    escape = None if expr.escape is None else bind_expr(expr.escape, ctx, depth)
    if operand is None or pattern is None or (expr.escape is not None and escape is None):
        return None
    shown = "ILIKE" if expr.case_insensitive else "SIMILAR TO" if expr.similar else "LIKE"
    for side in (operand, pattern):
        if not (types.is_string(side.type) or types.is_null(side.type)):
            ctx.report(
                Code.TYPE_MISMATCH,
                f"{shown} expects VARCHAR operands, found {side.type}",
                side.span,
            )
            return None
    if expr.similar:
        return _similar(expr, operand, pattern, escape, ctx)
    if escape is not None and not _check_escape(escape, pattern, ctx):
        return None
    if expr.case_insensitive:  # both sides in lower case, and the escape character
        operand, pattern = (
            side
            if types.is_null(side.type)
            else plan.Call("lower", (side,), side.type, side.nullable, side.span)
            for side in (operand, pattern)
        )
        if isinstance(escape, plan.Literal) and isinstance(escape.value, str):
            escape = replace(escape, value=escape.value.lower())
    args: tuple[plan.Expr, ...] = (
        (operand, pattern) if escape is None else (operand, pattern, escape)
    )
    nullable = operand.nullable or pattern.nullable
    like = plan.Call("like", args, types.BOOLEAN, nullable, expr.span)
    return _negate(like) if expr.negated else like


def _similar(
    expr: ast.Like,
    operand: plan.Expr,
    pattern: plan.Expr,
    escape: plan.Expr | None,
    ctx: ExprContext,
) -> plan.Expr | None:
    """`s SIMILAR TO 'pattern'`: RLIKE of the pattern as a regular expression
    (semantic/similar.py); the pattern and the escape are string literals."""
    if types.is_null(pattern.type):
        return plan.Literal(None, types.BOOLEAN, True, expr.span)
    text = _string_value(pattern)
    escape_text = None if escape is None else _string_value(escape)
    written = pattern if text is None else escape if escape_text is None else None
    if written is not None or text is None:
        construct = "SIMILAR TO with a pattern or an escape that is not a string literal"
        ctx.not_supported(construct, (written or pattern).span)
        return None
    try:
        if escape_text is not None and len(escape_text) != 1:
            raise ValueError(f"ESCAPE {escape_text!r} is not one character")
        regex = similar_to_regex(text, escape_text)
        re.compile(regex)
    except (ValueError, re.error) as problem:
        message = f"SIMILAR TO pattern {text!r} is not valid: {problem}"
        ctx.report(Code.INVALID_LITERAL, message, pattern.span)
        return None
    regex_literal = plan.Literal(regex, types.VARCHAR, False, pattern.span)
    nullable = operand.nullable
    matches = plan.Call("rlike", (operand, regex_literal), types.BOOLEAN, nullable, expr.span)
    return _negate(matches) if expr.negated else matches


def _string_value(expr: plan.Expr) -> str | None:
    """The text of a string literal; None for another expression."""
    if isinstance(expr, plan.Literal) and isinstance(expr.value, str):
        return expr.value
    return None


def _check_escape(escape: plan.Expr, pattern: plan.Expr, ctx: ExprContext) -> bool:
    """An ESCAPE is one character, written as a literal; in a literal pattern it
    precedes only `%`, `_` or itself."""
    if not isinstance(escape, plan.Literal) or not isinstance(escape.value, str):
        ctx.not_supported(
            "LIKE ... ESCAPE with an escape that is not a string literal", escape.span
        )
        return False
    if len(escape.value) != 1:
        ctx.report(
            Code.INVALID_LITERAL,
            f"ESCAPE expects one character, found {escape.value!r}",
            escape.span,
        )
        return False
    if isinstance(pattern, plan.Literal) and isinstance(pattern.value, str):
        problem = _escape_problem(pattern.value, escape.value)
        if problem is not None:
            ctx.report(Code.INVALID_LITERAL, problem, pattern.span)
            return False
    return True


def _escape_problem(pattern: str, escape: str) -> str | None:
    """Why `pattern` is not a valid LIKE pattern with the escape character `escape`.

    >>> _escape_problem("100!%", "!") is None, _escape_problem("a!b", "!")
    (True, "LIKE pattern 'a!b': the escape character '!' must precede '%', '_' or '!'")
    """
    index = 0
    while index < len(pattern):
        if pattern[index] == escape:
            if index + 1 == len(pattern) or pattern[index + 1] not in ("%", "_", escape):
                return (
                    f"LIKE pattern {pattern!r}: the escape character {escape!r} "
                    f"must precede '%', '_' or {escape!r}"
                )
            index += 1
        index += 1
    return None


def _cast(expr: ast.Cast, ctx: ExprContext, depth: int) -> plan.Expr | None:
    operand = bind_expr(expr.operand, ctx, depth)
    if ctx.functions is None:
        target = resolve_cast_type(expr.type, ctx.diagnostics, ctx.suggestions)
    else:
        user_types = ctx.functions.user_type
        target = resolve_cast_type(expr.type, ctx.diagnostics, ctx.suggestions, user_types)
    if operand is None or target is None:
        return None
    if not types.can_cast(operand.type, target):
        ctx.report(Code.TYPE_MISMATCH, f"Cannot cast {operand.type} to {target}", expr.span)
        return None
    if expr.safe:  # NULL where the value does not convert
        return plan.Call("safe_cast", (operand,), target, True, expr.span)
    cast = plan.Cast(operand, target, operand.nullable, expr.span)
    length = fixed_length(expr.type)
    if length is None:
        return cast
    # CHAR(n): cut or padded with spaces to n characters (RPAD does both); VARCHAR(n): cut;
    # BINARY(n) and VARBINARY(n) the same in bytes, BINARY(n) padded with zero bytes.
    kind, n = length
    function = {"char": "rpad", "varchar": "left", "binary": "binary_fixed"}.get(
        kind, "binary_left"
    )
    size = plan.Literal(n, types.INTEGER, False, expr.span)
    return plan.Call(function, (cast, size), target, operand.nullable, expr.span)


# ---------------------------------------------------------------- function calls


def _lambda_call(call: ast.FunctionCall, ctx: ExprContext, depth: int) -> plan.Expr | None:
    """TRANSFORM(a, x -> e) and ARRAY_EXISTS(a, x -> c): the lambda's body is bound over
    its parameter alone, an element of the array (as Feldera's lambdas)."""
    name, (array_arg, function) = call.name.value.lower(), call.args
    shown = name.upper()
    array = bind_expr(array_arg, ctx, depth)
    if not isinstance(function, ast.Lambda):
        message = f"{shown} takes an array and a lambda: {shown}(a, x -> ...)"
        ctx.report(Code.UNKNOWN_FUNCTION, message, function.span)
        return None
    if array is None:
        return None
    if not types.is_array(array.type) or array.type.element is None:
        message = f"{shown} expects an array, found {array.type}"
        ctx.report(Code.TYPE_MISMATCH, message, array.span)
        return None
    param = function.param
    element = plan.Field(param.value, array.type.element, True)
    seen = f"the lambda '{param.value} -> ...', which sees only '{param.value}'"
    entry = ScopeEntry(param.value, param.span, seen, (element,), 0)
    inner = ExprContext(
        Scope((entry,)),
        ctx.diagnostics,
        ctx.suggestions,
        aggregate_clause="a lambda",
        functions=ctx.functions,
    )
    body = bind_expr(function.body, inner, depth)
    if body is None:
        return None
    bound = plan.Lambda(param.value, body, body.type, body.nullable, function.span)
    return functions.lambda_call(name, array, bound, call.span, ctx.diagnostics)


def _function_call(call: ast.FunctionCall, ctx: ExprContext, depth: int) -> plan.Expr | None:
    name = call.name.value.lower()
    shown = name.upper()
    args = call.args
    if name == "row" and not call.name.quoted and args and call.over is None:
        return _row_value(args, call.span, ctx, depth)
    if call.order_by and (call.over is not None or name not in functions.AGGREGATE_FUNCTIONS):
        where = "a window function's" if call.over is not None else "a function's"
        message = f"ORDER BY inside {shown}(...) orders an aggregate's rows, not {where}"
        ctx.report(Code.AGGREGATE_MISUSE, message, call.order_by[0].span)
        _bind_args(call, ctx, depth)
        return None
    if call.over is not None:
        if ctx.windows is None:
            ctx.report(
                Code.AGGREGATE_MISUSE,
                f"Window functions are allowed only in the SELECT list: {shown}(...) OVER",
                call.span,
            )
            return None
        return ctx.windows.bind(call, ctx, depth)
    if name in functions.AGGREGATE_FUNCTIONS:
        return _aggregate_call(call, ctx, depth)
    if name in functions.GROUPING_FUNCTIONS and not call.name.quoted:
        return _grouping_call(call, ctx, depth)
    if name in time_functions.WINDOW_FUNCTIONS and not call.name.quoted:
        bound = [bind_expr(arg, ctx, depth) for arg in args]
        present = tuple(arg for arg in bound if arg is not None)
        if len(present) < len(bound):
            return None
        selecting = ctx.aggregates is not None
        return time_functions.window_call(call, present, ctx.group_by, selecting, ctx.diagnostics)
    if name in time_functions.DATE_PART_FUNCTIONS and not call.name.quoted:
        return _date_part_call(call, ctx, depth)
    if name == "date_part" and not call.name.quoted:
        return _date_part_of_unit(call, ctx, depth)
    if name in time_functions.TIMESTAMP_ARITHMETIC and not call.name.quoted:
        return _timestamp_arithmetic_call(call, ctx, depth)
    if name in time_functions.DATE_SHIFTS and not call.name.quoted:
        return _date_shift(call, ctx, depth)
    if name in time_functions.TRUNCATIONS and not call.name.quoted:
        floor = time_functions.truncation(call, ctx.diagnostics)
        truncated = None if floor is None else bind_expr(floor, ctx, depth)
        if name == "timestamp_trunc" and truncated is not None and truncated.type == types.DATE:
            return plan.Cast(truncated, types.TIMESTAMP, truncated.nullable, call.span)
        return truncated
    arity = functions.SCALAR_FUNCTIONS.get(name)
    if arity is None:
        if name in functions.NOT_YET_FUNCTIONS:
            ctx.not_supported(f"function {shown}", call.span)
        elif ctx.functions is not None and ctx.functions.function(call.name.value)[0]:
            return _user_call(call, ctx, depth)
        elif ctx.functions is not None and ctx.functions.user_type(call.name.value)[0]:
            return _constructed(call, ctx, depth)
        elif ctx.function_body == call.name.value:
            itself = "a function's body cannot call the function itself"
            ctx.report(Code.UNKNOWN_FUNCTION, f"Unknown function {shown}", call.name.span, itself)
        else:
            known = [*functions.SCALAR_FUNCTIONS, *sorted(functions.AGGREGATE_FUNCTIONS)]
            hint = did_you_mean(shown, [f.upper() for f in known], ctx.suggestions)
            ctx.report(Code.UNKNOWN_FUNCTION, f"Unknown function {shown}", call.name.span, hint)
        _bind_args(call, ctx, depth)
        return None
    if call.star or call.distinct or call.filter is not None:
        what = "*" if call.star else "DISTINCT" if call.distinct else "FILTER"
        ctx.report(
            Code.UNKNOWN_FUNCTION,
            f"{shown} is not an aggregate function: {what} is not allowed",
            call.span,
        )
        _bind_args(call, ctx, depth)
        return None
    if not arity.accepts(len(args)):
        ctx.report(
            Code.UNKNOWN_FUNCTION,
            f"{shown} expects {arity.describe()}, got {len(args)}",
            call.span,
        )
        _bind_args(call, ctx, depth)
        return None
    if name in functions.LAMBDA_FUNCTIONS:
        return _lambda_call(call, ctx, depth)
    if name == "if":  # IF(condition, then, else): a CASE of one WHEN
        condition, then, else_ = args
        when = ast.WhenClause(condition, then, condition.span.to(then.span))
        return _case(ast.Case(None, (when,), else_, call.span), ctx, depth)
    bound = [bind_expr(arg, ctx, depth) for arg in args]
    present = tuple(arg for arg in bound if arg is not None)
    if len(present) < len(bound):
        return None
    return functions.type_scalar_call(name, present, call.span, ctx.diagnostics)


def _constructed(call: ast.FunctionCall, ctx: ExprContext, depth: int) -> plan.Expr | None:
    """`address('Broadway', 'NY')`: a value of a ROW type the program defines (CREATE
    TYPE), each argument cast to its field's type; silent where the definition failed."""
    assert ctx.functions is not None
    _, row_type = ctx.functions.user_type(call.name.value)
    bound = [bind_expr(arg, ctx, depth + 1) for arg in call.args]
    args = tuple(arg for arg in bound if arg is not None)
    if row_type is None or len(args) < len(bound):
        return None
    shown = call.name.value.upper()
    if not types.is_row(row_type):
        message = f"{shown} is the program's name for {row_type}, not a ROW type with fields"
        ctx.report(Code.UNKNOWN_FUNCTION, message, call.name.span)
        return None
    if len(args) != len(row_type.fields):
        count = len(row_type.fields)
        message = f"{shown} expects {count} argument{'s' * (count != 1)}, one a field"
        ctx.report(Code.UNKNOWN_FUNCTION, f"{message}, got {len(args)}", call.span)
        return None
    values = []
    for arg, field in zip(args, row_type.fields, strict=True):
        if not types.can_cast(arg.type, field.type) or (arg.nullable and not field.nullable):
            wanted = f"{field.type}{'' if field.nullable else ' NOT NULL'}"
            message = f"{shown}'s field {field.name} is {wanted}; found {arg.type}"
            ctx.report(Code.TYPE_MISMATCH, message + (" that can be NULL" * arg.nullable), arg.span)
            return None
        values.append(
            arg if arg.type == field.type else plan.Cast(arg, field.type, arg.nullable, arg.span)
        )
    return plan.Call("row", tuple(values), row_type, False, call.span)


def _user_call(call: ast.FunctionCall, ctx: ExprContext, depth: int) -> plan.Expr | None:
    """A call of a function the program defines (CREATE FUNCTION); silent when its
    definition failed."""
    # Imported here: user_functions binds a function's body with bind_expr.
    from backend.compiler.semantic.user_functions import expand

    assert ctx.functions is not None
    _, function = ctx.functions.function(call.name.value)
    if function is None:
        _bind_args(call, ctx, depth)
        return None
    return expand(function, call, ctx, depth)


def _date_part_call(call: ast.FunctionCall, ctx: ExprContext, depth: int) -> plan.Expr | None:
    """YEAR(ts), DAYOFWEEK(d), ...: EXTRACT of one unit."""
    shown = call.name.value.upper()
    if len(call.args) != 1 or call.star or call.distinct or call.filter is not None:
        ctx.report(Code.UNKNOWN_FUNCTION, f"{shown} expects 1 argument", call.span)
        _bind_args(call, ctx, depth)
        return None
    operand = bind_expr(call.args[0], ctx, depth)
    if operand is None:
        return None
    unit = time_functions.DATE_PART_FUNCTIONS[call.name.value.lower()]
    return time_functions.date_part(unit, shown, operand, call.span, ctx.diagnostics)


def _date_part_of_unit(call: ast.FunctionCall, ctx: ExprContext, depth: int) -> plan.Expr | None:
    """DATE_PART(unit, x): EXTRACT(unit FROM x), the unit a word (Feldera's DATE_PART(HOUR,
    ts)) or a string (PostgreSQL's DATE_PART('hour', ts))."""
    word = call.args[0] if len(call.args) == 2 else None
    unit = (
        word.value.lower()
        if isinstance(word, ast.StringLiteral)
        else time_functions.unit_word(word)
    )
    if unit not in time_functions.EXTRACT_UNITS or call.star or call.distinct:
        units = ", ".join(u.upper() for u in time_functions.EXTRACT_UNITS)
        message = f"DATE_PART expects a unit and a value, the unit one of {units}"
        ctx.report(Code.INVALID_LITERAL, message, call.span)
        _bind_parts(call.args[1:], ctx, depth)
        return None
    operand = bind_expr(call.args[1], ctx, depth)
    if operand is None:
        return None
    shown = f"DATE_PART {unit.upper()}"
    return time_functions.date_part(unit, shown, operand, call.span, ctx.diagnostics)


def _timestamp_arithmetic_call(
    call: ast.FunctionCall, ctx: ExprContext, depth: int
) -> plan.Expr | None:
    """TIMESTAMPADD(unit, n, t) and TIMESTAMPDIFF(unit, t1, t2): the unit is a bare word."""
    name = call.name.value.lower()
    if len(call.args) != 3 or call.star or call.distinct or call.filter is not None:
        ctx.report(
            Code.UNKNOWN_FUNCTION, f"{name.upper()} expects 3 arguments (unit, ...)", call.span
        )
        _bind_parts(call.args[1:], ctx, depth)  # the first is a unit, not a column
        return None
    word = call.args[0]
    unit = time_functions.unit_word(word)
    if unit not in time_functions.ARITHMETIC_UNITS:
        units = ", ".join(u.upper() for u in time_functions.ARITHMETIC_UNITS)
        ctx.report(
            Code.INVALID_LITERAL,
            f"{name.upper()} expects a time unit first: one of {units}",
            word.span,
        )
        _bind_parts(call.args[1:], ctx, depth)
        return None
    first, second = (bind_expr(arg, ctx, depth) for arg in call.args[1:])
    if first is None or second is None:
        return None
    return time_functions.timestamp_arithmetic(
        name, unit, (first, second), call.span, ctx.diagnostics
    )


def _date_shift(call: ast.FunctionCall, ctx: ExprContext, depth: int) -> plan.Expr | None:
    """DATE_ADD(t, interval) / DATE_SUB(t, interval): t + interval / t - interval; an
    integer for the interval is that many days."""
    shown = call.name.value.upper()
    if len(call.args) != 2 or call.star or call.distinct or call.filter is not None:
        ctx.report(Code.UNKNOWN_FUNCTION, f"{shown} expects 2 arguments (t, interval)", call.span)
        _bind_args(call, ctx, depth)
        return None
    moment, amount = call.args
    by = bind_expr(amount, ctx, depth)
    if by is None:
        return None
    if types.is_integer(by.type):
        amount = ast.IntervalOf(amount, "day", amount.span)
    op = time_functions.DATE_SHIFTS[call.name.value.lower()]
    return bind_expr(ast.BinaryOp(op, moment, amount, call.name.span, call.span), ctx, depth)


def _bind_args(call: ast.FunctionCall, ctx: ExprContext, depth: int) -> None:
    _bind_parts((*call.args, call.filter), ctx, depth)


def _grouping_call(call: ast.FunctionCall, ctx: ExprContext, depth: int) -> plan.Expr | None:
    """GROUPING(k, ...): its keys are checked, and its value made, as a grouped SELECT
    is lifted over its aggregate (semantic/grouping.py); so is GROUP_ID()'s."""
    shown = call.name.value.upper()
    if ctx.aggregates is None:
        message = f"{shown}(...) is allowed only in the SELECT list or HAVING of a grouped query"
        ctx.report(Code.AGGREGATE_MISUSE, message, call.span)
        return None
    if call.name.value == "group_id":  # Calcite's: which repeat of its grouping set a row's is
        if call.star or call.distinct or call.args or call.filter is not None:
            ctx.report(Code.UNKNOWN_FUNCTION, "GROUP_ID takes no arguments", call.span)
            return None
        return plan.Call("group_id", (), types.BIGINT, False, call.span)
    if call.star or call.distinct or not call.args or call.filter is not None:
        ctx.report(Code.UNKNOWN_FUNCTION, f"{shown} expects GROUP BY keys", call.span)
        return None
    bound = [bind_expr(arg, ctx, depth) for arg in call.args]
    present = tuple(arg for arg in bound if arg is not None)
    if len(present) < len(bound):
        return None
    return plan.Call("grouping", present, types.BIGINT, False, call.span)


def _aggregate_order(
    call: ast.FunctionCall, agg: plan.AggCall, inner: ExprContext, depth: int
) -> tuple[plan.SortKey, ...] | None:
    """STRING_AGG's ORDER BY, bound; None after an error. With DISTINCT, each key must be
    the value (as in PostgreSQL: a value's rows could differ in another key)."""
    keys = []
    for item in call.order_by:
        expr = bind_expr(item.expr, inner, depth)
        if expr is None:
            return None
        if call.distinct and aggregates.shape(expr) != aggregates.shape(agg.args[0]):
            message = (
                f"With DISTINCT, {call.name.value.upper()}(...) can be ordered only by its value"
            )
            inner.report(Code.AGGREGATE_MISUSE, message, item.span)
            return None
        keys.append(sort_key(expr, item))
    return tuple(keys)


def sort_key(expr: plan.Expr, item: ast.OrderItem) -> plan.SortKey:
    """`expr` ordered as `item` says; unsaid, NULLs sort as if smaller than any value
    (first ascending, last descending), as in Feldera, Flink and Spark."""
    nulls_first = not item.descending if item.nulls is None else item.nulls == "first"
    return plan.SortKey(expr, item.descending, nulls_first)


def _aggregate_call(call: ast.FunctionCall, ctx: ExprContext, depth: int) -> plan.Expr | None:
    shown = call.name.value.upper()
    if ctx.aggregates is None:
        message = (
            "Aggregate functions cannot be nested"
            if ctx.aggregate_clause == "an aggregate"
            else f"Aggregate functions are not allowed in {ctx.aggregate_clause}"
        )
        ctx.report(Code.AGGREGATE_MISUSE, f"{message}: {shown}", call.span)
        return None
    inner = replace(
        ctx, aggregates=None, windows=None, aggregate_clause="an aggregate", group_by=False
    )
    bound = [bind_expr(arg, inner, depth) for arg in call.args]
    ctx.too_deep_reported = inner.too_deep_reported
    present = tuple(arg for arg in bound if arg is not None)
    if len(present) < len(bound):
        return None
    if aggregates.canonical_name(call.name.value) in aggregates.PERCENTILES:
        agg, problem = _percentile(call, present, inner, depth)
    else:
        agg, problem = aggregates.agg_call(call, present)
    if agg is None:
        if problem is not None:  # (else reported)
            code = Code.UNKNOWN_FUNCTION if call.star else Code.TYPE_MISMATCH
            ctx.report(code, problem, call.span)
        return None
    if call.order_by and agg.function in (aggregates.STRING_AGGREGATE, aggregates.ARRAY_AGGREGATE):
        # The other aggregates' values do not depend on their rows' order: theirs is left out.
        order = _aggregate_order(call, agg, inner, depth)
        if order is None:
            return None
        agg = replace(agg, order=order)
    if call.filter is not None:
        in_filter = replace(inner, aggregate_clause="FILTER")
        condition = bind_expr(call.filter, in_filter, depth)
        ctx.too_deep_reported = in_filter.too_deep_reported
        if condition is None or not _check_boolean(condition, "FILTER (WHERE ...)", ctx):
            return None
        agg = aggregates.filtered(agg, condition)
    # The same aggregate twice (in the select list and HAVING) is computed once.
    same = aggregates.agg_shape(agg)
    for position, existing in enumerate(ctx.aggregates):
        if aggregates.agg_shape(existing) == same:
            return plan.AggregateRef(position, agg.type, agg.nullable, call.span)
    ctx.aggregates.append(agg)
    return plan.AggregateRef(len(ctx.aggregates) - 1, agg.type, agg.nullable, call.span)


def _percentile(
    call: ast.FunctionCall, args: tuple[plan.Expr, ...], inner: ExprContext, depth: int
) -> tuple[plan.AggCall | None, str | None]:
    """PERCENTILE_CONT / _DISC (p) WITHIN GROUP (ORDER BY x): x is bound as an argument."""
    key = None
    if len(call.order_by) == 1:
        item = call.order_by[0]
        x = bind_expr(item.expr, inner, depth)
        if x is None:
            return None, None
        key = plan.SortKey(x, item.descending, False)
    return aggregates.percentile(call, args, key)


def _case(expr: ast.Case, ctx: ExprContext, depth: int) -> plan.Expr | None:
    """Searched and simple CASE; a simple CASE becomes `eq(operand, value)` conditions."""
    operand = None if expr.operand is None else bind_expr(expr.operand, ctx, depth)
    conditions = [bind_expr(when.condition, ctx, depth) for when in expr.whens]
    results = [bind_expr(when.result, ctx, depth) for when in expr.whens]
    else_ = None if expr.else_ is None else bind_expr(expr.else_, ctx, depth)
    if (
        (expr.operand is not None and operand is None)
        or (expr.else_ is not None and else_ is None)
        or None in conditions
        or None in results
    ):
        return None
    whens: list[tuple[plan.Expr, plan.Expr]] = []
    for condition, result in zip(conditions, results, strict=True):
        assert condition is not None and result is not None
        if operand is not None:
            # Compared as `operand = value` is: a literal takes the operand's type.
            compared, value = _coerced_literals(operand, condition, ctx)
            if value is None or compared is None:
                return None
            if not _check_comparable(compared, value, "WHEN value", ctx):
                return None
            nullable = compared.nullable or value.nullable
            condition = plan.Call("eq", (compared, value), types.BOOLEAN, nullable, value.span)
        elif not _check_boolean(condition, "WHEN", ctx):
            return None
        whens.append((condition, result))
    branches = [result for _, result in whens] + ([else_] if else_ is not None else [])
    result_type: types.SqlType = types.NULL
    for branch in branches:
        common = types.common_type(result_type, branch.type)
        if common is None:
            ctx.report(
                Code.TYPE_MISMATCH,
                f"CASE branches have no common type: {result_type} and {branch.type}",
                branch.span,
            )
            return None
        result_type = common
    nullable = else_ is None or any(branch.nullable for branch in branches)
    return plan.Case(tuple(whens), else_, result_type, nullable, expr.span)
