"""ROW values (TO_CHANGELOG's payload) in Spark: structs of positional fields c0..cN;
and ARRAY values (ARRAY_AGG's), Spark arrays.

The plan names a ROW type by its canonical string (docs/contracts.md), such as
`ROW(a INTEGER, "b c" DECIMAL(10,2) NOT NULL)`. Inside the engine a ROW value is
a struct whose fields are named c0, c1, ... like the columns of a relation, so no
name from a program reaches Spark; the field names appear only in the JSON a
view publishes.
"""

from __future__ import annotations

from collections.abc import Callable

from pyspark.sql import Column
from pyspark.sql import functions as F

ROW_PREFIX = "ROW("
NOT_NULL = " NOT NULL"
ARRAY_SUFFIX = " ARRAY"  # `DATE ARRAY`, as Feldera names them


def is_row(sql_type: str) -> bool:
    return sql_type.startswith(ROW_PREFIX)


def array_element(sql_type: str) -> str | None:
    """The element type of an ARRAY type; None for another type.

    >>> array_element("DECIMAL(8,3) ARRAY"), array_element("DATE ARRAY ARRAY")
    ('DECIMAL(8,3)', 'DATE ARRAY')
    >>> array_element("ROW(a INTEGER ARRAY)") is None
    True
    """
    if sql_type.endswith(ARRAY_SUFFIX) and not is_row(sql_type):
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
    """`body` split at the commas outside parentheses and quoted names."""
    parts, depth, quoted, start = [], 0, False, 0
    for index, char in enumerate(body):
        if char == '"':
            quoted = not quoted  # a doubled quote flips twice
        elif quoted:
            continue
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "," and depth == 0:
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
