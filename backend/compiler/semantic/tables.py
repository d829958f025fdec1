"""Binding CREATE TABLE and CREATE STREAM into catalog relations."""

from __future__ import annotations

from dataclasses import dataclass, replace

from backend.compiler.diagnostics import Code, Note, error
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import types
from backend.compiler.semantic.catalog import Column, Relation, RelationKind
from backend.compiler.semantic.environment import Environment
from backend.compiler.semantic.expressions import ExprContext, bind_expr
from backend.compiler.semantic.properties import check_properties
from backend.compiler.semantic.scope import Scope
from backend.compiler.semantic.type_names import fixed_length, resolve_type
from backend.compiler.source import Span
from backend.compiler.suggest import did_you_mean
from backend.compiler.syntax import ast
from backend.compiler.syntax import statements as stmt

ROWTIME = "rowtime"


@dataclass(frozen=True, slots=True)
class BoundTable:
    relation: Relation
    # Columns whose type is unknown (reported): left out of `relation`, and
    # references to them stay silent instead of cascading.
    broken_columns: frozenset[str]


def bind_table(statement: stmt.CreateTable | stmt.CreateStream, env: Environment) -> BoundTable:
    """The relation a CREATE TABLE / CREATE STREAM declares.

    Errors (a bad property, a bad LATENESS, an unknown type) are reported and the
    relation is still declared, so the views that use it keep being checked.
    """
    is_stream = isinstance(statement, stmt.CreateStream)
    columns: list[Column] = []
    declared_at: dict[str, Span] = {}
    if is_stream:
        # Every stream carries its clock as a first, implicit column (SQLstream).
        columns.append(Column(ROWTIME, types.TIMESTAMP, False, statement.name.span))
        declared_at[ROWTIME] = statement.name.span
    broken: set[str] = set()
    primary_key: list[ast.Identifier] = []
    key_declared_at: Span | None = None
    for definition in statement.columns:
        column = _bind_column(definition, env)
        if _is_duplicate(definition.name, declared_at, env, is_stream):
            continue
        declared_at[definition.name.value] = definition.name.span
        if column is None:
            broken.add(definition.name.value)
        else:
            columns.append(column)
        for constraint in definition.constraints:
            if isinstance(constraint, stmt.PrimaryKeyMark) and _is_first_key(
                constraint.span, key_declared_at, env
            ):
                key_declared_at, primary_key = constraint.span, [definition.name]
    for table_constraint in statement.constraints:
        if isinstance(table_constraint, stmt.ForeignKey):
            env.not_supported("FOREIGN KEY", table_constraint.span)
            continue
        if _is_first_key(table_constraint.span, key_declared_at, env):
            key_declared_at, primary_key = table_constraint.span, list(table_constraint.columns)
    key = _check_key_columns(primary_key, declared_at, env)
    _check_one_watermark(statement, env)
    if is_stream and key_declared_at is not None:
        env.report(
            error(
                Code.INVALID_DEFINITION,
                "A stream cannot have a PRIMARY KEY: streams are append-only",
                key_declared_at,
            )
        )
    properties = check_properties(statement.properties, "stream" if is_stream else "table", env)
    # A primary key column cannot hold NULL (standard SQL makes it NOT NULL).
    final_columns = tuple(replace(c, nullable=False) if c.name in key else c for c in columns)
    relation = Relation(
        name=statement.name.value,
        kind=RelationKind.STREAM if is_stream else RelationKind.TABLE,
        columns=final_columns,
        span=statement.name.span,
        primary_key=() if is_stream else key,
        append_only=is_stream or properties.flag("append_only"),
        materialized=properties.flag("materialized"),
        properties=properties.as_pairs(),
        foreign=_foreign(statement),
    )
    return BoundTable(relation, frozenset(broken))


def _foreign(
    statement: stmt.CreateTable | stmt.CreateStream,
) -> tuple[str | None, tuple[tuple[str, str], ...]] | None:
    """A FOREIGN STREAM's connector: its server and options, kept as written."""
    if not isinstance(statement, stmt.CreateStream) or not statement.foreign:
        return None
    server = statement.server.value if statement.server is not None else None
    return server, tuple((option.key, option.value) for option in statement.options)


def _bind_column(definition: stmt.ColumnDef, env: Environment) -> Column | None:
    sql_type = resolve_type(definition.type, env.diagnostics, env.suggestions)
    nullable = True
    lateness: plan.Expr | None = None
    watermark: plan.Expr | None = None
    seen: dict[type, Span] = {}
    for constraint in definition.constraints:
        kind = type(constraint)
        if kind in (stmt.NotNullConstraint, stmt.NullConstraint):
            kind = stmt.NotNullConstraint  # NULL and NOT NULL conflict with each other
        if kind in seen:
            env.report(
                error(
                    Code.INVALID_DEFINITION,
                    f"Column '{definition.name.value}' has conflicting or repeated constraints",
                    constraint.span,
                    notes=(Note("first constraint here", seen[kind]),),
                )
            )
            continue
        seen[kind] = constraint.span
        match constraint:
            case stmt.NotNullConstraint():
                nullable = False
            case stmt.NullConstraint():
                nullable = True
            case stmt.LatenessConstraint():
                lateness = _bind_delay(constraint.expr, "LATENESS", definition, sql_type, env)
            case stmt.WatermarkConstraint():
                watermark = _bind_delay(constraint.expr, "WATERMARK", definition, sql_type, env)
            case stmt.DefaultConstraint():
                env.not_supported("DEFAULT values", constraint.span)
    if sql_type is None:
        return None
    return Column(
        definition.name.value,
        sql_type,
        nullable,
        definition.name.span,
        lateness,
        watermark,
        length=fixed_length(definition.type),
    )


def _bind_delay(
    expr: ast.Expr,
    clause: str,
    definition: stmt.ColumnDef,
    column_type: types.SqlType | None,
    env: Environment,
) -> plan.Expr | None:
    """A LATENESS or WATERMARK value: a constant that can be subtracted from the column."""
    ctx = ExprContext(
        Scope(), env.diagnostics, env.suggestions, constant_clause=clause, functions=env
    )
    bound = bind_expr(expr, ctx)
    if bound is None or column_type is None:
        return None
    if types.arithmetic_type("-", column_type, bound.type) is None:
        env.report(
            error(
                Code.TYPE_MISMATCH,
                f"{clause} of type {bound.type} cannot be subtracted from "
                f"{column_type} column '{definition.name.value}'",
                expr.span,
                hint="a TIMESTAMP column takes an INTERVAL, such as INTERVAL '1' HOUR"
                if types.is_datetime(column_type)
                else None,
            )
        )
        return None
    return bound


def _is_duplicate(
    name: ast.Identifier, declared_at: dict[str, Span], env: Environment, is_stream: bool
) -> bool:
    first = declared_at.get(name.value)
    if first is None:
        return False
    if is_stream and name.value == ROWTIME:
        message = "Duplicate column 'rowtime': every stream has an implicit rowtime column"
        note = Note("the implicit 'rowtime TIMESTAMP NOT NULL' column of this stream", first)
    else:
        message = f"Duplicate column '{name.value}'"
        note = Note(f"'{name.value}' is first declared here", first)
    env.report(error(Code.DUPLICATE_COLUMN, message, name.span, notes=(note,)))
    return True


def _is_first_key(span: Span, first: Span | None, env: Environment) -> bool:
    """True for the first PRIMARY KEY of a relation; any later one is an error."""
    if first is None:
        return True
    env.report(
        error(
            Code.INVALID_DEFINITION,
            "A relation can have only one PRIMARY KEY",
            span,
            notes=(Note("the first PRIMARY KEY", first),),
        )
    )
    return False


def _check_key_columns(
    key: list[ast.Identifier], declared_at: dict[str, Span], env: Environment
) -> tuple[str, ...]:
    names: list[str] = []
    for column in key:
        if column.value not in declared_at:
            env.report(
                error(
                    Code.UNKNOWN_COLUMN,
                    f"Unknown column '{column.value}' in PRIMARY KEY",
                    column.span,
                    hint=did_you_mean(column.value, declared_at, env.suggestions),
                )
            )
        elif column.value in names:
            env.report(
                error(
                    Code.INVALID_DEFINITION,
                    f"Column '{column.value}' appears twice in the PRIMARY KEY",
                    column.span,
                )
            )
        else:
            names.append(column.value)
    return tuple(names)


def _check_one_watermark(statement: stmt.CreateTable | stmt.CreateStream, env: Environment) -> None:
    """Feldera compiles at most one WATERMARK column per table."""
    marks = [
        constraint.span
        for definition in statement.columns
        for constraint in definition.constraints
        if isinstance(constraint, stmt.WatermarkConstraint)
    ]
    for span in marks[1:]:
        env.report(
            error(
                Code.MULTIPLE_WATERMARKS,
                "A table can have only one WATERMARK column",
                span,
                notes=(Note("the first WATERMARK", marks[0]),),
            )
        )
