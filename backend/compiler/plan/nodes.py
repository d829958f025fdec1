"""The typed logical plan: relational operators over typed expressions.

The binder builds it from the syntax tree; `lower/spec.py` serialises it into the
Plan JSON of docs/contracts.md. A column reference is an index into the columns
of the operator's input, so the plan never needs names to be resolved again.
"""

from __future__ import annotations

from dataclasses import dataclass

from backend.compiler.semantic.catalog import Relation
from backend.compiler.semantic.types import SqlType
from backend.compiler.source import Span

# A literal's value as JSON: DECIMAL, DATE, TIME and TIMESTAMP values are strings,
# intervals are integers (microseconds, or months for YEAR TO MONTH).
LiteralValue = int | float | str | bool | None


@dataclass(frozen=True, slots=True)
class Field:
    """One output column of an operator."""

    name: str
    type: SqlType
    nullable: bool


# ---------------------------------------------------------------- expressions


@dataclass(frozen=True, slots=True)
class ColumnRef:
    index: int
    name: str
    type: SqlType
    nullable: bool
    span: Span


@dataclass(frozen=True, slots=True)
class Literal:
    value: LiteralValue
    type: SqlType
    nullable: bool
    span: Span


@dataclass(frozen=True, slots=True)
class Call:
    """A function of the contract's list: `and`, `eq`, `add`, `upper`, ..."""

    function: str
    args: tuple[Expr, ...]
    type: SqlType
    nullable: bool
    span: Span


@dataclass(frozen=True, slots=True)
class Cast:
    operand: Expr
    type: SqlType
    nullable: bool
    span: Span


Expr = ColumnRef | Literal | Call | Cast


# ---------------------------------------------------------------- relations


@dataclass(frozen=True, slots=True)
class Scan:
    relation: str
    columns: tuple[Field, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Filter:
    input: Rel
    condition: Expr
    columns: tuple[Field, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Project:
    input: Rel
    exprs: tuple[Expr, ...]
    columns: tuple[Field, ...]
    span: Span


Rel = Scan | Filter | Project


@dataclass(frozen=True, slots=True)
class ViewPlan:
    name: str
    columns: tuple[Field, ...]
    query: Rel
    local: bool = False  # computed for other views, never published


@dataclass(frozen=True, slots=True)
class Plan:
    """What the runner executes: the input relations and every view, in program order."""

    inputs: tuple[Relation, ...]
    views: tuple[ViewPlan, ...]
