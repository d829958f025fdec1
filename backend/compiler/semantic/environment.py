"""What the binder knows while it walks a program: relations declared so far."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from backend.compiler.diagnostics import Code, Diagnostic, Note, error
from backend.compiler.plan.nodes import Expr, Field, OrderCheck, Rel
from backend.compiler.semantic.catalog import Relation, UserFunction
from backend.compiler.semantic.scope import column_index
from backend.compiler.semantic.types import SqlType
from backend.compiler.source import Span
from backend.compiler.suggest import Budget, did_you_mean
from backend.compiler.syntax import ast
from backend.compiler.syntax.statements import LatenessStatement

# How a statement's binding sees the program around it, through `Environment.read`:
# a relation by name, whether a name is unresolvable, a relation's broken columns,
# the names of all relations so far, where a name is first declared (anywhere in
# the program), the LATENESS statements naming a view, the name the statement
# itself declares when the program gives it one (a query's `query_N`), and a user
# function or type by name.
ReadKind = Literal[
    "relation",
    "unresolvable",
    "broken",
    "names",
    "declaration",
    "lateness",
    "current",
    "function",
    "type",
]
Read = tuple[ReadKind, str, object]


@dataclass
class Environment:
    """Mutable state of one `bind` run (never shared between runs)."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    # Relations declared by earlier statements and bound without error.
    relations: dict[str, Relation] = field(default_factory=dict)
    # Names whose declaration failed (already reported) or that belong to a
    # construct not compiled yet, like a WITH query: references stay silent.
    unresolvable: set[str] = field(default_factory=set)
    # Columns of declared relations whose type is unknown (see BoundTable).
    broken_columns: dict[str, frozenset[str]] = field(default_factory=dict)
    # The first declaration of every relation name anywhere in the program.
    declarations: dict[str, Span] = field(default_factory=dict)
    # The relation whose statement is being bound.
    current: str | None = None
    # WITH queries in scope: name -> (plan, spans of its columns); None if it failed.
    ctes: dict[str, tuple[Rel, tuple[Span, ...]] | None] = field(default_factory=dict)
    # LATENESS statements by (view, column), with their bound value (None if it failed).
    lateness: dict[tuple[str, str], tuple[Expr | None, LatenessStatement]] = field(
        default_factory=dict
    )
    # Functions defined by earlier statements (CREATE FUNCTION), by name; None for a
    # function whose definition failed or has no SQL body: calls to it stay silent.
    functions: dict[str, UserFunction | None] = field(default_factory=dict)
    # Types defined by earlier statements (CREATE TYPE), by name; None for one whose
    # definition failed: its uses stay silent.
    types: dict[str, SqlType | None] = field(default_factory=dict)
    # Leading ORDER BY keys of streaming queries, for the streaming pass.
    order_checks: list[OrderCheck] = field(default_factory=list)
    # The cost limit of 'did you mean' hints for the whole program.
    suggestions: Budget = field(default_factory=Budget)
    # While the compile cache binds one statement: every `read` and its answer, so
    # that the statement's outcome is reused only where they answer the same.
    reads: list[Read] | None = None

    # Each relation's columns as plan fields, with a name index, built once.
    _shapes: dict[str, tuple[tuple[Field, ...], dict[str, int]]] = field(default_factory=dict)

    def shape_of(self, relation: Relation) -> tuple[tuple[Field, ...], dict[str, int]]:
        """The columns of `relation` as plan fields and their name index, cached."""
        shape = self._shapes.get(relation.name)
        if shape is None:
            fields = tuple(Field(c.name, c.type, c.nullable) for c in relation.columns)
            shape = self._shapes[relation.name] = (fields, column_index(fields))
        return shape

    def answer(self, kind: ReadKind, name: str) -> object:
        """What a statement reading `kind` of `name` sees now (not recorded)."""
        if kind == "relation":
            return self.relations.get(name)
        if kind == "unresolvable":
            return name in self.unresolvable
        if kind == "broken":
            return self.broken_columns.get(name, frozenset())
        if kind == "names":
            return tuple(self.relations)
        if kind == "declaration":
            return self.declarations.get(name)
        if kind == "current":
            return self.current
        if kind == "function":
            return (name in self.functions, self.functions.get(name))
        if kind == "type":
            return (name in self.types, self.types.get(name))
        return tuple(entry for entry in self.lateness.items() if entry[0][0] == name)

    def read(self, kind: ReadKind, name: str) -> object:
        answer = self.answer(kind, name)
        if self.reads is not None:
            self.reads.append((kind, name, answer))
        return answer

    def relation(self, name: str) -> Relation | None:
        """The relation declared (and bound) before under `name`."""
        found = self.read("relation", name)
        assert found is None or isinstance(found, Relation)
        return found

    def function(self, name: str) -> tuple[bool, UserFunction | None]:
        """Whether an earlier statement defines the function `name`, and the function
        (None when its definition failed or has no SQL body)."""
        found = self.read("function", name)
        assert isinstance(found, tuple)
        return found

    def user_type(self, name: str) -> tuple[bool, SqlType | None]:
        """Whether an earlier statement defines the type `name` (CREATE TYPE), and the
        type (None when its definition failed)."""
        found = self.read("type", name)
        assert isinstance(found, tuple)
        return found

    def own_name(self) -> str:
        """The name of the relation the statement being bound declares, when the
        statement does not write it (a query's `query_N`, which depends on the rest
        of the program)."""
        found = self.read("current", "")
        assert isinstance(found, str), "bind_statements names every query"
        return found

    def broken(self, name: str) -> frozenset[str]:
        """The columns of relation `name` whose type is unknown."""
        found = self.read("broken", name)
        assert isinstance(found, frozenset)
        return found

    def lateness_of(
        self, view: str
    ) -> tuple[tuple[tuple[str, str], tuple[Expr | None, LatenessStatement]], ...]:
        """The LATENESS statements naming `view`, by (view, column), in program order."""
        found = self.read("lateness", view)
        assert isinstance(found, tuple)
        return found

    def report(self, diagnostic: Diagnostic) -> None:
        self.diagnostics.append(diagnostic)

    def not_supported(self, construct: str, span: Span) -> None:
        self.report(error(Code.NOT_SUPPORTED, f"Not supported yet: {construct}", span))

    def has_errors_since(self, mark: int) -> bool:
        return any(diagnostic.is_error for diagnostic in self.diagnostics[mark:])

    def lookup(self, name: ast.Identifier) -> Relation | None:
        """The relation `name` refers to, or None (reported with SQL201 unless known bad)."""
        relation = self.relation(name.value)
        if relation is not None or self.read("unresolvable", name.value):
            return relation
        notes: tuple[Note, ...] = ()
        declared_at = self.read("declaration", name.value)
        assert declared_at is None or isinstance(declared_at, Span)
        if name.value == self.current:
            hint: str | None = "a view cannot read from itself"
        elif declared_at is not None and declared_at.start > name.span.start:
            hint = f"'{name.value}' is declared later in the program; declare it before use"
            notes = (Note(f"'{name.value}' is declared here", declared_at),)
        else:
            names = self.read("names", "")
            assert isinstance(names, tuple)
            hint = did_you_mean(name.value, names, self.suggestions)
        self.report(
            error(
                Code.UNKNOWN_RELATION,
                f"Unknown table or view '{name.value}'",
                name.span,
                notes=notes,
                hint=hint,
            )
        )
        return None
