"""ROW values (TO_CHANGELOG's payload) in Spark: structs of positional fields c0..cN.

The plan names a ROW type by its canonical string (docs/contracts.md), such as
`ROW(a INTEGER, "b c" DECIMAL(10,2) NOT NULL)`. Inside the engine a ROW value is
a struct whose fields are named c0, c1, ... like the columns of a relation, so no
name from a program reaches Spark; the field names appear only in the JSON a
view publishes.
"""

from __future__ import annotations

from pyspark.sql import Column
from pyspark.sql import functions as F

ROW_PREFIX = "ROW("
NOT_NULL = " NOT NULL"


def is_row(sql_type: str) -> bool:
    return sql_type.startswith(ROW_PREFIX)


def row_fields(sql_type: str) -> list[tuple[str, str]]:
    """(name, type) of each field of a ROW type.

    >>> row_fields('ROW(a INTEGER NOT NULL, "b, c" DECIMAL(10,2), r ROW(x INTEGER))')
    [('a', 'INTEGER'), ('b, c', 'DECIMAL(10,2)'), ('r', 'ROW(x INTEGER)')]
    """
    fields = []
    for part in _top_level(sql_type[len(ROW_PREFIX) : -1]):
        name, rest = _name(part.strip())
        rest = rest.strip()
        if rest.endswith(NOT_NULL):
            rest = rest[: -len(NOT_NULL)]
        fields.append((name, rest))
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


def published(value: Column, sql_type: str, as_string: tuple[str, ...]) -> Column:
    """A ROW value as the JSON object a view publishes: its fields by name, with the
    types in `as_string` (decimals, times) as text, like top-level columns."""
    fields = []
    for index, (name, field_type) in enumerate(row_fields(sql_type)):
        field = value.getField(f"c{index}")
        if is_row(field_type):
            field = published(field, field_type, as_string)
        elif field_type.startswith(as_string):
            field = field.cast("string")
        fields.append(field.alias(name))
    return F.when(value.isNotNull(), F.struct(*fields))
