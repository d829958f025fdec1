"""`WITH ('key' = 'value', ...)` on tables, streams and views."""

from __future__ import annotations

from dataclasses import dataclass

from backend.compiler.diagnostics import Code, Note, error, warning
from backend.compiler.semantic.environment import Environment
from backend.compiler.suggest import did_you_mean
from backend.compiler.syntax import statements as stmt

# Keys each kind of relation understands; anything else is a warning (a typo such
# as 'append-only' would otherwise be ignored in silence).
KNOWN_KEYS = {
    "table": ("append_only", "materialized", "connectors"),
    "stream": ("append_only", "connectors"),
    "view": ("emit_final", "connectors"),
}
_BOOLEAN_KEYS = ("append_only", "materialized")


@dataclass(frozen=True, slots=True)
class Properties:
    """The properties of one statement, checked, first occurrence of each key kept."""

    items: tuple[stmt.Property, ...]

    def get(self, key: str) -> stmt.Property | None:
        for item in self.items:
            if item.key == key:
                return item
        return None

    def flag(self, key: str) -> bool:
        item = self.get(key)
        return item is not None and item.value.lower() == "true"

    def as_pairs(self) -> tuple[tuple[str, str], ...]:
        return tuple((item.key, item.value) for item in self.items)


def check_properties(
    properties: tuple[stmt.Property, ...], kind: str, env: Environment
) -> Properties:
    known = KNOWN_KEYS[kind]
    kept: list[stmt.Property] = []
    first: dict[str, stmt.Property] = {}
    for item in properties:
        if item.key in first:
            env.report(
                error(
                    Code.INVALID_DEFINITION,
                    f"Property '{item.key}' is given twice",
                    item.key_span,
                    notes=(Note("first given here", first[item.key].key_span),),
                )
            )
            continue
        first[item.key] = item
        if item.key not in known:
            env.report(
                warning(
                    Code.UNKNOWN_PROPERTY,
                    f"Unknown property '{item.key}' for a {kind}; it is ignored",
                    item.key_span,
                    hint=did_you_mean(item.key, known, env.suggestions),
                )
            )
            continue
        if item.key in _BOOLEAN_KEYS and item.value.lower() not in ("true", "false"):
            env.report(
                error(
                    Code.INVALID_DEFINITION,
                    f"Property '{item.key}' must be 'true' or 'false', found '{item.value}'",
                    item.value_span,
                )
            )
            continue
        if kind == "stream" and item.key == "append_only" and item.value.lower() == "false":
            env.report(
                error(
                    Code.INVALID_DEFINITION,
                    "A stream is always append-only: 'append_only' cannot be 'false'",
                    item.value_span,
                )
            )
            continue
        kept.append(item)
    return Properties(tuple(kept))
