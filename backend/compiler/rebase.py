"""Moving compiled values to another place in the text: every span shifted.

The compile cache (cache.py) keeps what a statement compiled to; when text
before the statement is edited, the statement's text moves and so must every
span in its syntax tree, plan and diagnostics. The values are trees of frozen
dataclasses and tuples, so one generic walk does it. A value of a type the walk
does not know raises: a span it could not see would silently stay behind.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any, TypeVar

from backend.compiler.analysis.lattice import Facts
from backend.compiler.plan.nodes import Field
from backend.compiler.semantic.types import SqlType
from backend.compiler.source import Span

T = TypeVar("T")

# Types of values without spans inside: kept as they are, not walked. A `dict`
# is a name index computed from its owner's fields (`Relation._index`). Enum
# types join the set when first met: it is a memo of types, which never change.
_LEAVES: set[type] = {str, int, float, bool, type(None), frozenset, dict, SqlType, Field, Facts}
# The field names of each dataclass met so far (a memo of class layouts, too).
_FIELDS: dict[type, tuple[str, ...]] = {}


def shifted(value: T, delta: int, keep: tuple[object, ...] = ()) -> T:
    """`value` with every span in it moved by `delta` characters, but for the nodes
    in `keep` (dataclass instances), which stay as they are wherever they are met.

    >>> from backend.compiler.syntax.ast import Identifier
    >>> a, b = Identifier("a", False, Span(3, 4)), Identifier("b", False, Span(5, 6))
    >>> [name.span for name in shifted((a, b), 10, keep=(b,))]
    [Span(start=13, end=14), Span(start=5, end=6)]
    """
    if delta == 0:
        return value
    result: T = _shift(value, delta, {id(kept): kept for kept in keep})
    return result


def _shift(value: Any, delta: int, done: dict[int, Any]) -> Any:
    """`done`: the copies made so far, by the id of their original, so that a node
    met twice (a view's relation is also its plan's) is copied once."""
    kind = type(value)
    if kind is Span:
        return Span(value.start + delta, value.end + delta)
    leaves = _LEAVES
    if kind is tuple:
        return tuple([x if type(x) in leaves else _shift(x, delta, done) for x in value])
    if kind in leaves:
        return value
    copy = done.get(id(value))
    if copy is not None:
        return copy
    names = _FIELDS.get(kind) or _fields_of(kind)
    if not names:
        return value  # an enum
    copy = done[id(value)] = object.__new__(kind)
    for name in names:
        field = getattr(value, name)
        if type(field) not in leaves:
            field = _shift(field, delta, done)
        object.__setattr__(copy, name, field)
    return copy


def spans_within(value: object, start: int, end: int) -> bool:
    """Whether every span in `value` lies within `[start, end]`.

    >>> spans_within((Span(3, 4), Span(5, 9)), 3, 9), spans_within(Span(2, 4), 3, 9)
    (True, False)
    """
    kind = type(value)
    if kind is Span:
        assert isinstance(value, Span)
        return start <= value.start and value.end <= end
    if kind is tuple:
        assert isinstance(value, tuple)
        return all(spans_within(item, start, end) for item in value)
    if kind in _LEAVES:
        return True
    return all(spans_within(getattr(value, name), start, end) for name in _fields_of(kind))


def same_but_spans(a: object, b: object) -> bool:
    """Whether `a` and `b` are equal when their spans are not looked at.

    >>> same_but_spans((Span(1, 2), "x"), (Span(5, 6), "x")), same_but_spans("x", "y")
    (True, False)
    """
    if a is b:
        return True
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is Span:
        return True
    if kind is tuple:
        assert isinstance(a, tuple) and isinstance(b, tuple)
        return len(a) == len(b) and all(same_but_spans(x, y) for x, y in zip(a, b, strict=True))
    if kind in _LEAVES:
        return a == b
    names = _fields_of(kind)
    if not names:
        return a == b
    return all(same_but_spans(getattr(a, name), getattr(b, name)) for name in names)


def _fields_of(kind: type) -> tuple[str, ...]:
    """The fields of a dataclass (all of them, `init=False` ones too); () for an enum."""
    names = _FIELDS.get(kind)
    if names is None:
        if dataclasses.is_dataclass(kind):
            names = tuple(f.name for f in dataclasses.fields(kind))
        elif issubclass(kind, enum.Enum):
            names = ()
            _LEAVES.add(kind)
        else:
            raise TypeError(f"cannot move a {kind.__name__}: it may hold spans")
        _FIELDS[kind] = names
    return names
