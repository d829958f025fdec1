"""The syntax tree of expressions and queries, before names and types are checked.

(Statements, which contain them, are in `statements.py`.) Nodes are frozen
dataclasses with a span; collections are tuples. The tree keeps
every construct the parser understands, including ones the binder does not
compile yet (it reports those with SQL401 at the node's span).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from backend.compiler.source import Span

# ---------------------------------------------------------------- names and types


@dataclass(frozen=True, slots=True)
class Identifier:
    value: str  # lower-cased unless quoted
    quoted: bool
    span: Span


@dataclass(frozen=True, slots=True)
class TypeName:
    """A type as written: `words` lower-cased (`('double', 'precision')`), params as ints."""

    words: tuple[str, ...]
    params: tuple[int, ...]
    span: Span
    arrays: int = 0  # `INT ARRAY ARRAY`: an array of arrays of INT
    fields: tuple[FieldDecl, ...] = ()  # `ROW(a INT, b VARCHAR NULL)`
    map_types: tuple[TypeName, ...] = ()  # `MAP<VARCHAR, INT>`: the key's and the value's


@dataclass(frozen=True, slots=True)
class FieldDecl:
    """A field of a ROW type as written: not nullable unless it says NULL (Feldera's)."""

    name: Identifier
    type: TypeName
    nullable: bool


# ---------------------------------------------------------------- expressions


@dataclass(frozen=True, slots=True)
class NumberLiteral:
    text: str
    kind: Literal["integer", "decimal", "float"]
    span: Span


@dataclass(frozen=True, slots=True)
class StringLiteral:
    value: str
    span: Span


@dataclass(frozen=True, slots=True)
class BooleanLiteral:
    value: bool
    span: Span


@dataclass(frozen=True, slots=True)
class NullLiteral:
    span: Span


@dataclass(frozen=True, slots=True)
class TypedLiteral:
    """`TIMESTAMP '...'`, `DATE '...'`, `TIME '...'`, `UUID '...'` or `x'...'` (binary:
    its hex digits, the parts of `x'AB' 'CD'` joined)."""

    type: Literal["timestamp", "date", "time", "uuid", "binary"]
    value: str
    span: Span


@dataclass(frozen=True, slots=True)
class IntervalLiteral:
    """`INTERVAL [-]'value' start_unit [TO end_unit]`; units singular, lower-case."""

    value: str
    negative: bool
    start_unit: str
    end_unit: str | None
    span: Span


@dataclass(frozen=True, slots=True)
class Parameter:
    """`?`: a dynamic parameter, which a client binds when it runs a prepared statement."""

    span: Span


@dataclass(frozen=True, slots=True)
class ColumnRef:
    parts: tuple[Identifier, ...]  # `col`, `t.col`, ...
    span: Span


@dataclass(frozen=True, slots=True)
class UnaryOp:
    op: Literal["-", "+", "not"]
    operand: Expr
    span: Span


@dataclass(frozen=True, slots=True)
class BinaryOp:
    """Arithmetic, comparison, `||`, AND and OR; `op` as written (`and`, `<>`, ...)."""

    op: str
    left: Expr
    right: Expr
    op_span: Span
    span: Span


@dataclass(frozen=True, slots=True)
class IsNull:
    operand: Expr
    negated: bool
    span: Span


@dataclass(frozen=True, slots=True)
class IsBoolean:
    """`x IS [NOT] TRUE | FALSE | UNKNOWN`."""

    operand: Expr
    value: Literal["true", "false", "unknown"]
    negated: bool
    span: Span


@dataclass(frozen=True, slots=True)
class IsDistinctFrom:
    left: Expr
    right: Expr
    negated: bool
    span: Span


@dataclass(frozen=True, slots=True)
class Between:
    operand: Expr
    low: Expr
    high: Expr
    negated: bool
    span: Span
    symmetric: bool = False  # BETWEEN SYMMETRIC: the bounds in either order


@dataclass(frozen=True, slots=True)
class InList:
    operand: Expr
    items: tuple[Expr, ...]
    negated: bool
    span: Span


@dataclass(frozen=True, slots=True)
class InSubquery:
    operand: Expr
    query: Query
    negated: bool
    span: Span


@dataclass(frozen=True, slots=True)
class QuantifiedComparison:
    """`x > ALL (SELECT ...)`, `x = ANY (SELECT ...)` (SOME is ANY)."""

    operand: Expr
    op: str  # =, <>, <, <=, >, >= (!= is <>)
    quantifier: Literal["all", "any"]
    query: Query
    span: Span


@dataclass(frozen=True, slots=True)
class GroupingSets:
    """An item of GROUP BY that groups the rows several ways: `GROUPING SETS ((a, b),
    (a), ())`, and ROLLUP(a, b) and CUBE(a, b) as the sets they stand for."""

    sets: tuple[tuple[Expr, ...], ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Like:
    operand: Expr
    pattern: Expr
    escape: Expr | None
    negated: bool
    span: Span
    case_insensitive: bool = False  # ILIKE
    similar: bool = False  # SIMILAR TO (semantic/similar.py)


@dataclass(frozen=True, slots=True)
class Cast:
    operand: Expr
    type: TypeName
    span: Span
    safe: bool = False  # SAFE_CAST / TRY_CAST: NULL for a value that does not convert


@dataclass(frozen=True, slots=True)
class WhenClause:
    condition: Expr
    result: Expr
    span: Span


@dataclass(frozen=True, slots=True)
class Case:
    operand: Expr | None  # CASE x WHEN 1 THEN ... (simple) or CASE WHEN ... (searched)
    whens: tuple[WhenClause, ...]
    else_: Expr | None
    span: Span


@dataclass(frozen=True, slots=True)
class FrameBound:
    kind: Literal[
        "unbounded preceding", "preceding", "current row", "following", "unbounded following"
    ]
    offset: Expr | None
    span: Span


@dataclass(frozen=True, slots=True)
class WindowFrame:
    unit: Literal["rows", "range"]
    start: FrameBound
    end: FrameBound | None
    span: Span


@dataclass(frozen=True, slots=True)
class OrderItem:
    expr: Expr
    descending: bool
    nulls: Literal["first", "last"] | None
    span: Span


@dataclass(frozen=True, slots=True)
class WindowSpec:
    base: Identifier | None  # OVER (w ORDER BY ...) refines the named window w
    partition_by: tuple[Expr, ...]
    order_by: tuple[OrderItem, ...]
    frame: WindowFrame | None
    span: Span


@dataclass(frozen=True, slots=True)
class FunctionCall:
    name: Identifier
    args: tuple[Expr, ...]
    distinct: bool
    star: bool  # COUNT(*)
    filter: Expr | None  # agg(x) FILTER (WHERE ...)
    over: WindowSpec | Identifier | None
    span: Span
    # STRING_AGG(x, ',' ORDER BY y), or LISTAGG(x, ',') WITHIN GROUP (ORDER BY y)
    order_by: tuple[OrderItem, ...] = ()
    ignore_nulls: bool = False  # LAG(x) IGNORE NULLS OVER (...) (RESPECT NULLS: False)


@dataclass(frozen=True, slots=True)
class FloorCeil:
    """`FLOOR(ts TO HOUR)` / `CEIL(ts TO HOUR)`: the tumbling-window idiom."""

    function: Literal["floor", "ceil"]
    operand: Expr
    unit: str
    span: Span


@dataclass(frozen=True, slots=True)
class Extract:
    unit: str
    operand: Expr
    span: Span


@dataclass(frozen=True, slots=True)
class TableArg:
    """`TABLE t` as a table-function argument (`TUMBLE(TABLE orders, ...)`), with
    Flink's `PARTITION BY k1, k2` after the name (SESSION's keys)."""

    name: Identifier
    span: Span
    partition: tuple[Identifier, ...] = ()


@dataclass(frozen=True, slots=True)
class NamedArgument:
    """`name => value` in a (table) function call."""

    name: Identifier
    value: Expr
    span: Span


@dataclass(frozen=True, slots=True)
class RowConstructor:
    """`(a, b, ...)`: several values as one (SEARCH_KEY's composite lookup)."""

    items: tuple[Expr, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Lambda:
    """`x -> body`, an argument of TRANSFORM or ARRAY_EXISTS: `body` of each element `x`."""

    param: Identifier
    body: Expr
    span: Span


@dataclass(frozen=True, slots=True)
class MapConstructor:
    """`MAP[k1, v1, k2, v2, ...]`: a MAP value, or SEARCH_KEY's options."""

    items: tuple[Expr, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Subquery:
    query: Query
    span: Span


@dataclass(frozen=True, slots=True)
class ArraySubquery:
    """`ARRAY(SELECT x FROM ...)`: the query's values as an ARRAY (Feldera's, Calcite's)."""

    query: Query
    span: Span


@dataclass(frozen=True, slots=True)
class Exists:
    query: Query
    span: Span


@dataclass(frozen=True, slots=True)
class PeriodPredicate:
    """`(start, end) op other` (Feldera's period predicates): op one of contains,
    overlaps, equals, precedes, succeeds, immediately precedes, immediately succeeds;
    `other` a period `(start, end)` or (for contains) a value. An end may be an
    interval (the start plus it)."""

    op: str
    period: RowConstructor
    other: Expr
    span: Span


@dataclass(frozen=True, slots=True)
class IntervalOf:
    """`INTERVAL expression unit` (Feldera's, MySQL's): the interval of that many units,
    the expression a number or its text; unit singular, lower-case."""

    amount: Expr
    unit: str
    span: Span


@dataclass(frozen=True, slots=True)
class DatetimeInterval:
    """`(t1 - t2) unit [TO unit]` (Calcite's): the difference as an interval of those
    units; units singular, lower-case."""

    difference: BinaryOp
    start_unit: str
    end_unit: str | None
    span: Span


Expr = (
    NumberLiteral
    | StringLiteral
    | BooleanLiteral
    | NullLiteral
    | TypedLiteral
    | IntervalLiteral
    | Parameter
    | ColumnRef
    | UnaryOp
    | BinaryOp
    | IsNull
    | IsBoolean
    | IsDistinctFrom
    | Between
    | InList
    | InSubquery
    | QuantifiedComparison
    | GroupingSets
    | Like
    | Cast
    | Case
    | FunctionCall
    | FloorCeil
    | Extract
    | TableArg
    | NamedArgument
    | RowConstructor
    | MapConstructor
    | Lambda
    | Subquery
    | ArraySubquery
    | Exists
    | DatetimeInterval
    | IntervalOf
    | PeriodPredicate
)
# The expressions whose value a query gives (semantic/scalar_subqueries.py).
QueryValue = Subquery | ArraySubquery | Exists | InSubquery | QuantifiedComparison

# ---------------------------------------------------------------- queries


@dataclass(frozen=True, slots=True)
class ExprItem:
    expr: Expr
    alias: Identifier | None
    span: Span


@dataclass(frozen=True, slots=True)
class StarItem:
    qualifier: Identifier | None  # `t.*`
    span: Span
    # `* EXCLUDE (a, t.b)` (or EXCEPT, as in Calcite, DuckDB, BigQuery): columns left out
    excluded: tuple[ColumnRef, ...] = ()


SelectItem = ExprItem | StarItem


@dataclass(frozen=True, slots=True)
class TableRef:
    name: Identifier
    alias: Identifier | None
    column_aliases: tuple[Identifier, ...]
    over: WindowSpec | Identifier | None  # SQLstream: `FROM s OVER (RANGE ...)`
    as_of: Expr | None  # FOR SYSTEM_TIME AS OF expr
    span: Span


@dataclass(frozen=True, slots=True)
class DerivedTable:
    query: Query
    lateral: bool
    alias: Identifier | None
    column_aliases: tuple[Identifier, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class TableFunction:
    """`SNAPSHOT(t)`, `LATERAL SNAPSHOT(t, x.rowtime)`, `TABLE(TUMBLE(...))`, `UNNEST(a)`..."""

    call: FunctionCall
    lateral: bool
    alias: Identifier | None
    column_aliases: tuple[Identifier, ...]
    span: Span
    ordinality: bool = False  # UNNEST(a) WITH ORDINALITY


@dataclass(frozen=True, slots=True)
class Join:
    kind: Literal["inner", "left", "right", "full", "cross"]
    natural: bool
    left: FromItem
    right: FromItem
    condition: Expr | None
    using: tuple[Identifier, ...]
    keyword_span: Span  # `LEFT OUTER JOIN`
    span: Span
    # ASOF JOIN's MATCH_CONDITION (l.t >= r.t, ...): each left row with its one closest
    # right row (semantic/asof_joins.py); None for the other joins.
    match_condition: Expr | None = None


@dataclass(frozen=True, slots=True)
class PivotValue:
    """One value of PIVOT's IN list: `'CLERK' AS c` or `('CLERK', 10) AS c10`."""

    exprs: tuple[Expr, ...]  # one per FOR column
    name: str  # its alias, or its text as written (`'CLERK'`, `'CLERK'_10`)
    written: str  # its text, for messages: `('CLERK', 10)`
    span: Span


@dataclass(frozen=True, slots=True)
class Pivot:
    """`source PIVOT (SUM(sal) AS ss, ... FOR job IN ('CLERK' AS c, ...))` (Calcite's,
    Feldera's): one row per group of the source's other columns, with a column for each
    value and measure, the measure over the group's rows whose FOR columns equal it."""

    source: FromItem
    measures: tuple[ExprItem, ...]  # aggregate calls, each with its alias or none
    axes: tuple[ColumnRef, ...]  # the FOR columns
    values: tuple[PivotValue, ...]
    alias: Identifier | None
    column_aliases: tuple[Identifier, ...]
    keyword_span: Span  # `PIVOT`
    span: Span


@dataclass(frozen=True, slots=True)
class UnpivotItem:
    """One item of UNPIVOT's IN list: `comm AS 'commission'`, `(c1, c2) AS ('a', 'b')`."""

    columns: tuple[ColumnRef, ...]  # one per measure
    labels: tuple[Expr, ...]  # one per FOR column; empty: the columns' names
    span: Span


@dataclass(frozen=True, slots=True)
class Unpivot:
    """`source UNPIVOT [INCLUDE | EXCLUDE NULLS] (m FOR a IN (c1 AS 'x', c2 AS 'y'))`
    (Calcite's): each source row once per IN item, with the item's label in the FOR
    columns and its columns' values in the measure columns."""

    source: FromItem
    include_nulls: bool
    measures: tuple[Identifier, ...]
    axes: tuple[Identifier, ...]
    items: tuple[UnpivotItem, ...]
    alias: Identifier | None
    column_aliases: tuple[Identifier, ...]
    keyword_span: Span  # `UNPIVOT`
    span: Span


FromItem = TableRef | DerivedTable | TableFunction | Join | Pivot | Unpivot


@dataclass(frozen=True, slots=True)
class Clause:
    """A clause the binder reports as a whole (`GROUP BY a, b`), with its parts."""

    exprs: tuple[Expr, ...]
    span: Span
    distinct: bool = False  # GROUP BY DISTINCT: each grouping set once


@dataclass(frozen=True, slots=True)
class Limit:
    """LIMIT n / OFFSET m / FETCH FIRST n ROWS ONLY, in any of their spellings."""

    count: Expr | None  # None: no limit (LIMIT ALL, or OFFSET alone)
    offset: Expr | None
    span: Span


@dataclass(frozen=True, slots=True)
class NamedWindow:
    name: Identifier
    spec: WindowSpec
    span: Span


@dataclass(frozen=True, slots=True)
class Select:
    stream: bool
    distinct: Span | None  # the DISTINCT keyword, when present
    items: tuple[SelectItem, ...]
    from_: tuple[FromItem, ...]  # empty when there is no FROM
    where: Expr | None
    group_by: Clause | None
    having: Clause | None
    windows: tuple[NamedWindow, ...]
    windows_span: Span | None
    qualify: Expr | None  # QUALIFY's condition: a filter of rows by their window values
    span: Span


@dataclass(frozen=True, slots=True)
class Values:
    rows: tuple[tuple[Expr, ...], ...]
    span: Span


@dataclass(frozen=True, slots=True)
class SetOperation:
    op: Literal["union", "intersect", "except"]
    all: bool
    left: QueryBody
    right: QueryBody
    op_span: Span
    span: Span


@dataclass(frozen=True, slots=True)
class CommonTableExpr:
    name: Identifier
    columns: tuple[Identifier, ...]
    query: Query
    span: Span
    recursive: bool = False  # in WITH RECURSIVE: its query may read itself


@dataclass(frozen=True, slots=True)
class Query:
    """A full query: optional WITH, a body, and the clauses that apply to the whole."""

    with_: tuple[CommonTableExpr, ...]
    with_span: Span | None
    body: QueryBody
    order_by: tuple[OrderItem, ...]
    order_by_span: Span | None
    limit: Limit | None
    span: Span


QueryBody = Select | Values | SetOperation | Query
