"""Diagnostics: what the compiler tells the user, as plain values.

A user error is never raised: each pass returns the diagnostics it found next to
its result. Codes are stable once published (docs/contracts.md): `SQL1xx` syntax,
`SQL2xx` names and types, `SQL3xx` streaming rules, `SQL4xx` not supported.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from backend.compiler.source import Source, Span


class Code(StrEnum):
    """Every diagnostic code the compiler emits, with what it means."""

    UNEXPECTED_TOKEN = "SQL101"  # the parser expected something else here
    UNTERMINATED = "SQL102"  # a string, quoted identifier or comment never ends
    INVALID_CHARACTER = "SQL103"  # a character that cannot start any token
    EMPTY_IDENTIFIER = "SQL104"  # ""
    TOO_DEEP = "SQL105"  # nesting beyond what the compiler accepts
    UNKNOWN_RELATION = "SQL201"  # no table, stream or view (or FROM alias) of that name
    UNKNOWN_COLUMN = "SQL202"
    AMBIGUOUS_COLUMN = "SQL203"  # the name matches columns of two FROM entries
    DUPLICATE_RELATION = "SQL204"  # a relation (or FROM alias) declared twice
    DUPLICATE_COLUMN = "SQL205"
    TYPE_MISMATCH = "SQL206"
    UNKNOWN_FUNCTION = "SQL207"  # or a known function called with the wrong arguments
    UNKNOWN_TYPE = "SQL208"  # or a type with parameters it cannot take
    INVALID_LITERAL = "SQL209"  # e.g. TIMESTAMP '2020-13-01', a number out of range
    COLUMN_COUNT = "SQL210"  # a view's column list does not match its query
    INVALID_DEFINITION = "SQL211"  # bad property value, two primary keys, ...
    UNKNOWN_PROPERTY = "SQL212"  # a WITH key (or an option) the compiler does not use (warning)
    AGGREGATE_MISUSE = "SQL213"  # an aggregate in WHERE, ON, GROUP BY, or inside another
    NOT_GROUPED = "SQL214"  # a column neither in GROUP BY nor inside an aggregate
    SET_OPERATION_SHAPE = "SQL215"  # UNION sides with different column counts or types
    INVALID_LIMIT = "SQL216"  # LIMIT / OFFSET / FETCH that is not a non-negative integer
    INVALID_WINDOW = "SQL217"  # unknown window name, bad frame, ranking without ORDER BY
    INVALID_FUNCTION = "SQL218"  # a CREATE FUNCTION that cannot be: its name taken (a
    # built-in's, an earlier function's), two parameters of one name, a subquery in its body
    NO_WATERLINE = "SQL301"  # emit_final on a column with no inferable waterline
    STREAM_TO_TABLE = "SQL302"  # a relational query reading a stream
    TABLE_TO_STREAM = "SQL303"  # SELECT STREAM over tables only
    NON_MONOTONIC_GROUP_BY = "SQL304"  # streaming GROUP BY without a monotonic key
    STREAM_VALUES = "SQL305"  # SELECT STREAM over VALUES
    NON_MONOTONIC_ORDER_BY = "SQL306"  # streaming ORDER BY without a monotonic leading key
    UNBOUNDED_STATE = "SQL307"  # a join or aggregate whose state grows forever (warning)
    DUPLICATE_LATENESS = "SQL308"  # two LATENESS annotations for one column
    MULTIPLE_WATERMARKS = "SQL309"  # more than one WATERMARK column in a table
    NON_MONOTONIC_WINDOW = "SQL310"  # a window over a stream not ordered by a monotonic key
    JOIN_WINDOW_MISUSE = "SQL311"  # OVER on a FROM item that is not a stream in a JOIN
    UNBOUNDED_JOIN_WINDOW = "SQL312"  # a join window without an end (UNBOUNDED): endless state
    STREAM_UPDATES = "SQL313"  # a SELECT STREAM whose rows can change: it emits updates
    LOOKUP_NOT_INSERT_ONLY = "SQL320"  # a lookup join (SNAPSHOT(t), SEARCH_KEY) whose other
    # side can delete
    NO_VERSION_COLUMN = "SQL321"  # time travel over a relation without a time column
    NONDETERMINISTIC_TIME = "SQL322"  # SNAPSHOT(t, NOW()): time travel to a moving time
    PUMP_CYCLE = "SQL330"  # a pump inserts into a relation its own query reads (through views)
    NOT_SUPPORTED = "SQL401"  # valid SQL that Weir does not compile yet
    INSERT_STATEMENT = "SQL402"  # INSERT INTO ... as a statement: rows enter a pipeline
    # through its ingress (or weir replay's steps), not through its program
    DYNAMIC_PARAMETER = "SQL403"  # ?: a value a client binds to a prepared statement
    DROP_STATEMENT = "SQL404"  # DROP ...: a program declares what its pipeline has


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, slots=True)
class Note:
    """A secondary location that explains a diagnostic, e.g. a first declaration."""

    message: str
    span: Span

    def to_json(self, source: Source) -> dict[str, Any]:
        return {"message": self.message, **_location_json(self.span, source)}


@dataclass(frozen=True, slots=True)
class Diagnostic:
    code: Code
    severity: Severity
    message: str
    span: Span
    notes: tuple[Note, ...] = ()
    hint: str | None = None

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def to_json(self, source: Source) -> dict[str, Any]:
        """The contract shape (docs/contracts.md, "Diagnostic")."""
        return {
            "code": self.code.value,
            "severity": self.severity.value,
            "message": self.message,
            **_location_json(self.span, source),
            "snippet": source.snippet(self.span),
            "notes": [note.to_json(source) for note in self.notes],
            "hint": self.hint,
        }


def error(
    code: Code, message: str, span: Span, *, notes: tuple[Note, ...] = (), hint: str | None = None
) -> Diagnostic:
    return Diagnostic(code, Severity.ERROR, message, span, notes, hint)


def warning(
    code: Code, message: str, span: Span, *, notes: tuple[Note, ...] = (), hint: str | None = None
) -> Diagnostic:
    return Diagnostic(code, Severity.WARNING, message, span, notes, hint)


def in_source_order(diagnostics: tuple[Diagnostic, ...]) -> tuple[Diagnostic, ...]:
    """Diagnostics sorted by position; ties keep the order the passes reported them."""
    return tuple(sorted(diagnostics, key=lambda d: (d.span.start, d.span.end)))


def _location_json(span: Span, source: Source) -> dict[str, int]:
    start = source.position(span.start)
    end = source.position(span.end)
    return {
        "start_line_number": start.line,
        "start_column": start.column,
        "end_line_number": end.line,
        "end_column": end.column,
    }
