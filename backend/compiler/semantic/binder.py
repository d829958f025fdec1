"""The binder: a syntax tree to a catalog and a typed logical plan.

Statements are bound in program order; a statement sees only the relations
and the functions (CREATE FUNCTION) declared before it. A relation whose
declaration failed is remembered as unresolvable, so statements using it are
not flooded with follow-on errors (a function's, too).
A query written as a statement of its own is a view named `query_1`,
`query_2`, ... in program order (`query_names`).
"""

from __future__ import annotations

import itertools
from collections.abc import Collection
from dataclasses import dataclass
from typing import Protocol

from backend.compiler.diagnostics import Code, Diagnostic, Note, error
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic.catalog import (
    Catalog,
    Column,
    Relation,
    RelationKind,
    UserFunction,
)
from backend.compiler.semantic.environment import Environment
from backend.compiler.semantic.inserts import bind_insert
from backend.compiler.semantic.lateness import (
    attach_lateness,
    collect_lateness,
    report_unused_lateness,
)
from backend.compiler.semantic.properties import Properties, check_properties
from backend.compiler.semantic.pumps import bind_pump, check_pump_cycles, pump_entry
from backend.compiler.semantic.queries import (
    bind_statement_query,
    is_stream,
    with_column_names,
)
from backend.compiler.semantic.tables import bind_table, check_index
from backend.compiler.semantic.types import SqlType
from backend.compiler.semantic.user_functions import abandoned_function, bind_function
from backend.compiler.semantic.user_types import bind_type
from backend.compiler.source import Span
from backend.compiler.suggest import did_you_mean
from backend.compiler.syntax import ast
from backend.compiler.syntax import statements as stmt


def bind(program: stmt.Program) -> tuple[Catalog, plan.Plan | None, tuple[Diagnostic, ...]]:
    """Bind every statement; the plan holds the views that bound without error."""
    return bind_statements(InPlace(program))


class Statements(Protocol):
    """A program's statements as the binder walks them.

    `InPlace` is a syntax tree's; the compile cache (compiler/cache.py) answers
    from what it kept of each statement, binding only the statements it must.
    """

    def __len__(self) -> int: ...

    def statement(self, index: int) -> stmt.Statement:
        """The statement, with spans at its place in the program text."""
        ...

    def declared_name(self, index: int) -> ast.Identifier | None:
        """`declared_name(self.statement(index))`."""
        ...

    def query_span(self, index: int) -> Span | None:
        """`query_span(self.statement(index))`."""
        ...

    def lateness(self) -> tuple[stmt.LatenessStatement, ...]:
        """The program's LATENESS statements, in order."""
        ...

    def bind(self, index: int, env: Environment) -> Outcome:
        """`bind_statement(self.statement(index), env)`, or the same outcome and the
        same effects on `env`."""
        ...


class InPlace:
    """The statements of a syntax tree."""

    def __init__(self, program: stmt.Program) -> None:
        self.statements = program.statements

    def __len__(self) -> int:
        return len(self.statements)

    def statement(self, index: int) -> stmt.Statement:
        return self.statements[index]

    def declared_name(self, index: int) -> ast.Identifier | None:
        return declared_name(self.statements[index])

    def query_span(self, index: int) -> Span | None:
        return query_span(self.statements[index])

    def lateness(self) -> tuple[stmt.LatenessStatement, ...]:
        return tuple(s for s in self.statements if isinstance(s, stmt.LatenessStatement))

    def bind(self, index: int, env: Environment) -> Outcome:
        return bind_statement(self.statements[index], env)


def bind_statements(
    statements: Statements,
) -> tuple[Catalog, plan.Plan | None, tuple[Diagnostic, ...]]:
    """`bind` of the program whose statements these are."""
    names = _named_queries(statements)
    env = Environment(declarations=_declarations(names))
    collect_lateness(statements.lateness(), env)
    declared: dict[str, Span] = {}
    relations: list[Relation] = []
    views: list[plan.ViewPlan] = []
    pumps: dict[str, plan.PumpPlan] = {}
    for index, name in enumerate(names):
        is_new = name is None or _declare(name, declared, env)
        env.current = name.value if name is not None else None
        outcome = statements.bind(index, env)
        if outcome.function_name is not None:
            env.functions[outcome.function_name] = outcome.function
        if outcome.type_name is not None:
            env.types[outcome.type_name] = outcome.user_type
        if outcome.pump is not None:
            _add_pump(outcome.pump, statements, index, pumps, env)
        if name is None or not is_new:
            continue
        if outcome.relation is None:
            env.unresolvable.add(name.value)
            continue
        env.relations[name.value] = outcome.relation
        if outcome.broken_columns:
            # Its shape is not known, so it is not listed; views still see its other columns.
            env.broken_columns[name.value] = outcome.broken_columns
            continue
        relations.append(outcome.relation)
        if outcome.view is not None:
            views.append(outcome.view)
    report_unused_lateness(env)
    check_pump_cycles(views, tuple(pumps.values()), env)
    catalog = Catalog(tuple(relations))
    inputs = tuple(r for r in relations if r.kind is not RelationKind.VIEW)
    # The plan of what bound; the driver drops it when there is any error.
    logical = plan.Plan(inputs, tuple(views), tuple(env.order_checks), tuple(pumps.values()))
    catalog = Catalog(catalog.relations, tuple(pump_entry(p) for p in pumps.values()))
    return catalog, logical, tuple(env.diagnostics)


def _add_pump(
    pump: plan.PumpPlan,
    statements: Statements,
    index: int,
    pumps: dict[str, plan.PumpPlan],
    env: Environment,
) -> None:
    """Pumps have names of their own (not relations'): each once."""
    first = pumps.get(pump.name)
    if first is None:
        pumps[pump.name] = pump
        return
    statement = statements.statement(index)
    assert isinstance(statement, stmt.CreatePump)
    env.report(
        error(
            Code.DUPLICATE_RELATION,
            f"Pump '{pump.name}' is defined twice",
            statement.name.span,
            notes=(Note("first defined here", first.span),),
        )
    )


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a statement declares: nothing, a relation, or a view and its plan."""

    relation: Relation | None = None
    view: plan.ViewPlan | None = None
    broken_columns: frozenset[str] = frozenset()
    pump: plan.PumpPlan | None = None
    # CREATE FUNCTION: the name it defines, and the function (None if it failed).
    function_name: str | None = None
    function: UserFunction | None = None
    # CREATE TYPE: the name it defines, and the type (None if it failed).
    type_name: str | None = None
    user_type: SqlType | None = None


def bind_statement(statement: stmt.Statement, env: Environment) -> Outcome:
    """Bind one statement in `env` (the statements before it; `env.current` is its name)."""
    match statement:
        case stmt.CreateTable() | stmt.CreateStream():
            table = bind_table(statement, env)
            return Outcome(table.relation, broken_columns=table.broken_columns)
        case stmt.CreateView():
            return _bind_view(statement, env)
        case stmt.Insert():
            bind_insert(statement, env)
        case stmt.CreatePump():
            return Outcome(pump=bind_pump(statement, env))
        case stmt.CreateFunction():
            name, function = bind_function(statement, env)
            return Outcome(function_name=name, function=function)
        case stmt.CreateType():
            type_name, user_type = bind_type(statement, env)
            return Outcome(type_name=type_name, user_type=user_type)
        case stmt.CreateIndex():
            check_index(statement, env)
        case stmt.Drop():
            env.report(
                error(
                    Code.DROP_STATEMENT,
                    "A program does not run DROP statements: it declares what its pipeline has",
                    statement.span,
                    hint=f"to drop '{statement.name.value}', delete the statement that "
                    "creates it and deploy the program",
                )
            )
        case stmt.DeclareRecursiveView():
            env.not_supported(
                "Feldera's recursive views (DECLARE RECURSIVE VIEW); write the recursion in "
                "one view, as WITH RECURSIVE name AS (anchor UNION step)",
                statement.span,
            )
        case stmt.LatenessStatement():
            pass  # collected before the statements (see semantic/lateness.py)
        case stmt.QueryStatement():
            return _bind_view(_as_view(statement, env.own_name()), env)
        case stmt.IncompleteStatement() if statement.function is not None:
            # Its syntax error is reported: calls of the function stay silent.
            return Outcome(function_name=abandoned_function(statement.function, env))
        case stmt.IncompleteStatement():
            pass  # its syntax error is reported; its name is declared by the caller
    return Outcome()


def query_names(taken: Collection[str], count: int) -> list[str]:
    """The names of `count` queries written as statements: `query_1`, `query_2`, ...
    but for the names in `taken` (the relations the program declares).

    >>> query_names({"query_2", "orders"}, 3)
    ['query_1', 'query_3', 'query_4']
    """
    free = (name for n in itertools.count(1) if (name := f"query_{n}") not in taken)
    return list(itertools.islice(free, count))


def _named_queries(statements: Statements) -> list[ast.Identifier | None]:
    """What each statement declares: its relation, or for a query its `query_names`
    name (spanning the query)."""
    names = [statements.declared_name(index) for index in range(len(statements))]
    spans = [statements.query_span(index) for index in range(len(statements))]
    taken = {name.value for name in names if name is not None}
    free = iter(query_names(taken, sum(span is not None for span in spans)))
    return [
        name if span is None else ast.Identifier(next(free), False, span)
        for name, span in zip(names, spans, strict=True)
    ]


def _as_view(statement: stmt.QueryStatement, name: str) -> stmt.CreateView:
    """A query written as a statement: the view `CREATE VIEW name AS query`."""
    identifier = ast.Identifier(name, False, statement.span)
    return stmt.CreateView(identifier, None, (), None, (), statement.query, statement.span)


def _declarations(names: list[ast.Identifier | None]) -> dict[str, Span]:
    first: dict[str, Span] = {}
    for name in names:
        if name is not None:
            first.setdefault(name.value, name.span)
    return first


def declared_name(statement: stmt.Statement) -> ast.Identifier | None:
    """The relation a statement declares by name (an abandoned CREATE's too), if any."""
    match statement:
        case stmt.CreateTable() | stmt.CreateStream() | stmt.CreateView():
            return statement.name
        case stmt.IncompleteStatement():
            return statement.declares
    return None


def query_span(statement: stmt.Statement) -> Span | None:
    """Where a query written as a statement is (a view without a name), if it is one."""
    return statement.span if isinstance(statement, stmt.QueryStatement) else None


def _declare(name: ast.Identifier, declared: dict[str, Span], env: Environment) -> bool:
    first = declared.get(name.value)
    if first is None:
        declared[name.value] = name.span
        return True
    env.report(
        error(
            Code.DUPLICATE_RELATION,
            f"'{name.value}' is already declared",
            name.span,
            notes=(Note(f"'{name.value}' is first declared here", first),),
            hint="every table, stream and view needs its own name",
        )
    )
    return False


# ---------------------------------------------------------------- views


def _bind_view(statement: stmt.CreateView, env: Environment) -> Outcome:
    bound = bind_statement_query(statement.query, env)
    properties = check_properties(statement.properties, "view", env)
    if bound is None:
        return Outcome()
    names = tuple(column.name for column in bound.columns)
    spans = bound.spans
    if statement.columns:
        if len(statement.columns) != len(names):
            env.report(
                error(
                    Code.COLUMN_COUNT,
                    f"View '{statement.name.value}' names {len(statement.columns)} columns "
                    f"but its query produces {len(names)}",
                    statement.columns_span or statement.name.span,
                )
            )
            return Outcome()
        names = tuple(column.value for column in statement.columns)
        spans = tuple(column.span for column in statement.columns)
        bound = with_column_names(bound, names)
    stars = frozenset() if statement.columns else _star_spans(statement.query)
    unique = _star_names_made_unique(names, spans, stars)
    if unique != names:
        names, bound = unique, with_column_names(bound, unique)
    if not _check_distinct_names(names, spans, env):
        return Outcome()
    emit_final = _emit_final(statement, properties, names, env)
    columns = attach_lateness(
        statement.name.value,
        tuple(
            Column(field.name, field.type, field.nullable, span)
            for field, span in zip(bound.columns, spans, strict=True)
        ),
        env,
    )
    relation = Relation(
        name=statement.name.value,
        kind=RelationKind.VIEW,
        columns=columns,
        span=statement.name.span,
        materialized=statement.modifier == "materialized",
        local=statement.modifier == "local",
        emit_final=emit_final,
        properties=properties.as_pairs(),
    )
    item = properties.get("emit_final")
    view = plan.ViewPlan(
        relation.name,
        bound.columns,
        bound.rel,
        relation.local,
        emit_final=emit_final,
        relation=relation,
        stream=is_stream(statement.query),
        emit_final_span=item.value_span if item is not None else None,
    )
    return Outcome(relation, view)


def _star_names_made_unique(
    names: tuple[str, ...], spans: tuple[Span, ...], stars: frozenset[Span]
) -> tuple[str, ...]:
    """A column a `*` gives under a name taken before it gets a number, as Calcite (and so
    Feldera) names it: `SELECT * FROM a JOIN b` over two columns `id` gives `id` and
    `id0` (then `id1`, ...). Names written out twice stay an error (SQL205).

    >>> _star_names_made_unique(("id", "x", "id", "id"), (Span(0, 1),) * 4,
    ...                         frozenset({Span(0, 1)}))
    ('id', 'x', 'id0', 'id1')
    """
    taken: set[str] = set()
    unique = []
    for name, span in zip(names, spans, strict=True):
        if name in taken and span in stars:
            attempt = 0
            while f"{name}{attempt}" in taken or f"{name}{attempt}" in names:
                attempt += 1
            name = f"{name}{attempt}"
        taken.add(name)
        unique.append(name)
    return tuple(unique)


def _check_distinct_names(
    names: tuple[str, ...], spans: tuple[Span, ...], env: Environment
) -> bool:
    first: dict[str, Span] = {}
    distinct = True
    for name, span in zip(names, spans, strict=True):
        if name in first:
            env.report(
                error(
                    Code.DUPLICATE_COLUMN,
                    f"Duplicate column '{name}' in the view",
                    span,
                    notes=(Note(f"'{name}' is first defined here", first[name]),),
                    hint="give each column its own name with AS",
                )
            )
            distinct = False
        else:
            first[name] = span
    return distinct


def _star_spans(query: ast.Query) -> frozenset[Span]:
    """The `*` items of the SELECT that names the query's columns (a set operation's
    first)."""
    body = query.body
    while not isinstance(body, ast.Select | ast.Values):
        body = body.body if isinstance(body, ast.Query) else body.left
    if isinstance(body, ast.Values):
        return frozenset()
    return frozenset(item.span for item in body.items if isinstance(item, ast.StarItem))


def _emit_final(
    statement: stmt.CreateView, properties: Properties, names: tuple[str, ...], env: Environment
) -> int | None:
    """The index of the `emit_final` column: a column name, or a 0-based number."""
    item = properties.get("emit_final")
    if item is None:
        return None
    if statement.modifier == "local":
        env.report(
            error(
                Code.INVALID_DEFINITION,
                "'emit_final' is not allowed on a LOCAL view",
                item.key_span,
            )
        )
        return None
    value = item.value
    if value.isascii() and value.isdigit() and len(value) < 10 and int(value) < len(names):
        return int(value)
    if value in names:
        return names.index(value)
    env.report(
        error(
            Code.UNKNOWN_COLUMN,
            f"'emit_final' names no column of view '{statement.name.value}': '{value}'",
            item.value_span,
            hint=did_you_mean(value, names, env.suggestions),
        )
    )
    return None
