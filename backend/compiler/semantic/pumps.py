"""CREATE PUMP p [STARTED | STOPPED] AS INSERT INTO target [(columns)] SELECT ...

A pump (SQLstream) is a flow inside a pipeline: its query's rows are inserted
into a stream or table of the program, and it can be started, paused, resumed
and stopped on its own. Its query is cast to the target's columns (named ones
in the written order, the others NULL); a pump is created started unless
written STOPPED.
"""

from __future__ import annotations

from collections.abc import Sequence

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
        rowtime_left_out = (
            target.kind is RelationKind.STREAM
            and not insert.columns
            and len(bound.columns) == len(positions) - 1
        )
        env.report(
            error(
                Code.COLUMN_COUNT,
                f"The pump's query has {len(bound.columns)} columns, but it inserts into "
                f"{len(positions)} columns of '{target.name}'",
                insert.query.span,
                hint="a stream's first column is its rowtime: select it first "
                "(SELECT STREAM rowtime, ...)"
                if rowtime_left_out
                else None,
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
    return Pump(pump.name, pump.target, pump.started, scanned(pump.query), pump.span)


def scanned(rel: plan.Rel) -> tuple[str, ...]:
    """The tables, streams and views a query reads, sorted."""
    sources: set[str] = set()
    stack: list[plan.Rel] = [rel]
    while stack:
        node = stack.pop()
        if isinstance(node, plan.Scan):
            sources.add(node.relation)
        stack.extend(plan.children(node))
    return tuple(sorted(sources))


def check_pump_cycles(
    views: Sequence[plan.ViewPlan], pumps: Sequence[plan.PumpPlan], env: Environment
) -> None:
    """A pump whose rows flow back into its own query (through views and other pumps)
    would feed itself forever within a step: SQL330 at the first pump of each cycle."""
    if not pumps:
        return
    readers: dict[str, list[tuple[str, plan.PumpPlan | None]]] = {}
    for view in views:
        for source in scanned(view.query):
            readers.setdefault(source, []).append((view.name, None))
    for pump in pumps:
        for source in scanned(pump.query):
            readers.setdefault(source, []).append((pump.target, pump))
    reported: set[str] = set()
    for pump in pumps:
        path = _path(pump.target, set(scanned(pump.query)), readers)
        if path is None or pump.name in reported:
            continue
        cycle = [p.name for _, p in path if p is not None]
        reported.update(cycle)
        hops = [pump.target]
        for name, crossed in path:
            hops.extend([f"pump {crossed.name}", name] if crossed is not None else [name])
        env.report(
            error(
                Code.PUMP_CYCLE,
                f"Pump '{pump.name}' inserts into '{pump.target}', which its own query reads "
                f"({' -> '.join(hops)} -> pump {pump.name})",
                pump.span,
                hint="a pump must not feed the relations it reads; write into another stream",
            )
        )


def _path(
    start: str,
    goals: set[str],
    readers: dict[str, list[tuple[str, plan.PumpPlan | None]]],
) -> list[tuple[str, plan.PumpPlan | None]] | None:
    """The relations from `start` to one of `goals` along readers (with the pumps crossed)."""
    if start in goals:
        return []
    seen = {start}
    queue: list[tuple[str, list[tuple[str, plan.PumpPlan | None]]]] = [(start, [])]
    while queue:
        name, path = queue.pop(0)
        for reader, pump in readers.get(name, []):
            if reader in seen:
                continue
            step = [*path, (reader, pump)]
            if reader in goals:
                return step
            seen.add(reader)
            queue.append((reader, step))
    return None
