"""Binding CREATE TABLE and CREATE STREAM into catalog relations."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from backend.compiler.diagnostics import Code, Note, error, warning
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import types
from backend.compiler.semantic.catalog import Column, Default, Relation, RelationKind
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
    foreign_keys = [c for c in statement.constraints if isinstance(c, stmt.ForeignKey)]
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
            if isinstance(constraint, stmt.ReferencesMark):
                foreign_keys.append(
                    stmt.ForeignKey(
                        (definition.name,), constraint.table, constraint.referenced, constraint.span
                    )
                )
    for table_constraint in statement.constraints:
        if isinstance(table_constraint, stmt.ForeignKey):
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
    for foreign_key in foreign_keys:
        _check_foreign_key(foreign_key, relation, broken, env)
    return BoundTable(relation, frozenset(broken))


def _check_foreign_key(
    foreign_key: stmt.ForeignKey, relation: Relation, broken: set[str], env: Environment
) -> None:
    """A FOREIGN KEY refers to the PRIMARY KEY of a table (this one or one declared
    before), column for column, with the same types (Feldera's rule; its columns may
    be nullable). Like Feldera, Weir does not check the rows: a key with no row in
    the other table is accepted."""
    own = foreign_key.table.value == relation.name
    target = relation if own else env.lookup(foreign_key.table)
    if target is None:
        return
    if target.kind is not RelationKind.TABLE or not target.primary_key:
        has_rows = target.kind is RelationKind.TABLE
        what = "a table without a PRIMARY KEY" if has_rows else "not a table"
        env.report(
            error(
                Code.INVALID_DEFINITION,
                f"A FOREIGN KEY refers to a table's PRIMARY KEY: '{target.name}' is {what}",
                foreign_key.table.span,
            )
        )
        return
    referenced = [c.value for c in foreign_key.referenced] or list(target.primary_key)
    if sorted(referenced) != sorted(target.primary_key):
        env.report(
            error(
                Code.INVALID_DEFINITION,
                f"A FOREIGN KEY refers to the PRIMARY KEY of '{target.name}': "
                f"({', '.join(target.primary_key)})",
                foreign_key.span,
            )
        )
        return
    if len(foreign_key.columns) != len(referenced):
        env.report(
            error(
                Code.INVALID_DEFINITION,
                f"The FOREIGN KEY has {len(foreign_key.columns)} columns, the PRIMARY KEY "
                f"of '{target.name}' {len(referenced)}",
                foreign_key.span,
            )
        )
        return
    own_columns = {c.name: c for c in relation.columns}
    target_columns = {c.name: c for c in target.columns}
    for column, other in zip(foreign_key.columns, referenced, strict=True):
        mine = own_columns.get(column.value)
        if mine is None:
            if column.value not in broken:
                env.report(
                    error(
                        Code.UNKNOWN_COLUMN,
                        f"Unknown column '{column.value}' in FOREIGN KEY",
                        column.span,
                        hint=did_you_mean(column.value, own_columns, env.suggestions),
                    )
                )
            continue
        theirs = target_columns[other]
        if mine.type != theirs.type:
            env.report(
                error(
                    Code.TYPE_MISMATCH,
                    f"FOREIGN KEY column '{column.value}' is {mine.type}; the column "
                    f"'{other}' of '{target.name}' it refers to is {theirs.type}",
                    column.span,
                )
            )


def _foreign(
    statement: stmt.CreateTable | stmt.CreateStream,
) -> tuple[str | None, tuple[tuple[str, str], ...]] | None:
    """A FOREIGN STREAM's connector: its server and options, kept as written."""
    if not isinstance(statement, stmt.CreateStream) or not statement.foreign:
        return None
    server = statement.server.value if statement.server is not None else None
    return server, tuple((option.key, option.value) for option in statement.options)


def _bind_column(definition: stmt.ColumnDef, env: Environment) -> Column | None:
    sql_type = resolve_type(definition.type, env.diagnostics, env.suggestions, env.user_type)
    nullable = True
    lateness: plan.Expr | None = None
    watermark: plan.Expr | None = None
    default: Default | None = None
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
                default = _bind_default(constraint.expr, definition, sql_type, env)
    if sql_type is None:
        return None
    if default is not None and default.value is None and not nullable:
        env.report(
            error(
                Code.TYPE_MISMATCH,
                f"The DEFAULT of NOT NULL column '{definition.name.value}' cannot be NULL",
                definition.span,
            )
        )
    return Column(
        definition.name.value,
        sql_type,
        nullable,
        definition.name.span,
        lateness,
        watermark,
        length=fixed_length(definition.type),
        default=default,
    )


def _bind_default(
    expr: ast.Expr, definition: stmt.ColumnDef, column_type: types.SqlType | None, env: Environment
) -> Default | None:
    """A DEFAULT value: a literal (`5`, `-1.5`, `'x'`, `DATE '2020-01-01'`, `NULL`, or
    one cast to the column's type) of a type the column takes."""
    ctx = ExprContext(
        Scope(), env.diagnostics, env.suggestions, constant_clause="DEFAULT", functions=env
    )
    bound = bind_expr(expr, ctx)
    if bound is None or column_type is None:
        return None
    value = _literal_value(bound)
    if value is None:
        env.report(
            error(
                Code.NOT_SUPPORTED,
                "Not supported yet: a DEFAULT that is not a literal value",
                expr.span,
                hint="write the value itself, such as DEFAULT 0 or DEFAULT DATE '2020-01-01'",
            )
        )
        return None
    if not types.is_null(bound.type) and types.common_type(bound.type, column_type) is None:
        env.report(
            error(
                Code.TYPE_MISMATCH,
                f"A DEFAULT of type {bound.type} cannot go in {column_type} column "
                f"'{definition.name.value}'",
                expr.span,
            )
        )
        return None
    return value


def _literal_value(expr: plan.Expr) -> Default | None:
    """The JSON value of a literal, a negated number or a cast literal; None otherwise."""
    match expr:
        case plan.Literal(value=value) if not types.is_interval(expr.type):
            return Default(value)
        case plan.Call(function="neg", args=(plan.Literal(value=int() | float() as n),)):
            return Default(-n)
        case plan.Call(function="neg", args=(plan.Literal(value=str() as n),)) if (
            types.is_exact_numeric(expr.type)
        ):
            return Default(n[1:] if n.startswith("-") else "-" + n)
        case plan.Cast(operand=inner) if _written_alike(inner.type, expr.type):
            return _literal_value(inner)
    return None


def _written_alike(source: types.SqlType, target: types.SqlType) -> bool:
    """Whether a change carries a `target` value as a `source` literal's value is written:
    numbers as numbers, and dates, times, timestamps and decimals as strings."""
    if types.common_type(source, target) is not None:
        return True
    return types.is_string(source) and (
        types.is_datetime(target) or target.kind is types.TypeKind.DECIMAL
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
    return _known_once(key, declared_at, "PRIMARY KEY", "the PRIMARY KEY", env)


def _known_once(
    columns: Sequence[ast.Identifier],
    known: Collection[str],
    where: str,
    within: str,
    env: Environment,
) -> tuple[str, ...]:
    """The names of `columns` (a PRIMARY KEY's, an index's), each a known column once:
    an unknown one (`Unknown column 'x' in <where>`) or a repeat (`Column 'x' appears
    twice in <within>`) is reported and left out."""
    names: list[str] = []
    for column in columns:
        if column.value not in known:
            env.report(
                error(
                    Code.UNKNOWN_COLUMN,
                    f"Unknown column '{column.value}' in {where}",
                    column.span,
                    hint=did_you_mean(column.value, known, env.suggestions),
                )
            )
        elif column.value in names:
            env.report(
                error(
                    Code.INVALID_DEFINITION,
                    f"Column '{column.value}' appears twice in {within}",
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


def check_index(statement: stmt.CreateIndex, env: Environment) -> None:
    """`CREATE INDEX name ON view (columns)` names a unique key of an output view, as
    in Feldera, where output connectors may use it. Neither Feldera nor Weir checks
    the rows against it: the statement is checked, and changes nothing else."""
    relation = env.lookup(statement.relation)
    if relation is None:
        return
    if relation.kind is not RelationKind.VIEW:
        env.report(
            error(
                Code.INVALID_DEFINITION,
                f"CREATE INDEX names a view: '{relation.name}' is a {relation.kind}",
                statement.relation.span,
            )
        )
        return
    if "emit_final" in dict(relation.properties):
        env.report(
            error(
                Code.INVALID_DEFINITION,
                f"View '{relation.name}' has an 'emit_final' property, so it cannot have an "
                "index (as in Feldera)",
                statement.relation.span,
            )
        )
        return
    if relation.local:
        env.report(
            warning(
                Code.INVALID_DEFINITION,
                f"An index of the LOCAL view '{relation.name}' has no effect: "
                "a LOCAL view is not an output",
                statement.relation.span,
            )
        )
    known = [c.name for c in relation.columns]
    _known_once(statement.columns, known, f"the index of '{relation.name}'", "the index", env)
