"""The catalog: every relation a program declares, with its columns and properties."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from backend.compiler.semantic.types import SqlType
from backend.compiler.source import Span

if TYPE_CHECKING:
    from backend.compiler.plan.nodes import Expr
    from backend.compiler.syntax import ast


class RelationKind(StrEnum):
    TABLE = "table"
    STREAM = "stream"
    VIEW = "view"


@dataclass(frozen=True, slots=True)
class Column:
    name: str
    type: SqlType
    nullable: bool
    span: Span  # where the column is declared (or the expression that defines it)
    lateness: Expr | None = None  # constant, subtracted from the column's maximum
    watermark: Expr | None = None
    waterline: bool = False  # inferred: the column has a waterline (analysis/waterlines.py)
    # A table's CHAR(n) or VARCHAR(n) column: ("char" | "varchar", n) (the ingress pads
    # or refuses its values, backend/pipelines/ingress.py); its type is VARCHAR.
    length: tuple[str, int] | None = None
    # A table's DEFAULT: the value (as a change carries it, JSON) the ingress gives the
    # column when a row leaves it out.
    default: Default | None = None


@dataclass(frozen=True, slots=True)
class Default:
    value: int | float | str | bool | None


@dataclass(frozen=True, slots=True)
class Relation:
    name: str
    kind: RelationKind
    columns: tuple[Column, ...]
    span: Span  # the name in its CREATE statement
    primary_key: tuple[str, ...] = ()
    append_only: bool = False
    materialized: bool = False
    local: bool = False  # LOCAL views are not outputs of the pipeline
    emit_final: int | None = None  # index of the emit_final column of a view
    properties: tuple[tuple[str, str], ...] = ()
    output_mode: str | None = None  # views: "append" | "update"
    # Views: whether the query never retracts (what views reading it see,
    # whatever emit_final does to its own output).
    insert_only: bool = False
    # FOREIGN STREAM: its connector (server name and options); None otherwise.
    foreign: tuple[str | None, tuple[tuple[str, str], ...]] | None = None
    _index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index: dict[str, int] = {}
        for position, column in enumerate(self.columns):
            index.setdefault(column.name, position)
        object.__setattr__(self, "_index", index)

    def column_index(self, name: str) -> int | None:
        return self._index.get(name)


@dataclass(frozen=True, slots=True)
class Pump:
    """A pump of the program: a flow from its sources into `target`."""

    name: str
    target: str
    started: bool  # as created: STOPPED pumps wait for a start
    sources: tuple[str, ...]  # the relations its query reads
    span: Span


@dataclass(frozen=True, slots=True)
class Parameter:
    name: str
    type: SqlType
    nullable: bool  # not declared NOT NULL


@dataclass(frozen=True, slots=True)
class UserFunction:
    """A `CREATE FUNCTION ... AS body` that bound: a call is its body over the
    arguments (semantic/user_functions.py)."""

    name: str
    parameters: tuple[Parameter, ...]
    returns: SqlType
    returns_nullable: bool
    body: ast.Expr  # checked where the function is defined
    span: Span  # the name in its CREATE statement

    def signature(self) -> str:
        """As a message shows it: `COUNT_CHAR(s VARCHAR, c VARCHAR) RETURNS INTEGER`."""
        parameters = ", ".join(
            f"{p.name} {p.type}{'' if p.nullable else ' NOT NULL'}" for p in self.parameters
        )
        returns = f"{self.returns}{'' if self.returns_nullable else ' NOT NULL'}"
        return f"{self.name.upper()}({parameters}) RETURNS {returns}"


@dataclass(frozen=True)
class Catalog:
    """Relations in program order; names are unique. Pumps, in program order."""

    relations: tuple[Relation, ...] = ()
    pumps: tuple[Pump, ...] = ()
    _by_name: dict[str, Relation] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_name", {r.name: r for r in self.relations})

    def get(self, name: str) -> Relation | None:
        return self._by_name.get(name)
