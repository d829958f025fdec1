"""The typed logical plan: relational operators over typed expressions.

The binder builds it from the syntax tree; `lower/spec.py` serialises it into the
Plan JSON of docs/contracts.md. A column reference is an index into the columns
of the operator's input, so the plan never needs names to be resolved again.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from backend.compiler.semantic.catalog import Relation
from backend.compiler.semantic.types import SqlType
from backend.compiler.source import Span

# A literal's value as JSON: DECIMAL, DATE, TIME and TIMESTAMP values are strings,
# intervals are integers (microseconds, or months for YEAR TO MONTH).
LiteralValue = int | float | str | bool | None


@dataclass(frozen=True, slots=True)
class Field:
    """One output column of an operator."""

    name: str
    type: SqlType
    nullable: bool


# ---------------------------------------------------------------- expressions


@dataclass(frozen=True, slots=True)
class ColumnRef:
    index: int
    name: str
    type: SqlType
    nullable: bool
    span: Span


@dataclass(frozen=True, slots=True)
class Literal:
    value: LiteralValue
    type: SqlType
    nullable: bool
    span: Span


@dataclass(frozen=True, slots=True)
class Call:
    """A function of the contract's list: `and`, `eq`, `add`, `upper`, ..."""

    function: str
    args: tuple[Expr, ...]
    type: SqlType
    nullable: bool
    span: Span


@dataclass(frozen=True, slots=True)
class Cast:
    operand: Expr
    type: SqlType
    nullable: bool
    span: Span


@dataclass(frozen=True, slots=True)
class Case:
    """`CASE WHEN c THEN r ... ELSE e END` (a simple CASE is lowered to `eq` conditions)."""

    whens: tuple[tuple[Expr, Expr], ...]
    else_: Expr | None
    type: SqlType
    nullable: bool
    span: Span


@dataclass(frozen=True, slots=True)
class AggregateRef:
    """While binding a grouped SELECT only: the `position`-th aggregate call."""

    position: int
    type: SqlType
    nullable: bool
    span: Span


@dataclass(frozen=True, slots=True)
class Lambda:
    """`x -> body`, an argument of `transform` or `array_exists`: `body` is over one
    column, index 0, the parameter (an element of the array), and nothing else."""

    param: str
    body: Expr
    type: SqlType  # the body's
    nullable: bool
    span: Span


Expr = ColumnRef | Literal | Call | Cast | Case | AggregateRef | Lambda


@dataclass(frozen=True, slots=True)
class AggCall:
    function: str  # count | count_star | sum | avg | min | max | a statistic | bool_and | bool_or
    args: tuple[Expr, ...]
    distinct: bool
    type: SqlType
    nullable: bool
    span: Span
    # The order of the values STRING_AGG joins, before their text (none: by their text).
    order: tuple[SortKey, ...] = ()


# ---------------------------------------------------------------- relations


@dataclass(frozen=True, slots=True)
class Scan:
    relation: str
    columns: tuple[Field, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Filter:
    input: Rel
    condition: Expr
    columns: tuple[Field, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Project:
    input: Rel
    exprs: tuple[Expr, ...]
    columns: tuple[Field, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Join:
    kind: str  # inner | left | right | full (CROSS JOIN: inner without condition)
    left: Rel
    right: Rel
    condition: Expr | None
    columns: tuple[Field, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Aggregate:
    """Output: one column per key, then one per aggregate; no keys: one row."""

    input: Rel
    keys: tuple[Expr, ...]
    aggregates: tuple[AggCall, ...]
    columns: tuple[Field, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Union:
    """UNION ALL of inputs with the same column types."""

    inputs: tuple[Rel, ...]
    columns: tuple[Field, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Recursive:
    """WITH RECURSIVE name AS (anchor UNION [ALL] step): the rows of `anchor`, then
    `step` again and again, each time over the rows the time before added (its
    RecursiveRef), until it adds none. Under UNION (not `all`) each row once: a round
    adds only rows not there yet."""

    name: str
    anchor: Rel
    step: Rel
    all: bool
    columns: tuple[Field, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class RecursiveRef:
    """A Recursive's `step` reading it: the rows its last round added."""

    name: str
    columns: tuple[Field, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Distinct:
    input: Rel
    columns: tuple[Field, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class SetDifference:
    """INTERSECT or EXCEPT, as multisets: a row's count in the output is
    min(l, r) (INTERSECT ALL), max(l - r, 0) (EXCEPT ALL), or 1 or 0 from the
    same rule on presence (without ALL), where l and r are its counts on each side."""

    op: str  # "intersect" or "except"
    all: bool
    left: Rel
    right: Rel
    columns: tuple[Field, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class SortKey:
    expr: Expr  # over the input's columns
    descending: bool
    nulls_first: bool  # written, or by default NULLs as the smallest values (expressions.sort_key)


@dataclass(frozen=True, slots=True)
class Sort:
    """ORDER BY with LIMIT / OFFSET: the rows at positions offset+1 .. offset+limit in
    key order (ties broken by the whole row, so the answer is deterministic).
    Without a limit or offset the relation is unchanged; the keys then only order
    the rows of each step's output."""

    input: Rel
    keys: tuple[SortKey, ...]
    limit: int | None
    offset: int
    columns: tuple[Field, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class WindowCall:
    """One `f(...) OVER (...)`: a ranking function or an aggregate over a frame.

    Frame offsets count rows (ROWS) or order-key units (RANGE: microseconds for a
    time key), negative before the current row: start None is UNBOUNDED PRECEDING,
    end None is UNBOUNDED FOLLOWING, 0 is CURRENT ROW."""

    function: str  # row_number rank dense_rank, or an aggregate's (AggCall.function)
    args: tuple[Expr, ...]
    partition: tuple[Expr, ...]
    order: tuple[SortKey, ...]
    unit: str  # "rows" or "range"
    start: int | float | None
    end: int | float | None
    type: SqlType
    nullable: bool
    span: Span
    ignore_nulls: bool = False  # LAG, LEAD, FIRST_VALUE, LAST_VALUE: NULL values skipped


@dataclass(frozen=True, slots=True)
class Window:
    """The input's rows, each with the values of `calls` (one column each, after the
    input's columns): window functions of a SELECT list."""

    input: Rel
    calls: tuple[WindowCall, ...]
    columns: tuple[Field, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class SemiJoin:
    """The left rows with a right row meeting `condition` (`semi`), without one
    (`anti`), or passing SQL's NOT IN (`not_in`: `condition` is `eq(value, right
    column)`). `condition` is over the left's columns then the right's; None is TRUE."""

    kind: str  # "semi" | "anti" | "not_in"
    left: Rel
    right: Rel
    condition: Expr | None
    columns: tuple[Field, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Values:
    rows: tuple[tuple[Expr, ...], ...]
    columns: tuple[Field, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Hop:
    """Each input row once per hopping window containing column `time`."""

    input: Rel
    time: int
    size: int  # microseconds
    slide: int  # microseconds
    offset: int  # microseconds: windows start at offset + k * slide
    columns: tuple[Field, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Unnest:
    """`x, UNNEST(x.a) [WITH ORDINALITY] AS u(e[, i])`: each input row once per element of
    its array `array` (none for a NULL or empty one), the element (and its place, from 1)
    after the row's columns."""

    input: Rel
    array: Expr  # over the input's columns
    ordinality: bool
    columns: tuple[Field, ...]
    span: Span
    outer: bool = False  # LEFT JOIN UNNEST ... ON TRUE: one row of NULLs for no element


@dataclass(frozen=True, slots=True)
class Snapshot:
    """SNAPSHOT(t) / t FOR SYSTEM_TIME AS OF ...: the input read as a table.

    `at` None: the input as of each step (a point in time). Joined with a relation
    that is not such a snapshot, it is a LookupJoin. With `at` (a constant), time
    travel: `input` already keeps only the rows whose column `time` is <= at, or,
    when `key` (a primary key) is given, `input` is the table and each key's latest
    version by `time` that is <= at is kept (see LookupJoin, TemporalJoin)."""

    input: Rel
    at: Expr | None
    time: int | None  # the time column that versions the table (time travel)
    key: tuple[int, ...]  # its primary key columns; () for a table without one
    columns: tuple[Field, ...]
    span: Span  # the SNAPSHOT call (or the FOR SYSTEM_TIME AS OF reference)


@dataclass(frozen=True, slots=True)
class LookupJoin:
    """A join with a point-in-time snapshot (`table` names that side): each row of
    the other, insert-only side joins the table's contents after the step in which
    the row arrives; later changes of the table alone change nothing."""

    kind: str  # inner | left | right (the kept side is the other, insert-only side)
    table: str  # "left" | "right"
    left: Rel
    right: Rel
    condition: Expr | None
    columns: tuple[Field, ...]
    span: Span  # the SNAPSHOT or SEARCH_KEY call


@dataclass(frozen=True, slots=True)
class TemporalJoin:
    """LATERAL SNAPSHOT(t, x.ts) for a table t with a primary key: each left row
    joins, per key of t, the version valid at `time` (the latest version whose
    column `version` is <= time; none if it is a delete)."""

    kind: str  # inner | left
    left: Rel
    right: Rel  # a scan of t
    time: Expr  # over the left's columns
    version: int  # t's time column
    key: tuple[int, ...]  # t's primary key columns
    condition: Expr | None  # over the left's columns then the right's
    columns: tuple[Field, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class JoinWindow:
    """A join side's window (SQLstream's `s OVER (RANGE ...)`): at a base time T it holds
    the side's rows whose rowtime is in [T - preceding, T + following] (microseconds)."""

    preceding: int
    following: int


@dataclass(frozen=True, slots=True)
class WindowJoin:
    """A join of two streams through windows (SQLstream): a left row at time a and a right
    row at time b match when one, arriving, finds the other in its side's window (b in
    [a - right.preceding, a + right.following], or a in [b - left.preceding, b +
    left.following]) and `condition` holds. The output is a stream: its last column is
    the output rowtime, the earliest arrival time at which the pair was found; an outer
    join's unmatched row comes when it leaves its window (its time + its preceding)."""

    kind: str  # inner | left | right | full
    left: Rel  # a scan of a stream
    right: Rel  # a scan of a stream
    left_time: int  # the left's rowtime column
    right_time: int  # the right's rowtime column
    left_window: JoinWindow
    right_window: JoinWindow
    condition: Expr | None  # over the left's columns then the right's
    columns: tuple[Field, ...]  # the left's, the right's, then rowtime
    span: Span


@dataclass(frozen=True, slots=True)
class ToChangelog:
    """TO_CHANGELOG(t): one row (op, payload) per change of the input, insert-only.
    With `key` (the input table's primary key) a replaced row is op 1 then op 2."""

    input: Rel
    key: tuple[int, ...]
    columns: tuple[Field, ...]  # op TINYINT, payload ROW(input's columns)
    span: Span


@dataclass(frozen=True, slots=True)
class FromChangelog:
    """FROM_CHANGELOG(s): the table whose rows s's changes add (op 0, 2) and remove
    (op 1, 3): each payload row is there max(0, adds - removes) times."""

    input: Rel
    op: int  # the input's op column
    payload: int  # the input's payload column (a ROW)
    columns: tuple[Field, ...]  # payload's fields
    span: Span


Rel = (
    Scan
    | Filter
    | Project
    | Join
    | Aggregate
    | Union
    | Distinct
    | Values
    | Hop
    | Unnest
    | SetDifference
    | Sort
    | Window
    | SemiJoin
    | Snapshot
    | LookupJoin
    | TemporalJoin
    | WindowJoin
    | ToChangelog
    | FromChangelog
    | Recursive
    | RecursiveRef
)


@dataclass(frozen=True, slots=True)
class ViewPlan:
    name: str
    columns: tuple[Field, ...]
    query: Rel
    local: bool = False  # computed for other views, never published
    emit_final: int | None = None
    output_mode: str = "update"  # "append": the view never retracts a row
    relation: Relation | None = None  # its catalog entry (column annotations)
    stream: bool = False  # written as SELECT STREAM
    emit_final_span: Span | None = None  # the 'emit_final' property's value


@dataclass(frozen=True, slots=True)
class PumpPlan:
    """CREATE PUMP: `query`'s rows go into `target` (its columns, in order)."""

    name: str
    target: str
    started: bool
    query: Rel
    stream: bool  # written SELECT STREAM
    span: Span


@dataclass(frozen=True, slots=True)
class OrderCheck:
    """A streaming query's leading ORDER BY key, over the query's output: it must be
    monotonic (checked by the streaming pass; ORDER BY itself is not compiled yet)."""

    query: Rel
    key: Expr
    span: Span


@dataclass(frozen=True, slots=True)
class Plan:
    """What the runner executes: the input relations and every view, in program order."""

    inputs: tuple[Relation, ...]
    views: tuple[ViewPlan, ...]
    order_checks: tuple[OrderCheck, ...] = ()
    pumps: tuple[PumpPlan, ...] = ()


def children(rel: Rel) -> tuple[Rel, ...]:
    """The relations a plan node reads."""
    match rel:
        case Scan() | Values() | RecursiveRef():
            return ()
        case Recursive():
            return (rel.anchor, rel.step)
        case Join() | SetDifference() | SemiJoin() | LookupJoin() | TemporalJoin() | WindowJoin():
            return (rel.left, rel.right)
        case Union():
            return rel.inputs
        case _:
            return (rel.input,)


def walk(rel: Rel) -> Iterator[Rel]:
    """`rel` and every relation under it, parents first."""
    stack = [rel]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(children(node)))


def subexpressions(expr: Expr) -> Iterator[Expr]:
    """`expr` and every expression inside it, each before its parts."""
    yield expr
    match expr:
        case Call():
            for arg in expr.args:
                yield from subexpressions(arg)
        case Cast():
            yield from subexpressions(expr.operand)
        case Case():
            for condition, result in expr.whens:
                yield from subexpressions(condition)
                yield from subexpressions(result)
            if expr.else_ is not None:
                yield from subexpressions(expr.else_)


def columns_read(expr: Expr) -> Iterator[int]:
    """The positions of the input columns `expr` reads."""
    return (e.index for e in subexpressions(expr) if isinstance(e, ColumnRef))
