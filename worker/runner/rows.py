"""ROW values (TO_CHANGELOG's payload) in Spark: structs of positional fields c0..cN;
ARRAY values (ARRAY_AGG's), Spark arrays; and MAP values, their entries.

The plan names a ROW type by its canonical string (docs/contracts.md), such as
`ROW(a INTEGER, "b c" DECIMAL(10,2) NOT NULL)`. Inside the engine a ROW value is
a struct whose fields are named c0, c1, ... like the columns of a relation, so no
name from a program reaches Spark; the field names appear only in the JSON a
view publishes.

A MAP value (`MAP<VARCHAR, INTEGER>`) is kept as its entries sorted by key: an array
of (c0 key, c1 value) structs, the kept form of `ROW(key K NOT NULL, value V) ARRAY`.
Spark's own maps cannot be grouped, compared or DISTINCT; sorted entries can, and
compare as Feldera compares maps (by key, then value, pair after pair). A view
publishes a map as a JSON object, and the ingress reads one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from pyspark.sql import Column
from pyspark.sql import functions as F

ROW_PREFIX = "ROW("
MAP_PREFIX = "MAP<"
NOT_NULL = " NOT NULL"
ARRAY_SUFFIX = " ARRAY"  # `DATE ARRAY`, as Feldera names them


def is_row(sql_type: str) -> bool:
    """
    >>> is_row("ROW(a INTEGER)"), is_row("ROW(a INTEGER) ARRAY")
    (True, False)
    """
    return sql_type.startswith(ROW_PREFIX) and _closed_at_end(sql_type)


def is_map(sql_type: str) -> bool:
    """
    >>> is_map("MAP<VARCHAR, ROW(a INTEGER)>"), is_map("MAP<VARCHAR, INTEGER> ARRAY")
    (True, False)
    """
    return sql_type.startswith(MAP_PREFIX) and _closed_at_end(sql_type)


def map_types(sql_type: str) -> tuple[str, str]:
    """The key type and the value type of a MAP type.

    >>> map_types("MAP<VARCHAR, MAP<INTEGER, DECIMAL(10,2)>>")
    ('VARCHAR', 'MAP<INTEGER, DECIMAL(10,2)>')
    """
    key, value = _top_level(sql_type[len(MAP_PREFIX) : -1])
    return key.strip(), value.strip()


def map_entries(sql_type: str) -> str:
    """The type a MAP value is kept as: its entries, sorted by key.

    >>> map_entries("MAP<VARCHAR, INTEGER>")
    'ROW(key VARCHAR NOT NULL, value INTEGER) ARRAY'
    """
    key, value = map_types(sql_type)
    return f"ROW(key {key}{NOT_NULL}, value {value}){ARRAY_SUFFIX}"


def _closed_at_end(sql_type: str) -> bool:
    """Whether the bracket that `sql_type`'s first one opens is its last character."""
    for index, char, depth in _unquoted(sql_type):
        if char in ")>" and depth == 0:
            return index == len(sql_type) - 1
    return False


def _unquoted(text: str) -> Iterator[tuple[int, str, int]]:
    """Each character of `text` outside quoted names, with the depth of brackets (`()`
    and `<>`) just after it."""
    depth, quoted = 0, False
    for index, char in enumerate(text):
        if char == '"':
            quoted = not quoted  # a doubled quote flips twice
            continue
        if quoted:
            continue
        if char in "(<":
            depth += 1
        elif char in ")>":
            depth -= 1
        yield index, char, depth


def array_element(sql_type: str) -> str | None:
    """The element type of an ARRAY type; None for another type.

    >>> array_element("DECIMAL(8,3) ARRAY"), array_element("DATE ARRAY ARRAY")
    ('DECIMAL(8,3)', 'DATE ARRAY')
    >>> array_element("ROW(a INTEGER ARRAY)") is None, array_element("ROW(a INTEGER) ARRAY")
    (True, 'ROW(a INTEGER)')
    """
    if sql_type.endswith(ARRAY_SUFFIX) and not is_row(sql_type) and not is_map(sql_type):
        return sql_type[: -len(ARRAY_SUFFIX)]
    return None


def row_fields(sql_type: str) -> list[tuple[str, str]]:
    """(name, type) of each field of a ROW type.

    >>> row_fields('ROW(a INTEGER NOT NULL, "b, c" DECIMAL(10,2), r ROW(x INTEGER))')
    [('a', 'INTEGER'), ('b, c', 'DECIMAL(10,2)'), ('r', 'ROW(x INTEGER)')]
    """
    return [(name, field_type) for name, field_type, _ in declared_fields(sql_type)]


def declared_fields(sql_type: str) -> list[tuple[str, str, bool]]:
    """(name, type, nullable) of each field of a ROW type.

    >>> declared_fields('ROW(a INTEGER NOT NULL, b VARCHAR)')
    [('a', 'INTEGER', False), ('b', 'VARCHAR', True)]
    """
    fields = []
    for part in _top_level(sql_type[len(ROW_PREFIX) : -1]):
        name, rest = _name(part.strip())
        rest = rest.strip()
        nullable = not rest.endswith(NOT_NULL)
        fields.append((name, rest if nullable else rest[: -len(NOT_NULL)], nullable))
    return fields


def _top_level(body: str) -> list[str]:
    """`body` split at the commas outside brackets and quoted names."""
    parts, start = [], 0
    for index, char, depth in _unquoted(body):
        if char == "," and depth == 0:
            parts.append(body[start:index])
            start = index + 1
    parts.append(body[start:])
    return parts


def _name(text: str) -> tuple[str, str]:
    """A field's name (unquoted) and the rest of its text."""
    if not text.startswith('"'):
        name, _, rest = text.partition(" ")
        return name, rest
    index, name = 1, []
    while index < len(text):
        char = text[index]
        if char == '"' and text[index + 1 : index + 2] == '"':
            name.append('"')
            index += 2
            continue
        if char == '"':
            break
        name.append(char)
        index += 1
    return "".join(name), text[index + 1 :]


def published(value: Column, sql_type: str, shown: Callable[[Column, str], Column]) -> Column:
    """A ROW value as the JSON object a view publishes: its fields by name, each
    `shown` as a top-level column of its type is."""
    fields = []
    for index, (name, field_type) in enumerate(row_fields(sql_type)):
        fields.append(shown(value.getField(f"c{index}"), field_type).alias(name))
    return F.when(value.isNotNull(), F.struct(*fields))


def published_map(value: Column, sql_type: str, shown: Callable[[Column, str], Column]) -> Column:
    """A MAP value (its sorted entries) as the JSON object a view publishes: each key and
    value `shown` as a top-level column of its type is."""
    key, item = map_types(sql_type)
    pairs = F.transform(value, lambda e: F.struct(shown(e["c0"], key), shown(e["c1"], item)))
    return F.map_from_entries(pairs)


def sorted_entries(
    entries: Column, key: Callable[[Column], Column], value: Callable[[Column], Column]
) -> Column:
    """A MAP value as it is kept: `entries` (structs) made (c0 `key`, c1 `value`) structs,
    sorted by key."""
    pairs = F.transform(entries, lambda e: F.struct(key(e).alias("c0"), value(e).alias("c1")))
    return F.array_sort(pairs)


def from_spark_map(value: Column) -> Column:
    """A Spark map as a MAP value is kept."""
    return sorted_entries(F.map_entries(value), lambda e: e["key"], lambda e: e["value"])
