"""Queries the compiler writes for the user (PIVOT's, a correlated subquery's), reading
rows it has already bound under a name, as a WITH query is read."""

from __future__ import annotations

from backend.compiler.plan import nodes as plan
from backend.compiler.semantic.environment import Environment
from backend.compiler.semantic.subqueries import BindQuery
from backend.compiler.source import Span
from backend.compiler.syntax import ast


def bind_reading(
    query: ast.Query,
    name: str,
    rows: plan.Rel,
    span: Span,
    env: Environment,
    bind_query: BindQuery,
) -> plan.Rel | None:
    """`query` bound where `name` is `rows` (and nothing else it was before)."""
    saved = env.ctes.get(name)
    had = name in env.ctes
    env.ctes[name] = (rows, tuple(span for _ in rows.columns))
    try:
        bound = bind_query(query, env)
    finally:
        if had:
            env.ctes[name] = saved
        else:
            del env.ctes[name]
    return None if bound is None else bound[0]
