"""The typed plan and catalog as the JSON of docs/contracts.md.

The TypedDicts below are that contract written in Python: change them only
together with docs/contracts.md and the runner.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from backend.compiler.plan import nodes as plan
from backend.compiler.semantic.catalog import Catalog, Relation, RelationKind

PLAN_VERSION = 1


class ColumnJson(TypedDict):
    name: str
    type: str
    nullable: bool


class RelationJson(TypedDict):
    name: str
    kind: str
    columns: list[ColumnJson]
    primary_key: list[str]
    append_only: bool
    materialized: bool
    local: bool


class CatalogJson(TypedDict):
    relations: list[RelationJson]


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


ExprJson = ColumnExprJson | LiteralExprJson | CallExprJson | CastExprJson


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


RelJson = ScanJson | FilterJson | ProjectJson


class ViewJson(TypedDict):
    name: str
    columns: list[ColumnJson]
    query: RelJson
    local: bool


class PlanJson(TypedDict):
    version: int
    inputs: list[RelationJson]
    views: list[ViewJson]


def catalog_json(catalog: Catalog) -> CatalogJson:
    return {"relations": [relation_json(relation) for relation in catalog.relations]}


def relation_json(relation: Relation) -> RelationJson:
    return {
        "name": relation.name,
        "kind": relation.kind.value,
        "columns": [
            {"name": c.name, "type": c.type.name, "nullable": c.nullable} for c in relation.columns
        ],
        "primary_key": list(relation.primary_key),
        "append_only": relation.append_only,
        "materialized": relation.kind is RelationKind.VIEW and relation.materialized,
        "local": relation.local,
    }


def plan_json(logical: plan.Plan) -> PlanJson:
    return {
        "version": PLAN_VERSION,
        "inputs": [relation_json(relation) for relation in logical.inputs],
        "views": [
            {
                "name": view.name,
                "columns": _columns(view.columns),
                "query": rel_json(view.query),
                "local": view.local,
            }
            for view in logical.views
        ],
    }


def rel_json(rel: plan.Rel) -> RelJson:
    match rel:
        case plan.Scan():
            return {"op": "scan", "relation": rel.relation, "columns": _columns(rel.columns)}
        case plan.Filter():
            return {
                "op": "filter",
                "input": rel_json(rel.input),
                "condition": expr_json(rel.condition),
                "columns": _columns(rel.columns),
            }
        case plan.Project():
            return {
                "op": "project",
                "input": rel_json(rel.input),
                "exprs": [expr_json(expr) for expr in rel.exprs],
                "columns": _columns(rel.columns),
            }


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


def _columns(fields: tuple[plan.Field, ...]) -> list[ColumnJson]:
    return [{"name": f.name, "type": f.type.name, "nullable": f.nullable} for f in fields]
