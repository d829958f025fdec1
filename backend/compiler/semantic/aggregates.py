"""Aggregate calls and their result types.

COUNT, SUM, AVG, MIN, MAX; the statistics STDDEV_SAMP, STDDEV_POP, VAR_SAMP and
VAR_POP (STDDEV and VARIANCE are the _SAMP ones); BOOL_AND and BOOL_OR (EVERY and
SOME are their other names); ARG_MAX and ARG_MIN; BIT_AND, BIT_OR and BIT_XOR;
STRING_AGG (LISTAGG); ARRAY_AGG; ANY_VALUE; PERCENTILE_CONT and PERCENTILE_DISC.

Result types: COUNT is BIGINT NOT NULL; SUM of an integer is BIGINT, of a
DECIMAL(p,s) DECIMAL(38,s) (as in Spark), of a float DOUBLE, of an interval the
interval; AVG keeps its argument's type (so AVG of INTEGER is an INTEGER,
truncated, as INTEGER / INTEGER is: Calcite's and Feldera's rule); MIN and MAX
keep their argument's type; the statistics are DOUBLE (a _SAMP one is NULL over
fewer than two values); BOOL_AND and BOOL_OR take and give a BOOLEAN; the BIT_
ones take and give an integer type; STRING_AGG gives a VARCHAR, ARRAY_AGG(x) an
`x ARRAY`. Every
aggregate except COUNT is nullable (NULL over no rows, or over only NULLs).

`agg(x) FILTER (WHERE c)` is compiled as `agg(CASE WHEN c THEN x END)` (`filtered`).
"""

from __future__ import annotations

import functools
from dataclasses import replace

from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import types
from backend.compiler.semantic.types import SqlType
from backend.compiler.syntax import ast

STATISTICS = ("stddev_samp", "stddev_pop", "var_samp", "var_pop")
BOOLEAN_AGGREGATES = ("bool_and", "bool_or")
# ARG_MAX(value, compared) / ARG_MIN(...): `value` of the row with the largest / smallest
# `compared`, which may be NULL; a row with a NULL `compared` counts only where no row
# has one that is not NULL; of rows equal in `compared` (or all NULL), the largest /
# smallest value (NULL the smallest), so the answer does not depend on the rows' order.
# As Feldera's runtime tests expect. With FILTER, a third argument: the condition.
ARG_EXTREMES = ("arg_max", "arg_min")
BIT_AGGREGATES = ("bit_and", "bit_or", "bit_xor")
# STRING_AGG(s [, separator]) / LISTAGG: the values that are not NULL, joined by the
# separator (a string literal, ',' when absent) in the order of their text, so the
# answer does not depend on the rows' order (SQL leaves that order open).
STRING_AGGREGATE = "string_agg"
# PERCENTILE_CONT(p) / PERCENTILE_DISC(p) WITHIN GROUP (ORDER BY x [DESC]): the value at
# fraction p of the group's values of x in that order (NULLs left out). CONT's is
# interpolated between the two nearest values (DOUBLE); DISC's is the first value whose
# cumulative share of the values reaches p (of x's type). In the plan: (x, p, descending).
PERCENTILES = ("percentile_cont", "percentile_disc")
# Statistics of the pairs (y, x) where neither is NULL: COVAR_POP / COVAR_SAMP (their
# covariance), REGR_COUNT (how many; BIGINT), REGR_SXX / REGR_SYY (the sum of the
# squared deviations of x / of y: REGR_COUNT times VAR_POP). NULL when there are no
# pairs (COVAR_SAMP: fewer than two). Of y's type, as in Calcite and Feldera (an
# integer or DECIMAL cut toward zero, as the statistics are).
PAIR_STATISTICS = ("covar_pop", "covar_samp", "regr_count", "regr_sxx", "regr_syy")
# MODE(x): the most frequent value that is not NULL (NULL when there is none); of
# values equally frequent, the smallest, so the answer does not depend on the rows'
# order (Feldera leaves it open). No DISTINCT, as in Feldera.
MODE = "mode"
# ARRAY_AGG([DISTINCT] x [IGNORE NULLS] [ORDER BY ...]): the group's values of x (NULLs
# too, unless IGNORE NULLS), one per row (DISTINCT: per value) in the ORDER BY's order,
# then in the order of the aggregate's input rows as Feldera gives them: sorted by the
# values the group's aggregates read (NULL first). NULL when no row is left. In the plan:
# (x, keep_nulls[, FILTER's condition]); of type `x ARRAY`.
ARRAY_AGGREGATE = "array_agg"
# Aggregates not computed over a window (OVER) yet.
NOT_OVER_WINDOWS = (
    *BIT_AGGREGATES,
    STRING_AGGREGATE,
    "listagg",
    *PERCENTILES,
    ARRAY_AGGREGATE,
)
# COUNTIF(condition): the rows where it is TRUE, as COUNT(CASE WHEN condition THEN 1
# END) (BigQuery's and Feldera's).
COUNT_IF = "countif"
# Other spellings of an aggregate: the plan uses the name on the right.
SPELLINGS = {
    "stddev": "stddev_samp",
    "variance": "var_samp",
    "every": "bool_and",
    "some": "bool_or",
    "logical_and": "bool_and",  # BigQuery's and Feldera's
    "logical_or": "bool_or",
    "listagg": STRING_AGGREGATE,
    # ANY_VALUE(x): some value of x in the group (SQL:2023). Weir gives the smallest, so
    # the answer does not depend on the order rows arrived in.
    "any_value": "min",
}
COMPILED = (
    "count",
    "sum",
    "avg",
    "min",
    "max",
    *STATISTICS,
    *BOOLEAN_AGGREGATES,
    *ARG_EXTREMES,
    *BIT_AGGREGATES,
    STRING_AGGREGATE,
    ARRAY_AGGREGATE,
    *PERCENTILES,
    *PAIR_STATISTICS,
    MODE,
    COUNT_IF,
    *SPELLINGS,
)
# DISTINCT changes nothing for these (and is dropped); the statistics do not take it yet.
DISTINCT_IRRELEVANT = ("min", "max", *BOOLEAN_AGGREGATES, *ARG_EXTREMES, "bit_and", "bit_or")


def canonical_name(name: str) -> str:
    """The plan's name of the aggregate SQL calls `name` (STDDEV is stddev_samp).

    >>> canonical_name("EVERY"), canonical_name("Sum")
    ('bool_and', 'sum')
    """
    return SPELLINGS.get(name.lower(), name.lower())


def aggregate_type(name: str, arg: SqlType | None) -> SqlType | None:
    """The result type of `name(arg)` (arg None for COUNT(*)), None if not allowed.

    AVG and the statistics have their argument's type, as in Calcite: an integer's
    standard deviation is an integer (cut toward zero, as Feldera does).

    >>> str(aggregate_type("sum", types.INTEGER)), str(aggregate_type("avg", types.INTEGER))
    ('BIGINT', 'INTEGER')
    >>> str(aggregate_type("stddev_samp", types.decimal(6, 2)))
    'DECIMAL(6,2)'
    """
    if name == "count" or arg is None:
        return types.BIGINT
    if name in BOOLEAN_AGGREGATES:
        return arg if arg.kind is types.TypeKind.BOOLEAN else None
    if name in BIT_AGGREGATES:  # of integers, or of bytes byte by byte (Feldera's)
        return arg if types.is_integer(arg) or types.is_binary(arg) else None
    if name in ("min", "max"):
        return None if types.is_null(arg) else arg
    if types.is_null(arg):
        return None
    if name == "sum":
        if types.is_integer(arg):
            return types.BIGINT
        if arg.kind is types.TypeKind.DECIMAL:
            return types.decimal(types.MAX_DECIMAL_PRECISION, arg.scale)
        if types.is_numeric(arg):
            return types.DOUBLE
        return arg if types.is_interval(arg) else None
    if name in ("avg", *STATISTICS) and types.is_numeric(arg):
        return arg
    if name == COUNT_IF:
        return types.BIGINT if arg.kind is types.TypeKind.BOOLEAN else None
    if name == MODE:
        return None if types.is_row(arg) else arg
    return None


def agg_call(
    call: ast.FunctionCall, args: tuple[plan.Expr, ...]
) -> tuple[plan.AggCall | None, str | None]:
    """The typed aggregate, or an error message (about the call's argument)."""
    shown = call.name.value.upper()
    name = canonical_name(shown)
    if call.star:
        if name != "count":
            return None, f"{shown}(*) is not allowed: only COUNT(*)"
        return plan.AggCall("count_star", (), False, types.BIGINT, False, call.span), None
    if name in ARG_EXTREMES:
        if len(args) != 2:
            return None, f"{shown} expects 2 arguments (value, compared), got {len(args)}"
        if types.is_null(args[0].type) or types.is_null(args[1].type):
            return None, f"Cannot apply {shown} to NULL"
        return plan.AggCall(name, args, False, args[0].type, True, call.span), None
    if name == STRING_AGGREGATE:
        return _string_agg(call, args)
    if name == ARRAY_AGGREGATE:
        return _array_agg(call, args)
    if name in PAIR_STATISTICS:
        return _pair_statistic(call, args)
    if name in (MODE, COUNT_IF) and call.distinct:
        return None, f"{shown} takes no DISTINCT"
    if name == "count" and len(args) > 1:
        return _count_of_all(call, args)
    if len(args) != 1:
        return None, f"{shown} expects 1 argument, got {len(args)}"
    result = aggregate_type(name, args[0].type)
    if result is None:
        return None, f"Cannot apply {shown} to {args[0].type}"
    if name == COUNT_IF:
        one = plan.Literal(1, types.INTEGER, False, call.span)
        counted = plan.Case(((args[0], one),), None, types.INTEGER, True, call.span)
        return plan.AggCall("count", (counted,), False, result, False, call.span), None
    nullable = name != "count"
    distinct = call.distinct and name not in DISTINCT_IRRELEVANT
    return plan.AggCall(name, args, distinct, result, nullable, call.span), None


def _count_of_all(
    call: ast.FunctionCall, args: tuple[plan.Expr, ...]
) -> tuple[plan.AggCall | None, str | None]:
    """COUNT(a, b, ...): the rows where none of them is NULL (Calcite's and Feldera's), as
    COUNT(CASE WHEN a IS NOT NULL AND b IS NOT NULL ... THEN 1 END); with DISTINCT, the
    distinct tuples of them where none is NULL."""
    if call.distinct:
        return plan.AggCall("count", args, True, types.BIGINT, False, call.span), None
    present = [plan.Call("is_not_null", (a,), types.BOOLEAN, False, a.span) for a in args]
    condition = functools.reduce(
        lambda x, y: plan.Call("and", (x, y), types.BOOLEAN, False, call.span), present
    )
    one = plan.Literal(1, types.INTEGER, False, call.span)
    counted = plan.Case(((condition, one),), None, types.INTEGER, True, call.span)
    return plan.AggCall("count", (counted,), False, types.BIGINT, False, call.span), None


def _pair_statistic(
    call: ast.FunctionCall, args: tuple[plan.Expr, ...]
) -> tuple[plan.AggCall | None, str | None]:
    """COVAR_POP, COVAR_SAMP, REGR_COUNT, REGR_SXX or REGR_SYY of (y, x), or an error."""
    shown = call.name.value.upper()
    name = canonical_name(shown)
    if len(args) != 2:
        return None, f"{shown} expects 2 arguments (y, x), got {len(args)}"
    if call.distinct:
        return None, f"{shown} takes no DISTINCT"
    for arg in args:
        if not types.is_numeric(arg.type):
            return None, f"Cannot apply {shown} to {arg.type}: it takes numbers"
    if name == "regr_count":
        return plan.AggCall(name, args, False, types.BIGINT, False, call.span), None
    return plan.AggCall(name, args, False, args[0].type, True, call.span), None


def _string_agg(
    call: ast.FunctionCall, args: tuple[plan.Expr, ...]
) -> tuple[plan.AggCall | None, str | None]:
    """STRING_AGG(s [, separator]): the separator is the call's second argument, a
    string literal (',' when not written)."""
    shown = call.name.value.upper()
    if len(args) not in (1, 2):
        return None, f"{shown} expects 1 or 2 arguments (value, separator), got {len(args)}"
    value = args[0]
    if not (types.is_string(value.type) or types.is_null(value.type)):
        return None, f"Cannot apply {shown} to {value.type}: it joins strings"
    if len(args) == 2:
        separator = args[1]
        if not (isinstance(separator, plan.Literal) and isinstance(separator.value, str)):
            return None, f"{shown}'s separator must be a string literal"
    else:
        separator = plan.Literal(",", types.VARCHAR, False, call.span)
    return plan.AggCall(
        STRING_AGGREGATE, (value, separator), call.distinct, types.VARCHAR, True, call.span
    ), None


def _array_agg(
    call: ast.FunctionCall, args: tuple[plan.Expr, ...]
) -> tuple[plan.AggCall | None, str | None]:
    """ARRAY_AGG(x): (x, keep_nulls), of type `x ARRAY`."""
    shown = call.name.value.upper()
    if len(args) != 1:
        return None, f"{shown} expects 1 argument, got {len(args)}"
    value = args[0]
    if types.is_null(value.type):
        return None, f"Cannot apply {shown} to NULL"
    keep_nulls = plan.Literal(not call.ignore_nulls, types.BOOLEAN, False, call.span)
    result = types.array_of(value.type)
    return plan.AggCall(
        ARRAY_AGGREGATE, (value, keep_nulls), call.distinct, result, True, call.span
    ), None


def percentile(
    call: ast.FunctionCall, args: tuple[plan.Expr, ...], key: plan.SortKey | None
) -> tuple[plan.AggCall | None, str | None]:
    """PERCENTILE_CONT / PERCENTILE_DISC (p) WITHIN GROUP (ORDER BY `key`): the plan's
    call (x, p, descending), or an error message."""
    shown = call.name.value.upper()
    name = canonical_name(shown)
    usage = f"{shown}(fraction) WITHIN GROUP (ORDER BY value)"
    if key is None or len(args) != 1:
        return None, f"{shown} expects one fraction and one ORDER BY value: {usage}"
    if call.distinct:
        return None, f"{shown} takes no DISTINCT: {usage}"
    fraction = args[0]
    value = fraction.value if isinstance(fraction, plan.Literal) else None
    if not types.is_numeric(fraction.type) or value is None or not 0 <= float(value) <= 1:
        return None, f"{shown}'s fraction must be a number literal from 0 to 1: {usage}"
    x = key.expr
    if name == "percentile_cont" and not types.is_numeric(x.type):
        return None, f"Cannot apply {shown} to {x.type}: it interpolates numbers"
    if types.is_null(x.type) or types.is_row(x.type):
        return None, f"Cannot apply {shown} to {x.type}"
    result = types.DOUBLE if name == "percentile_cont" else x.type
    descending = plan.Literal(key.descending, types.BOOLEAN, False, call.span)
    return plan.AggCall(name, (x, fraction, descending), False, result, True, call.span), None


def filtered(agg: plan.AggCall, condition: plan.Expr) -> plan.AggCall:
    """`agg FILTER (WHERE condition)`: the aggregate of `CASE WHEN condition THEN arg
    END`. Every aggregate skips NULLs, so the rows where the condition is not TRUE
    count for nothing; COUNT(*) counts a constant instead. ARG_MAX and ARG_MIN count a
    NULL `compared` too: they take the condition as a third argument.

    >>> from backend.compiler.source import Span
    >>> x = plan.ColumnRef(0, "x", types.BOOLEAN, False, Span(0, 1))
    >>> star = plan.AggCall("count_star", (), False, types.BIGINT, False, Span(0, 8))
    >>> counted = filtered(star, x)
    >>> counted.function, counted.args[0].whens[0][1].value
    ('count', 1)
    """
    if agg.function == "count_star":
        one = plan.Literal(1, types.INTEGER, False, agg.span)
        agg = replace(agg, function="count", args=(one,))
    if agg.function in (*ARG_EXTREMES, ARRAY_AGGREGATE):  # (ARRAY_AGG keeps NULL values)
        return replace(agg, args=(*agg.args, condition))
    # The argument whose NULL leaves a row out: the value (STRING_AGG's first, before
    # its separator).
    arg = agg.args[0]
    case = plan.Case(((condition, arg),), None, arg.type, True, condition.span)
    return replace(agg, args=(case, *agg.args[1:]))


def agg_shape(agg: plan.AggCall) -> object:
    order = tuple((shape(k.expr), k.descending, k.nulls_first) for k in agg.order)
    return (agg.function, agg.distinct, tuple(shape(arg) for arg in agg.args), order)


def shape(expr: plan.Expr) -> object:
    """`expr` without its spans (and column names), to compare expressions.

    >>> from dataclasses import replace
    >>> from backend.compiler.source import Span
    >>> a = plan.ColumnRef(0, "x", types.INTEGER, False, Span(0, 1))
    >>> shape(a) == shape(replace(a, span=Span(5, 6)))
    True
    """
    match expr:
        case plan.ColumnRef():
            return ("column", expr.index)
        case plan.Literal():
            return ("literal", expr.value, expr.type)
        case plan.Call():
            return ("call", expr.function, tuple(shape(arg) for arg in expr.args))
        case plan.Cast():
            return ("cast", shape(expr.operand), expr.type)
        case plan.Case():
            whens = tuple((shape(c), shape(r)) for c, r in expr.whens)
            return ("case", whens, None if expr.else_ is None else shape(expr.else_))
        case plan.AggregateRef():
            return ("aggregate", expr.position)
        case plan.Lambda():  # over its own parameter
            return ("lambda", shape(expr.body))
