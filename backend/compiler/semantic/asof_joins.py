"""ASOF JOIN: each left row with its one closest right row.

    FROM trades t [LEFT] ASOF JOIN quotes q
      MATCH_CONDITION (t.ts >= q.ts) ON t.sym = q.sym

Of the right rows meeting ON and MATCH_CONDITION, a left row takes the one whose time
is closest to its own: the latest for `>=` and `>`, the earliest for `<=` and `<`
(Feldera, Snowflake, DuckDB, Spark and Calcite write it so; `ASOF LEFT JOIN` and
`LEFT ASOF JOIN` alike). Right rows of the same time are ordered by their whole value,
so the answer does not depend on the order rows arrived in (those engines take any
of them). A LEFT ASOF JOIN keeps a left row without a match, with NULLs; an ASOF JOIN
drops it. Without ON, the whole right side is searched.

It is no plan node of its own, but joins, DISTINCT and ROW_NUMBER, each exact under
inserts and deletes on either side (a deleted right row hands its left rows to the
next closest one):

1. the pairs: left JOIN right ON condition AND match;
2. each left value's best pair: ROW_NUMBER() = 1 over the DISTINCT pairs of that left
   value, ordered by the right time (closest first), then the right row;
3. every left row (each copy) joined with its value's best pair, every left column
   equal or both NULL.
"""

from __future__ import annotations

from backend.compiler.diagnostics import Code, error
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import types
from backend.compiler.semantic.correlation import all_of
from backend.compiler.semantic.environment import Environment
from backend.compiler.source import Span

# The comparison with its sides swapped, and whether the closest right time is the latest.
FLIPPED = {"ge": "le", "gt": "lt", "le": "ge", "lt": "gt"}
LATEST = frozenset({"ge", "gt"})


def asof_join(
    kind: str,
    left: plan.Rel,
    right: plan.Rel,
    condition: plan.Expr | None,
    match: plan.Expr,
    columns: tuple[plan.Field, ...],
    span: Span,
    env: Environment,
) -> plan.Rel | None:
    """The ASOF JOIN of `left` and `right` (`kind` inner or left), its columns
    `columns`; None after reporting a MATCH_CONDITION that is not `left op right`."""
    width = len(left.columns)
    right_time = _right_time(match, width)
    if right_time is None:
        message = "MATCH_CONDITION compares a left expression and a right one with >=, >, <= or <"
        env.report(error(Code.TYPE_MISMATCH, message, match.span))
        return None
    time, latest = right_time
    pairs_columns = (*left.columns, *right.columns)
    both = all_of([c for c in (condition, match) if c is not None])
    pairs = plan.Distinct(
        plan.Join("inner", left, right, both, pairs_columns, span), pairs_columns, span
    )
    best = _best_pairs(pairs, width, time, latest, span)
    same_left = all_of(
        [
            plan.Call(
                "is_not_distinct_from",
                (_column(i, left.columns[i], span), _column(width + i, left.columns[i], span)),
                types.BOOLEAN,
                False,
                span,
            )
            for i in range(width)
        ]
    )
    joined = plan.Join(kind, left, best, same_left, (*left.columns, *best.columns), span)
    # The left row, then the right columns of its best pair (after the pair's left ones).
    kept = (*range(width), *(2 * width + j for j in range(len(right.columns))))
    exprs = tuple(_column(at, field, span) for at, field in zip(kept, columns, strict=True))
    return plan.Project(joined, exprs, columns, span)


def _best_pairs(pairs: plan.Rel, width: int, time: plan.Expr, latest: bool, span: Span) -> plan.Rel:
    """Of the pairs of each left value, the one with the closest right time (then the
    least right row): left columns, right columns."""
    right_columns = range(width, len(pairs.columns))
    order = (
        plan.SortKey(time, latest, False),
        *(plan.SortKey(_column(j, pairs.columns[j], span), False, False) for j in right_columns),
    )
    partition = tuple(_column(i, pairs.columns[i], span) for i in range(width))
    number = plan.WindowCall(
        "row_number", (), partition, order, "range", None, 0, types.BIGINT, False, span
    )
    rn = plan.Field("rn", types.BIGINT, False)
    numbered = plan.Window(pairs, (number,), (*pairs.columns, rn), span)
    first = plan.Call(
        "eq",
        (
            plan.ColumnRef(len(pairs.columns), "rn", types.BIGINT, False, span),
            plan.Literal(1, types.BIGINT, False, span),
        ),
        types.BOOLEAN,
        False,
        span,
    )
    filtered = plan.Filter(numbered, first, numbered.columns, span)
    exprs = tuple(_column(i, field, span) for i, field in enumerate(pairs.columns))
    return plan.Project(filtered, exprs, pairs.columns, span)


def _right_time(match: plan.Expr, width: int) -> tuple[plan.Expr, bool] | None:
    """MATCH_CONDITION's right-side expression, and whether the closest is the latest."""
    if not isinstance(match, plan.Call) or match.function not in FLIPPED:
        return None
    first, second = match.args
    if _reads(first, width, left=True) and _reads(second, width, left=False):
        return second, match.function in LATEST
    if _reads(first, width, left=False) and _reads(second, width, left=True):
        return first, FLIPPED[match.function] in LATEST
    return None


def _reads(expr: plan.Expr, width: int, *, left: bool) -> bool:
    """Whether `expr` reads columns of one side only (the left's below `width`), some."""
    read = list(plan.columns_read(expr))
    return bool(read) and all((i < width) == left for i in read)


def _column(index: int, field: plan.Field, span: Span) -> plan.ColumnRef:
    return plan.ColumnRef(index, field.name, field.type, field.nullable, span)
