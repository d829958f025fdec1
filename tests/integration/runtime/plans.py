"""Hand-written plans (docs/contracts.md, version 2) for runtime tests."""

from typing import Any

Json = dict[str, Any]


def column(name: str, type_: str, **extra: Any) -> Json:
    return {"name": name, "type": type_, "nullable": True, **extra}


def col(index: int, type_: str) -> Json:
    return {"kind": "column", "index": index, "type": type_}


def lit(value: Any, type_: str) -> Json:
    return {"kind": "literal", "value": value, "type": type_}


def call(function: str, type_: str, *args: Json) -> Json:
    return {"kind": "call", "function": function, "args": list(args), "type": type_}


def table(name: str, columns: list[Json], kind: str = "table") -> Json:
    return {"name": name, "kind": kind, "columns": columns, "primary_key": [], "append_only": False}


def scan(relation: Json) -> Json:
    return {"op": "scan", "relation": relation["name"], "columns": relation["columns"]}


def project(input_: Json, *exprs: tuple[str, Json]) -> Json:
    return {
        "op": "project",
        "input": input_,
        "exprs": [e for _, e in exprs],
        "columns": [column(n, e["type"]) for n, e in exprs],
    }


def filter_(input_: Json, condition: Json) -> Json:
    return {"op": "filter", "input": input_, "condition": condition, "columns": input_["columns"]}


def agg(function: str, type_: str, arg: Json | None = None, distinct: bool = False) -> Json:
    return {
        "function": function,
        "args": [] if arg is None else [arg],
        "distinct": distinct,
        "type": type_,
    }


def aggregate(input_: Json, keys: list[tuple[str, Json]], aggs: list[tuple[str, Json]]) -> Json:
    columns = [column(n, e["type"]) for n, e in keys] + [column(n, a["type"]) for n, a in aggs]
    return {
        "op": "aggregate",
        "input": input_,
        "keys": [e for _, e in keys],
        "aggregates": [a for _, a in aggs],
        "columns": columns,
    }


def join(kind: str, left: Json, right: Json, condition: Json | None) -> Json:
    return {
        "op": "join",
        "kind": kind,
        "left": left,
        "right": right,
        "condition": condition,
        "columns": left["columns"] + right["columns"],
    }


def view(name: str, query: Json, **extra: Any) -> Json:
    return {"name": name, "columns": query["columns"], "query": query, "local": False, **extra}


def plan(inputs: list[Json], views: list[Json]) -> Json:
    return {"version": 2, "inputs": inputs, "views": views}
