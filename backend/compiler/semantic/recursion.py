"""WITH RECURSIVE: a WITH query that reads itself.

    WITH RECURSIVE reach (a, b) AS (
        SELECT src, dst FROM edges                                 -- the anchor
        UNION
        SELECT reach.a, e.dst FROM reach JOIN edges AS e ON reach.b = e.src  -- the step
    )
    SELECT * FROM reach

As PostgreSQL, DuckDB and Calcite evaluate it: the anchor's rows; then the step,
reading the rows the round before added, again and again until a round adds none.
Under UNION a round adds only rows not there yet (so a cycle ends); under UNION ALL
every row it makes (a step that always makes rows never ends: the runtime stops it,
worker/runner/recursion.py). The query is `anchor UNION [ALL] step`, the anchor
(everything before the last UNION) not reading it and the step reading it once, as
PostgreSQL requires. Its columns have the types both sides have in common.

It is one plan node (`plan.Recursive`, the step reading a `plan.RecursiveRef`); a
view over it is recomputed as what it reads changes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from backend.compiler.diagnostics import Code, error
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic.correlation import syntax_nodes
from backend.compiler.semantic.environment import Environment
from backend.compiler.semantic.set_operations import cast_to, common_columns
from backend.compiler.source import Span
from backend.compiler.syntax import ast

Bound = tuple[plan.Rel, tuple[Span, ...]]
BindBody = Callable[[ast.QueryBody, Environment], "Bound | None"]
# The step's types can widen the columns' (an INTEGER anchor, a BIGINT step; a NULL
# anchor column): it is bound again over the wider ones, at most this many times.
TYPING_ROUNDS = 5
# Plan nodes that read a relation's history or a stream's clock: not over a relation
# that is recomputed whole.
REFUSED = {
    plan.TemporalJoin: "a temporal join",
    plan.LookupJoin: "a lookup join (SNAPSHOT, SEARCH_KEY)",
    plan.WindowJoin: "a windowed stream join",
    plan.Snapshot: "SNAPSHOT",
    plan.ToChangelog: "TO_CHANGELOG",
    plan.FromChangelog: "FROM_CHANGELOG",
}


def reads_itself(cte: ast.CommonTableExpr) -> bool:
    """Whether a WITH RECURSIVE query names itself in a FROM (at any depth)."""
    return _reads(cte.query, cte.name.value)


def _reads(node: object, name: str) -> bool:
    return any(
        isinstance(item, ast.TableRef) and item.name.value == name
        for item in syntax_nodes(node, subqueries=True)
    )


def bind_recursive(cte: ast.CommonTableExpr, env: Environment, bind_body: BindBody) -> Bound | None:
    """The plan of a WITH RECURSIVE query that reads itself; None after a report."""
    query, name = cte.query, cte.name.value
    body = query.body
    if (
        not isinstance(body, ast.SetOperation)
        or body.op != "union"
        or query.order_by
        or query.limit is not None
        or query.with_
    ):
        message = (
            f"A recursive WITH query is 'anchor UNION [ALL] step', the step reading "
            f"'{name}' (without WITH, ORDER BY or LIMIT of its own)"
        )
        env.report(error(Code.INVALID_DEFINITION, message, query.span))
        return None
    if _reads(body.left, name):
        message = f"The anchor of '{name}' (before its last UNION) reads '{name}'"
        env.report(
            error(
                Code.INVALID_DEFINITION,
                message,
                body.left.span,
                hint="only the part after the last UNION may read the query itself",
            )
        )
        return None
    anchor = bind_body(body.left, env)
    if anchor is None:
        return None
    anchor_rel, spans = anchor
    if cte.columns and len(cte.columns) != len(anchor_rel.columns):
        env.report(
            error(
                Code.COLUMN_COUNT,
                f"'{name}' names {len(cte.columns)} columns "
                f"but its anchor produces {len(anchor_rel.columns)}",
                cte.columns[0].span.to(cte.columns[-1].span),
            )
        )
        return None
    names = [c.value for c in cte.columns] or [c.name for c in anchor_rel.columns]
    columns = tuple(
        dataclasses.replace(c, name=n) for c, n in zip(anchor_rel.columns, names, strict=True)
    )
    for _ in range(TYPING_ROUNDS):
        mark = len(env.diagnostics)
        step = _bound_step(
            body.right, plan.RecursiveRef(name, columns, cte.name.span), env, bind_body
        )
        if step is None:
            return None
        common = common_columns(body, (cast_to(anchor_rel, columns), spans), step, env)
        if common is None:
            return None
        common = tuple(dataclasses.replace(c, name=n) for c, n in zip(common, names, strict=True))
        if common == columns:
            break
        del env.diagnostics[mark:]  # bound again with the wider columns
        columns = common
    else:
        message = f"The column types of '{name}' widen with every round of its step"
        hint = "CAST the step's values to the type the column should keep"
        env.report(error(Code.TYPE_MISMATCH, message, body.right.span, hint=hint))
        return None
    step_rel = step[0]
    if not _checked(name, anchor_rel, step_rel, body.right.span, env):
        return None
    rel = plan.Recursive(
        name, cast_to(anchor_rel, columns), cast_to(step_rel, columns), body.all, columns, cte.span
    )
    return rel, spans


def _bound_step(
    step: ast.QueryBody, ref: plan.RecursiveRef, env: Environment, bind_body: BindBody
) -> Bound | None:
    """The step bound with the query's name reading `ref`."""
    had, saved = ref.name in env.ctes, env.ctes.get(ref.name)
    env.ctes[ref.name] = (ref, tuple(ref.span for _ in ref.columns))
    try:
        return bind_body(step, env)
    finally:
        if had:
            env.ctes[ref.name] = saved
        else:
            del env.ctes[ref.name]


def _checked(name: str, anchor: plan.Rel, step: plan.Rel, span: Span, env: Environment) -> bool:
    """Whether the step reads the query once, and both sides only what a relation
    recomputed whole can be made of (reported otherwise)."""
    reads = sum(
        1 for node in plan.walk(step) if isinstance(node, plan.RecursiveRef) and node.name == name
    )
    if reads != 1:
        message = (
            f"The step of '{name}' reads it {reads} times: a recursive query's step "
            "reads it once (as in PostgreSQL)"
        )
        env.report(error(Code.INVALID_DEFINITION, message, span))
        return False
    for node in (*plan.walk(anchor), *plan.walk(step)):
        construct = REFUSED.get(type(node))
        if construct is not None:
            env.not_supported(f"{construct} in a recursive WITH query", node.span)
            return False
    return True
