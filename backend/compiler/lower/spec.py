"""The typed plan and catalog as the JSON of docs/contracts.md.

The TypedDicts below are that contract written in Python: change them only
together with docs/contracts.md and the runner.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, NotRequired, TypeAlias, TypedDict

from backend.compiler.plan import nodes as plan
from backend.compiler.semantic.catalog import Catalog, Column, Relation, RelationKind

PLAN_VERSION = 2


class ColumnJson(TypedDict):
    name: str
    type: str
    nullable: bool


class AnnotatedColumnJson(TypedDict):
    """A column of a relation (catalog, plan inputs, views), with its annotations."""

    name: str
    type: str
    nullable: bool
    lateness: ExprJson | None
    watermark: ExprJson | None
    waterline: bool
    length: NotRequired[LengthJson]  # a table's CHAR(n), VARCHAR(n), BINARY(n), VARBINARY(n)
    default: NotRequired[int | float | str | bool | None]  # a table's DEFAULT value


class LengthJson(TypedDict):
    kind: str  # "char" (padded with spaces to n) | "varchar" | "binary" (zero bytes) | "varbinary"
    n: int


class RelationJson(TypedDict):
    name: str
    kind: str
    columns: list[AnnotatedColumnJson]
    primary_key: list[str]
    append_only: bool
    materialized: bool
    local: bool
    emit_final: int | None  # views only: the column index
    output_mode: str | None  # views only: "append" | "update"
    foreign: ForeignJson | None  # FOREIGN STREAM only


class ForeignJson(TypedDict):
    server: str | None
    options: dict[str, str]


class PumpJson(TypedDict):
    name: str
    target: str
    started: bool
    sources: list[str]


class CatalogJson(TypedDict):
    relations: list[RelationJson]
    pumps: list[PumpJson]


class ColumnExprJson(TypedDict):
    kind: Literal["column"]
    index: int
    name: str
    type: str


class LiteralExprJson(TypedDict):
    kind: Literal["literal"]
    value: plan.LiteralValue
    type: str


class CallExprJson(TypedDict):
    kind: Literal["call"]
    function: str
    args: list[ExprJson]
    type: str


class CastExprJson(TypedDict):
    kind: Literal["cast"]
    expr: ExprJson
    type: str


# "else" is a Python keyword: the functional form of TypedDict.
CaseExprJson = TypedDict(
    "CaseExprJson",
    {
        "kind": Literal["case"],
        "whens": list[list["ExprJson"]],
        "else": "ExprJson | None",
        "type": str,
    },
)


class LambdaExprJson(TypedDict):
    kind: Literal["lambda"]
    param: str
    body: ExprJson  # over one column, index 0: the parameter
    type: str


ExprJson: TypeAlias = (
    ColumnExprJson | LiteralExprJson | CallExprJson | CastExprJson | CaseExprJson | LambdaExprJson
)


class AggJson(TypedDict):
    function: str
    args: list[ExprJson]
    distinct: bool
    type: str
    order: NotRequired[list[SortKeyJson]]  # STRING_AGG's, when it has one


class ScanJson(TypedDict):
    op: Literal["scan"]
    relation: str
    columns: list[ColumnJson]


class FilterJson(TypedDict):
    op: Literal["filter"]
    input: RelJson
    condition: ExprJson
    columns: list[ColumnJson]


class ProjectJson(TypedDict):
    op: Literal["project"]
    input: RelJson
    exprs: list[ExprJson]
    columns: list[ColumnJson]


class JoinJson(TypedDict):
    op: Literal["join"]
    kind: str
    left: RelJson
    right: RelJson
    condition: ExprJson | None
    columns: list[ColumnJson]


class AggregateJson(TypedDict):
    op: Literal["aggregate"]
    input: RelJson
    keys: list[ExprJson]
    aggregates: list[AggJson]
    columns: list[ColumnJson]


class UnionJson(TypedDict):
    op: Literal["union"]
    inputs: list[RelJson]
    columns: list[ColumnJson]


class RecursiveJson(TypedDict):
    op: Literal["recursive"]
    name: str
    anchor: RelJson
    step: RelJson
    all: bool
    columns: list[ColumnJson]


class RecursiveRefJson(TypedDict):
    op: Literal["recursive_ref"]
    name: str
    columns: list[ColumnJson]


class DistinctJson(TypedDict):
    op: Literal["distinct"]
    input: RelJson
    columns: list[ColumnJson]


class SortKeyJson(TypedDict):
    expr: ExprJson
    descending: bool
    nulls_first: bool


class SortJson(TypedDict):
    op: Literal["sort"]
    input: RelJson
    keys: list[SortKeyJson]
    limit: int | None
    offset: int
    columns: list[ColumnJson]


class FrameJson(TypedDict):
    unit: str
    start: int | float | None
    end: int | float | None


class WindowCallJson(TypedDict):
    function: str
    args: list[ExprJson]
    partition: list[ExprJson]
    order: list[SortKeyJson]
    frame: FrameJson
    type: str
    ignore_nulls: NotRequired[bool]  # present (true) only with IGNORE NULLS


class WindowJson(TypedDict):
    op: Literal["window"]
    input: RelJson
    calls: list[WindowCallJson]
    columns: list[ColumnJson]


class SemiJoinJson(TypedDict):
    op: Literal["semi"]
    kind: str
    left: RelJson
    right: RelJson
    condition: ExprJson | None
    columns: list[ColumnJson]


class SetDifferenceJson(TypedDict):
    op: Literal["intersect", "except"]
    all: bool
    left: RelJson
    right: RelJson
    columns: list[ColumnJson]


class ValuesJson(TypedDict):
    op: Literal["values"]
    rows: list[list[ExprJson]]
    columns: list[ColumnJson]


class HopJson(TypedDict):
    op: Literal["hop"]
    input: RelJson
    time: int
    size: int
    slide: int
    offset: NotRequired[int]  # absent for 0: the plans of windows with none stay as they were
    columns: list[ColumnJson]


class UnnestJson(TypedDict):
    op: Literal["unnest"]
    input: RelJson
    array: ExprJson
    ordinality: bool
    columns: list[ColumnJson]
    outer: NotRequired[bool]  # LEFT JOIN UNNEST ... ON TRUE: a row of NULLs for no element


class LookupJoinJson(TypedDict):
    op: Literal["lookup_join"]
    kind: str
    table: str
    left: RelJson
    right: RelJson
    condition: ExprJson | None
    columns: list[ColumnJson]


class TemporalJoinJson(TypedDict):
    op: Literal["temporal_join"]
    kind: str
    left: RelJson
    right: RelJson
    time: ExprJson
    version: int
    key: list[int]
    condition: ExprJson | None
    columns: list[ColumnJson]


class JoinWindowJson(TypedDict):
    preceding: int
    following: int


class WindowJoinJson(TypedDict):
    op: Literal["window_join"]
    kind: str
    left: RelJson
    right: RelJson
    left_time: int
    right_time: int
    left_window: JoinWindowJson
    right_window: JoinWindowJson
    condition: ExprJson | None
    columns: list[ColumnJson]


class AsOfJson(TypedDict):
    op: Literal["as_of"]
    input: RelJson
    time: int
    key: list[int]
    at: ExprJson
    columns: list[ColumnJson]


class ToChangelogJson(TypedDict):
    op: Literal["to_changelog"]
    input: RelJson
    key: list[int]
    columns: list[ColumnJson]


class FromChangelogJson(TypedDict):
    op: Literal["from_changelog"]
    input: RelJson
    op_column: int
    payload_column: int
    columns: list[ColumnJson]


RelJson = (
    ScanJson
    | FilterJson
    | ProjectJson
    | JoinJson
    | AggregateJson
    | UnionJson
    | DistinctJson
    | ValuesJson
    | HopJson
    | UnnestJson
    | SetDifferenceJson
    | SortJson
    | WindowJson
    | SemiJoinJson
    | LookupJoinJson
    | TemporalJoinJson
    | WindowJoinJson
    | AsOfJson
    | ToChangelogJson
    | FromChangelogJson
    | RecursiveJson
    | RecursiveRefJson
)


class ViewJson(TypedDict):
    name: str
    columns: list[AnnotatedColumnJson]
    query: RelJson
    local: bool
    emit_final: int | None
    output_mode: str


class PumpPlanJson(TypedDict):
    name: str
    target: str
    started: bool
    query: RelJson


class PlanJson(TypedDict):
    version: int
    inputs: list[RelationJson]
    views: list[ViewJson]
    pumps: NotRequired[list[PumpPlanJson]]


def catalog_json(catalog: Catalog) -> CatalogJson:
    return {
        "relations": [relation_json(relation) for relation in catalog.relations],
        "pumps": [
            {
                "name": pump.name,
                "target": pump.target,
                "started": pump.started,
                "sources": list(pump.sources),
            }
            for pump in catalog.pumps
        ],
    }


def relation_json(relation: Relation) -> RelationJson:
    return {
        "name": relation.name,
        "kind": relation.kind.value,
        "columns": [column_json(c) for c in relation.columns],
        "primary_key": list(relation.primary_key),
        "append_only": relation.append_only,
        "materialized": relation.kind is RelationKind.VIEW and relation.materialized,
        "local": relation.local,
        "emit_final": relation.emit_final,
        "output_mode": relation.output_mode,
        "foreign": None
        if relation.foreign is None
        else {"server": relation.foreign[0], "options": dict(relation.foreign[1])},
    }


def column_json(column: Column) -> AnnotatedColumnJson:
    result: AnnotatedColumnJson = {
        "name": column.name,
        "type": column.type.name,
        "nullable": column.nullable,
        "lateness": None if column.lateness is None else expr_json(column.lateness),
        "watermark": None if column.watermark is None else expr_json(column.watermark),
        "waterline": column.waterline,
    }
    if column.length is not None:
        result["length"] = {"kind": column.length[0], "n": column.length[1]}
    if column.default is not None:
        result["default"] = column.default.value
    return result


def plan_json(
    logical: plan.Plan, each_view: Callable[[plan.ViewPlan], ViewJson] | None = None
) -> PlanJson:
    """`each_view`: `view_json`, or what gives the same (the compile cache's)."""
    each_view = each_view or view_json
    result: PlanJson = {
        "version": PLAN_VERSION,
        "inputs": [relation_json(relation) for relation in logical.inputs],
        "views": [each_view(view) for view in logical.views],
    }
    if logical.pumps:  # absent otherwise: the plans of programs without pumps stay as they were
        result["pumps"] = [
            {
                "name": pump.name,
                "target": pump.target,
                "started": pump.started,
                "query": rel_json(pump.query),
            }
            for pump in logical.pumps
        ]
    return result


def view_json(view: plan.ViewPlan) -> ViewJson:
    if view.relation is not None:
        columns = [column_json(c) for c in view.relation.columns]
    else:
        columns = [
            {
                "name": f.name,
                "type": f.type.name,
                "nullable": f.nullable,
                "lateness": None,
                "watermark": None,
                "waterline": False,
            }
            for f in view.columns
        ]
    return {
        "name": view.name,
        "columns": columns,
        "query": rel_json(view.query),
        "local": view.local,
        "emit_final": view.emit_final,
        "output_mode": view.output_mode,
    }


def rel_json(rel: plan.Rel) -> RelJson:
    columns = _columns(rel.columns)
    match rel:
        case plan.Scan():
            return {"op": "scan", "relation": rel.relation, "columns": columns}
        case plan.Filter():
            condition = expr_json(rel.condition)
            return {
                "op": "filter",
                "input": rel_json(rel.input),
                "condition": condition,
                "columns": columns,
            }
        case plan.Project():
            exprs = [expr_json(expr) for expr in rel.exprs]
            return {
                "op": "project",
                "input": rel_json(rel.input),
                "exprs": exprs,
                "columns": columns,
            }
        case plan.Join():
            return {
                "op": "join",
                "kind": rel.kind,
                "left": rel_json(rel.left),
                "right": rel_json(rel.right),
                "condition": None if rel.condition is None else expr_json(rel.condition),
                "columns": columns,
            }
        case plan.Aggregate():
            return {
                "op": "aggregate",
                "input": rel_json(rel.input),
                "keys": [expr_json(key) for key in rel.keys],
                "aggregates": [_agg_json(agg) for agg in rel.aggregates],
                "columns": columns,
            }
        case plan.Union():
            return {"op": "union", "inputs": [rel_json(i) for i in rel.inputs], "columns": columns}
        case plan.Distinct():
            return {"op": "distinct", "input": rel_json(rel.input), "columns": columns}
        case plan.Recursive():
            return {
                "op": "recursive",
                "name": rel.name,
                "anchor": rel_json(rel.anchor),
                "step": rel_json(rel.step),
                "all": rel.all,
                "columns": columns,
            }
        case plan.RecursiveRef():
            return {"op": "recursive_ref", "name": rel.name, "columns": columns}
        case plan.SemiJoin():
            return {
                "op": "semi",
                "kind": rel.kind,
                "left": rel_json(rel.left),
                "right": rel_json(rel.right),
                "condition": None if rel.condition is None else expr_json(rel.condition),
                "columns": columns,
            }
        case plan.Window():
            return {
                "op": "window",
                "input": rel_json(rel.input),
                "calls": [_window_call_json(call) for call in rel.calls],
                "columns": columns,
            }
        case plan.Sort():
            return {
                "op": "sort",
                "input": rel_json(rel.input),
                "keys": [_sort_key_json(key) for key in rel.keys],
                "limit": rel.limit,
                "offset": rel.offset,
                "columns": columns,
            }
        case plan.SetDifference():
            return {
                "op": "intersect" if rel.op == "intersect" else "except",
                "all": rel.all,
                "left": rel_json(rel.left),
                "right": rel_json(rel.right),
                "columns": columns,
            }
        case plan.Values():
            rows = [[expr_json(e) for e in row] for row in rel.rows]
            return {"op": "values", "rows": rows, "columns": columns}
        case plan.Hop():
            hop: HopJson = {
                "op": "hop",
                "input": rel_json(rel.input),
                "time": rel.time,
                "size": rel.size,
                "slide": rel.slide,
                "columns": columns,
            }
            if rel.offset:
                hop["offset"] = rel.offset
            return hop
        case plan.Unnest():
            unnest: UnnestJson = {
                "op": "unnest",
                "input": rel_json(rel.input),
                "array": expr_json(rel.array),
                "ordinality": rel.ordinality,
                "columns": columns,
            }
            if rel.outer:
                unnest["outer"] = True
            return unnest
        case plan.WindowJoin():
            return {
                "op": "window_join",
                "kind": rel.kind,
                "left": rel_json(rel.left),
                "right": rel_json(rel.right),
                "left_time": rel.left_time,
                "right_time": rel.right_time,
                "left_window": _join_window_json(rel.left_window),
                "right_window": _join_window_json(rel.right_window),
                "condition": None if rel.condition is None else expr_json(rel.condition),
                "columns": columns,
            }
        case (
            plan.Snapshot()
            | plan.LookupJoin()
            | plan.TemporalJoin()
            | plan.ToChangelog()
            | plan.FromChangelog()
        ):
            return _temporal_json(rel, columns)


def _temporal_json(
    rel: plan.Snapshot
    | plan.LookupJoin
    | plan.TemporalJoin
    | plan.ToChangelog
    | plan.FromChangelog,
    columns: list[ColumnJson],
) -> RelJson:
    """The nodes of SNAPSHOT, SEARCH_KEY, TO_CHANGELOG and FROM_CHANGELOG. A snapshot as of
    each step is its input (its changes are the input's), and time travel without a key
    the filter the binder put under it: only versioned time travel is a node (as_of)."""
    match rel:
        case plan.Snapshot():
            if rel.at is None or not rel.key:
                return rel_json(rel.input)
            assert rel.time is not None
            return {
                "op": "as_of",
                "input": rel_json(rel.input),
                "time": rel.time,
                "key": list(rel.key),
                "at": expr_json(rel.at),
                "columns": columns,
            }
        case plan.LookupJoin():
            return {
                "op": "lookup_join",
                "kind": rel.kind,
                "table": rel.table,
                "left": rel_json(rel.left),
                "right": rel_json(rel.right),
                "condition": None if rel.condition is None else expr_json(rel.condition),
                "columns": columns,
            }
        case plan.TemporalJoin():
            return {
                "op": "temporal_join",
                "kind": rel.kind,
                "left": rel_json(rel.left),
                "right": rel_json(rel.right),
                "time": expr_json(rel.time),
                "version": rel.version,
                "key": list(rel.key),
                "condition": None if rel.condition is None else expr_json(rel.condition),
                "columns": columns,
            }
        case plan.ToChangelog():
            return {
                "op": "to_changelog",
                "input": rel_json(rel.input),
                "key": list(rel.key),
                "columns": columns,
            }
        case plan.FromChangelog():
            return {
                "op": "from_changelog",
                "input": rel_json(rel.input),
                "op_column": rel.op,
                "payload_column": rel.payload,
                "columns": columns,
            }


def _join_window_json(window: plan.JoinWindow) -> JoinWindowJson:
    return {"preceding": window.preceding, "following": window.following}


def _sort_key_json(key: plan.SortKey) -> SortKeyJson:
    return {
        "expr": expr_json(key.expr),
        "descending": key.descending,
        "nulls_first": key.nulls_first,
    }


def _window_call_json(call: plan.WindowCall) -> WindowCallJson:
    json: WindowCallJson = {
        "function": call.function,
        "args": [expr_json(arg) for arg in call.args],
        "partition": [expr_json(expr) for expr in call.partition],
        "order": [_sort_key_json(key) for key in call.order],
        "frame": {"unit": call.unit, "start": call.start, "end": call.end},
        "type": call.type.name,
    }
    if call.ignore_nulls:
        json["ignore_nulls"] = True
    return json


def _agg_json(agg: plan.AggCall) -> AggJson:
    json: AggJson = {
        "function": agg.function,
        "args": [expr_json(arg) for arg in agg.args],
        "distinct": agg.distinct,
        "type": agg.type.name,
    }
    if agg.order:
        json["order"] = [_sort_key_json(key) for key in agg.order]
    return json


def expr_json(expr: plan.Expr) -> ExprJson:
    match expr:
        case plan.ColumnRef():
            return {
                "kind": "column",
                "index": expr.index,
                "name": expr.name,
                "type": expr.type.name,
            }
        case plan.Literal():
            return {"kind": "literal", "value": expr.value, "type": expr.type.name}
        case plan.Call():
            return {
                "kind": "call",
                "function": expr.function,
                "args": [expr_json(arg) for arg in expr.args],
                "type": expr.type.name,
            }
        case plan.Cast():
            return {"kind": "cast", "expr": expr_json(expr.operand), "type": expr.type.name}
        case plan.Case():
            return {
                "kind": "case",
                "whens": [[expr_json(c), expr_json(r)] for c, r in expr.whens],
                "else": None if expr.else_ is None else expr_json(expr.else_),
                "type": expr.type.name,
            }
        case plan.Lambda():  # its body's column 0 is the parameter
            return {
                "kind": "lambda",
                "param": expr.param,
                "body": expr_json(expr.body),
                "type": expr.type.name,
            }
        case plan.AggregateRef():
            raise AssertionError("aggregate references are resolved by the binder")


def _columns(fields: tuple[plan.Field, ...]) -> list[ColumnJson]:
    return [{"name": f.name, "type": f.type.name, "nullable": f.nullable} for f in fields]
