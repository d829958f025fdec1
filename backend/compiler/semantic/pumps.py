"""CREATE PUMP p [STARTED | STOPPED] AS INSERT INTO target [(columns)] SELECT ...

A pump (SQLstream) is a flow inside a pipeline: its query's rows are inserted
into a stream or table of the program, and it can be started, paused, resumed
and stopped on its own. Its query is cast to the target's columns (named ones
in the written order, the others NULL); a pump is created started unless
written STOPPED.
"""

from __future__ import annotations

from backend.compiler.diagnostics import Code, Note, error
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import types
from backend.compiler.semantic.catalog import Pump, Relation, RelationKind
from backend.compiler.semantic.environment import Environment
from backend.compiler.semantic.queries import bind_statement_query, is_stream
from backend.compiler.syntax import statements as stmt


def bind_pump(statement: stmt.CreatePump, env: Environment) -> plan.PumpPlan | None:
    insert = statement.insert
    target = env.lookup(insert.target)
    bound = bind_statement_query(insert.query, env)
    if target is None or bound is None:
        return None
    if target.kind is RelationKind.VIEW:
        env.report(
            error(
                Code.TYPE_MISMATCH,
                f"A pump inserts into a stream or a table; '{target.name}' is a view",
                insert.target.span,
                notes=(Note(f"'{target.name}' is declared here", target.span),),
            )
        )
        return None
    positions = _target_positions(insert, target, env)
    if positions is None:
        return None
    if len(bound.columns) != len(positions):
        env.report(
            error(
                Code.COLUMN_COUNT,
                f"The pump's query has {len(bound.columns)} columns, but it inserts into "
                f"{len(positions)} columns of '{target.name}'",
                insert.query.span,
            )
        )
        return None
    exprs: list[plan.Expr] = []
    for position, column in enumerate(target.columns):
        if position not in positions:
            if not column.nullable:
                env.report(
                    error(
                        Code.COLUMN_COUNT,
                        f"The pump gives no value for '{column.name}', which is NOT NULL",
                        insert.target.span,
                    )
                )
                return None
            exprs.append(plan.Literal(None, column.type, True, insert.span))
            continue
        index = positions.index(position)
        source = bound.columns[index]
        ref: plan.Expr = plan.ColumnRef(
            index, source.name, source.type, source.nullable, bound.spans[index]
        )
        if source.type != column.type:
            if types.common_type(source.type, column.type) is None:
                env.report(
                    error(
                        Code.TYPE_MISMATCH,
                        f"The pump inserts {source.type} into '{column.name}', "
                        f"which is {column.type}",
                        bound.spans[index],
                    )
                )
                return None
            ref = plan.Cast(ref, column.type, source.nullable, bound.spans[index])
        exprs.append(ref)
    fields = tuple(plan.Field(c.name, c.type, c.nullable) for c in target.columns)
    query = plan.Project(bound.rel, tuple(exprs), fields, insert.query.span)
    started = statement.state != "stopped"
    return plan.PumpPlan(
        statement.name.value, target.name, started, query, is_stream(insert.query), statement.span
    )


def _target_positions(insert: stmt.Insert, target: Relation, env: Environment) -> list[int] | None:
    """Positions of the target's columns the query fills, in the query's order."""
    if not insert.columns:
        return list(range(len(target.columns)))
    positions = []
    for name in insert.columns:
        position = target.column_index(name.value)
        if position is None:
            env.report(
                error(
                    Code.UNKNOWN_COLUMN,
                    f"No column '{name.value}' in '{target.name}'",
                    name.span,
                )
            )
            return None
        positions.append(position)
    return positions


def pump_entry(pump: plan.PumpPlan) -> Pump:
    """The catalog's view of a pump: what it reads and where it writes."""
    sources: list[str] = []
    stack: list[plan.Rel] = [pump.query]
    while stack:
        rel = stack.pop()
        if isinstance(rel, plan.Scan) and rel.relation not in sources:
            sources.append(rel.relation)
        stack.extend(plan.children(rel))
    return Pump(pump.name, pump.target, pump.started, tuple(sorted(sources)), pump.span)
