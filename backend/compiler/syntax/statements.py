"""The syntax tree of statements: CREATE TABLE / STREAM / VIEW / PUMP, INSERT, ...

Expressions and queries inside them are the nodes of `ast.py`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from backend.compiler.source import Span
from backend.compiler.syntax.ast import Expr, Identifier, Query, TypeName


@dataclass(frozen=True, slots=True)
class NotNullConstraint:
    span: Span


@dataclass(frozen=True, slots=True)
class NullConstraint:
    span: Span


@dataclass(frozen=True, slots=True)
class PrimaryKeyMark:
    span: Span


@dataclass(frozen=True, slots=True)
class LatenessConstraint:
    expr: Expr
    span: Span


@dataclass(frozen=True, slots=True)
class WatermarkConstraint:
    expr: Expr
    span: Span


@dataclass(frozen=True, slots=True)
class DefaultConstraint:
    expr: Expr
    span: Span


@dataclass(frozen=True, slots=True)
class ReferencesMark:
    """`[FOREIGN KEY] REFERENCES table [(column)]` on a column: a one-column foreign key."""

    table: Identifier
    referenced: tuple[Identifier, ...]
    span: Span


ColumnConstraint = (
    NotNullConstraint
    | NullConstraint
    | PrimaryKeyMark
    | LatenessConstraint
    | WatermarkConstraint
    | DefaultConstraint
    | ReferencesMark
)


@dataclass(frozen=True, slots=True)
class ColumnDef:
    name: Identifier
    type: TypeName
    constraints: tuple[ColumnConstraint, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class PrimaryKey:
    columns: tuple[Identifier, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class ForeignKey:
    columns: tuple[Identifier, ...]
    table: Identifier
    referenced: tuple[Identifier, ...]
    span: Span


TableConstraint = PrimaryKey | ForeignKey


@dataclass(frozen=True, slots=True)
class Property:
    """`'key' = 'value'` in a WITH list."""

    key: str
    value: str
    key_span: Span
    value_span: Span


@dataclass(frozen=True, slots=True)
class CreateTable:
    name: Identifier
    columns: tuple[ColumnDef, ...]
    constraints: tuple[TableConstraint, ...]
    properties: tuple[Property, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class CreateStream:
    name: Identifier
    foreign: bool
    columns: tuple[ColumnDef, ...]
    constraints: tuple[TableConstraint, ...]
    properties: tuple[Property, ...]
    span: Span
    # A FOREIGN STREAM's connector: SERVER name OPTIONS (key 'value', ...) (SQL/MED).
    server: Identifier | None = None
    options: tuple[Property, ...] = ()


@dataclass(frozen=True, slots=True)
class CreateView:
    name: Identifier
    modifier: Literal["local", "materialized"] | None
    columns: tuple[Identifier, ...]
    columns_span: Span | None
    properties: tuple[Property, ...]
    query: Query
    span: Span


@dataclass(frozen=True, slots=True)
class Insert:
    target: Identifier
    columns: tuple[Identifier, ...]
    query: Query
    span: Span


@dataclass(frozen=True, slots=True)
class CreatePump:
    name: Identifier
    state: Literal["started", "stopped"] | None
    insert: Insert
    span: Span


@dataclass(frozen=True, slots=True)
class Drop:
    """`DROP [FOREIGN] STREAM | TABLE | VIEW | PUMP [IF EXISTS] name` (SQLstream's DDL)."""

    name: Identifier
    span: Span


@dataclass(frozen=True, slots=True)
class DeclareRecursiveView:
    """`DECLARE RECURSIVE VIEW name (column type, ...)` (Feldera's forward declaration of
    a recursive view; `CREATE RECURSIVE VIEW` in its older documents): not supported."""

    name: Identifier
    span: Span


@dataclass(frozen=True, slots=True)
class FunctionParameter:
    name: Identifier
    type: TypeName
    not_null: bool
    span: Span


@dataclass(frozen=True, slots=True)
class CreateFunction:
    """`CREATE FUNCTION name(p TYPE [NOT NULL], ...) RETURNS TYPE [NOT NULL] [AS expr]`
    (Feldera's). Without a body it declares a function written in Rust."""

    name: Identifier
    parameters: tuple[FunctionParameter, ...]
    returns: TypeName
    returns_not_null: bool
    body: Expr | None
    span: Span


@dataclass(frozen=True, slots=True)
class CreateType:
    """`CREATE TYPE name AS (field TYPE [NOT NULL], ...)` (a ROW type of those fields,
    nullable unless NOT NULL, as Calcite's and Feldera's structs) or `CREATE TYPE name
    AS TYPE`: a name for a type, usable wherever a type is written."""

    name: Identifier
    type: TypeName
    span: Span


@dataclass(frozen=True, slots=True)
class LatenessStatement:
    """`LATENESS view.column expr;` (Feldera, for views)."""

    relation: Identifier
    column: Identifier
    expr: Expr
    span: Span


@dataclass(frozen=True, slots=True)
class QueryStatement:
    query: Query
    span: Span


@dataclass(frozen=True, slots=True)
class IncompleteStatement:
    """A statement abandoned after a syntax error (already reported).

    `declares` is the relation it was creating, when the parser got that far: the
    binder treats the name as declared so later references do not cascade;
    `function` is the same for a CREATE FUNCTION.
    """

    declares: Identifier | None
    span: Span
    function: Identifier | None = None


@dataclass(frozen=True, slots=True)
class CreateIndex:
    """`CREATE INDEX name ON view (column, ...)`: Feldera's unique key of an output view."""

    name: Identifier
    relation: Identifier
    columns: tuple[Identifier, ...]
    span: Span


Statement = (
    CreateTable
    | CreateStream
    | CreateView
    | CreatePump
    | CreateFunction
    | CreateType
    | CreateIndex
    | Insert
    | Drop
    | DeclareRecursiveView
    | LatenessStatement
    | QueryStatement
    | IncompleteStatement
)


@dataclass(frozen=True, slots=True)
class Program:
    statements: tuple[Statement, ...]
    span: Span
