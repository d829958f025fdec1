"""Name resolution inside a query: which FROM entry a column name refers to.

A scope is the FROM clause seen as one wide row: each entry contributes its
columns at an offset. An entry whose columns are unknown (its table does not
exist, or it is a construct not compiled yet) is *opaque*: an error was already
reported for it, so names that could belong to it resolve silently to nothing
instead of producing a cascade of "unknown column" errors.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from backend.compiler.diagnostics import Code, Diagnostic, Note, error
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import types
from backend.compiler.semantic.rows import field_access
from backend.compiler.source import Span
from backend.compiler.suggest import Budget, did_you_mean
from backend.compiler.syntax import ast


@dataclass(frozen=True, slots=True)
class ScopeEntry:
    alias: str  # the name that qualifies its columns: `o` in `FROM orders o`
    alias_span: Span
    description: str  # for messages: "table 'orders'"
    columns: tuple[plan.Field, ...] | None  # None: opaque
    offset: int
    # Columns that exist but whose type is unknown: references resolve silently.
    broken: frozenset[str] = frozenset()
    # Column name -> position; built from `columns` unless given (a relation's is
    # built once and shared by every FROM that names it).
    index: Mapping[str, int] | None = field(default=None, repr=False, compare=False)
    # Columns an unqualified name or `*` does not see (the right side of JOIN USING).
    hidden: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if self.index is None:
            object.__setattr__(self, "index", column_index(self.columns or ()))

    def find(self, name: str) -> int | None:
        assert self.index is not None
        return self.index.get(name)

    @property
    def names(self) -> list[str]:
        """Every column name, including those whose type is unknown."""
        return [column.name for column in self.columns or ()] + sorted(self.broken)

    @property
    def width(self) -> int:
        return len(self.columns or ())


def column_index(columns: tuple[plan.Field, ...]) -> dict[str, int]:
    """Name -> position of the first column with that name."""
    index: dict[str, int] = {}
    for position, column in enumerate(columns):
        index.setdefault(column.name, position)
    return index


@dataclass(frozen=True, slots=True)
class Scope:
    entries: tuple[ScopeEntry, ...] = ()

    @property
    def columns(self) -> tuple[plan.Field, ...]:
        return tuple(column for entry in self.entries for column in entry.columns or ())

    @property
    def is_opaque(self) -> bool:
        return any(entry.columns is None for entry in self.entries)

    @property
    def is_complete(self) -> bool:
        """Whether every column of every entry is known (so `*` can be expanded)."""
        return not any(entry.columns is None or entry.broken for entry in self.entries)

    def entry(self, alias: str) -> ScopeEntry | None:
        for entry in self.entries:
            if entry.alias == alias:
                return entry
        return None


def resolve_column(
    scope: Scope, ref: ast.ColumnRef, diagnostics: list[Diagnostic], suggestions: Budget
) -> plan.Expr | None:
    """The column `ref` names (or a field of a ROW column), or None (after a diagnostic,
    unless the scope is opaque)."""
    first, *rest = ref.parts
    if not rest:
        return _resolve_unqualified(scope, first, ref.span, diagnostics, suggestions)
    entry = scope.entry(first.value)
    if entry is not None:
        name, *fields = rest
        span = first.span.to(name.span)
        column = _resolve_in_entry(entry, name, span, diagnostics, suggestions)
    else:
        # Not a FROM entry: `payload.col` is the field of a ROW column, when there is one.
        name, fields = first, rest
        column = row_column(scope, first)
        if column is None:
            report_unknown_qualifier(scope, first, diagnostics, suggestions)
            return None
    if column is None or not fields:
        return column
    return field_access(column, fields, diagnostics, suggestions)


def quiet_column(scope: Scope, name: ast.Identifier) -> plan.ColumnRef | None:
    """The unqualified column `name`, or None: nothing reported, no hint spent."""
    return _resolve_unqualified(scope, name, name.span, [], Budget(0))


def row_column(scope: Scope, name: ast.Identifier) -> plan.ColumnRef | None:
    """The unqualified column `name` when it is one of ROW type (else None, silently)."""
    found = quiet_column(scope, name)
    return found if found is not None and types.is_row(found.type) else None


def _resolve_unqualified(
    scope: Scope,
    name: ast.Identifier,
    span: Span,
    diagnostics: list[Diagnostic],
    suggestions: Budget,
) -> plan.ColumnRef | None:
    if any(name.value in entry.broken for entry in scope.entries):
        return None
    matches = [
        (entry, index)
        for entry in scope.entries
        if (index := entry.find(name.value)) is not None and name.value not in entry.hidden
    ]
    if len(matches) == 1:
        entry, index = matches[0]
        return _column_ref(entry, index, span)
    if len(matches) > 1:
        aliases = [entry.alias for entry, _ in matches]
        notes = tuple(
            Note(f"'{name.value}' is a column of '{entry.alias}'", entry.alias_span)
            for entry, _ in matches
        )
        diagnostics.append(
            error(
                Code.AMBIGUOUS_COLUMN,
                f"Column '{name.value}' is ambiguous: it is in {_and_list(aliases)}",
                name.span,
                notes=notes,
                hint=f"qualify it, as in {aliases[0]}.{name.value}",
            )
        )
        return None
    if scope.is_opaque:
        return None
    if len(scope.entries) == 1:
        message = f"Unknown column '{name.value}' in {scope.entries[0].description}"
    elif not scope.entries:
        message = f"Unknown column '{name.value}': the query has no FROM clause"
    else:
        message = f"Unknown column '{name.value}'"
    names = [n for entry in scope.entries for n in entry.names]
    hint = did_you_mean(name.value, names, suggestions)
    diagnostics.append(error(Code.UNKNOWN_COLUMN, message, name.span, hint=hint))
    return None


def _resolve_in_entry(
    entry: ScopeEntry,
    name: ast.Identifier,
    span: Span,
    diagnostics: list[Diagnostic],
    suggestions: Budget,
) -> plan.ColumnRef | None:
    if entry.columns is None or name.value in entry.broken:
        return None
    index = entry.find(name.value)
    if index is None:
        hint = did_you_mean(name.value, entry.names, suggestions)
        message = f"Unknown column '{name.value}' in {entry.description}"
        diagnostics.append(error(Code.UNKNOWN_COLUMN, message, name.span, hint=hint))
        return None
    return _column_ref(entry, index, span)


def report_unknown_qualifier(
    scope: Scope, qualifier: ast.Identifier, diagnostics: list[Diagnostic], suggestions: Budget
) -> None:
    renamed = [e.alias for e in scope.entries if e.description.endswith(f" '{qualifier.value}'")]
    if renamed and renamed[0] != qualifier.value:
        hint: str | None = f"'{qualifier.value}' is named '{renamed[0]}' in this FROM"
    else:
        hint = did_you_mean(qualifier.value, (entry.alias for entry in scope.entries), suggestions)
    diagnostics.append(
        error(
            Code.UNKNOWN_RELATION,
            f"No table or alias named '{qualifier.value}' in FROM",
            qualifier.span,
            hint=hint,
        )
    )


def _column_ref(entry: ScopeEntry, index: int, span: Span) -> plan.ColumnRef:
    assert entry.columns is not None
    column = entry.columns[index]
    return plan.ColumnRef(entry.offset + index, column.name, column.type, column.nullable, span)


def _and_list(names: list[str]) -> str:
    quoted = [f"'{name}'" for name in names]
    return ", ".join(quoted[:-1]) + " and " + quoted[-1]
