"""Resolving a type as written (`VARCHAR(20)`, `DOUBLE PRECISION`) to a `SqlType`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from backend.compiler.diagnostics import Code, Diagnostic, error
from backend.compiler.semantic import literals, types
from backend.compiler.semantic.types import SqlType
from backend.compiler.suggest import Budget, did_you_mean
from backend.compiler.syntax import ast

# Spark's default for a bare DECIMAL; the runner stores what the catalog says.
DEFAULT_DECIMAL = (10, 0)

_SIMPLE: dict[tuple[str, ...], SqlType] = {
    ("boolean",): types.BOOLEAN,
    ("bool",): types.BOOLEAN,
    ("tinyint",): types.TINYINT,
    ("smallint",): types.SMALLINT,
    ("int",): types.INTEGER,
    ("integer",): types.INTEGER,
    ("bigint",): types.BIGINT,
    ("real",): types.REAL,
    ("double",): types.DOUBLE,
    # PostgreSQL's names, by bytes (Feldera's tests write INT2)
    ("int2",): types.SMALLINT,
    ("int4",): types.INTEGER,
    ("int8",): types.BIGINT,
    ("float4",): types.REAL,
    ("float8",): types.DOUBLE,
    ("double", "precision"): types.DOUBLE,
    # Feldera's other names: SIGNED and INT64 (integers), FLOAT32 and FLOAT64, DATETIME
    ("signed",): types.INTEGER,
    ("int64",): types.BIGINT,
    ("float32",): types.REAL,
    ("float64",): types.DOUBLE,
    ("datetime",): types.TIMESTAMP,
    ("string",): types.VARCHAR,
    ("text",): types.VARCHAR,
    ("date",): types.DATE,
    ("uuid",): types.UUID,
}
# Types whose parameters are accepted and then dropped from the canonical type.
_LENGTH_TYPES = {
    ("varchar",),
    ("char",),
    ("character",),
    ("char", "varying"),
    ("character", "varying"),
}
# Bytes (Feldera's binary.md): a length is accepted and dropped, as for VARCHAR(n).
_BINARY_TYPES = {("binary",), ("varbinary",), ("binary", "varying"), ("bytea",)}
_PRECISION_TYPES: dict[tuple[str, ...], SqlType] = {
    ("time",): types.TIME,
    ("timestamp",): types.TIMESTAMP,
    ("timestamp", "without", "time", "zone"): types.TIMESTAMP,
    ("time", "without", "time", "zone"): types.TIME,
}
_DECIMAL_NAMES = {("decimal",), ("numeric",), ("dec",), ("number",)}
_KNOWN_NAMES = [
    "BOOLEAN", "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "REAL", "FLOAT", "DOUBLE",
    "DECIMAL", "NUMERIC", "VARCHAR", "CHAR", "STRING", "TEXT", "DATE", "TIME", "TIMESTAMP",
    "UUID", "BINARY", "VARBINARY",
]  # fmt: skip


# The program's types (CREATE TYPE): whether a name is one, and its type (None where its
# definition failed, which was reported).
UserTypes = Callable[[str], tuple[bool, SqlType | None]]


def _no_user_types(name: str) -> tuple[bool, SqlType | None]:
    return False, None


def resolve_type(
    name: ast.TypeName,
    diagnostics: list[Diagnostic],
    suggestions: Budget | None = None,
    user_types: UserTypes = _no_user_types,
) -> SqlType | None:
    """The type `name` denotes, or None after reporting SQL208 (or SQL401)."""
    if name.arrays:  # `INT ARRAY`: an array of the type before ARRAY
        element = resolve_type(
            replace(name, arrays=name.arrays - 1), diagnostics, suggestions, user_types
        )
        return None if element is None else types.array_of(element)
    if name.fields:  # ROW(a INT, b VARCHAR NULL)
        fields = []
        for field in name.fields:
            field_type = resolve_type(field.type, diagnostics, suggestions, user_types)
            if field_type is None:
                return None
            fields.append(types.RowField(field.name.value, field_type, field.nullable))
        return types.row(tuple(fields))
    if name.map_types:  # MAP<VARCHAR, INT>: a key is never NULL, a value may be
        return _map(name, diagnostics, suggestions, user_types)
    words, params = name.words, name.params
    written = " ".join(words).upper()

    def invalid(message: str) -> None:
        diagnostics.append(error(Code.UNKNOWN_TYPE, message, name.span))

    if words in _SIMPLE:
        if params:
            invalid(f"Type {written} takes no parameters")
            return None
        return _SIMPLE[words]
    if words in _LENGTH_TYPES or words in _BINARY_TYPES:
        if len(params) > 1 or (params and params[0] < 1):
            invalid(f"{written} takes one positive length, as in {written}(20)")
            return None
        return types.VARCHAR if words in _LENGTH_TYPES else types.VARBINARY
    if words in _PRECISION_TYPES:
        if len(params) > 1 or (params and params[0] > 9):
            invalid(f"{written} takes one fractional-seconds precision from 0 to 9")
            return None
        return _PRECISION_TYPES[words]
    if words == ("float",):
        # Standard SQL: FLOAT(p) is REAL up to 24 bits of precision, DOUBLE beyond.
        if len(params) > 1 or (params and not 1 <= params[0] <= 53):
            invalid("FLOAT takes one precision from 1 to 53")
            return None
        return types.DOUBLE if params and params[0] > 24 else types.REAL
    if words in _DECIMAL_NAMES:
        return _decimal(written, params, invalid)
    if words[0] in ("timestamp", "time") and "with" in words:
        diagnostics.append(
            error(Code.NOT_SUPPORTED, f"Not supported yet: type {written}", name.span)
        )
        return None
    if words[0] == "interval":
        diagnostics.append(
            error(Code.NOT_SUPPORTED, "Not supported yet: INTERVAL columns", name.span)
        )
        return None
    declared, user_type = user_types(words[0]) if len(words) == 1 else (False, None)
    if declared and params:
        invalid(f"Type {written} takes no parameters")
        return None
    if declared:  # None where its definition failed: reported there
        return user_type
    hint = did_you_mean(written, _KNOWN_NAMES, suggestions)
    diagnostics.append(error(Code.UNKNOWN_TYPE, f"Unknown type {written}", name.span, hint=hint))
    return None


def _map(
    name: ast.TypeName,
    diagnostics: list[Diagnostic],
    suggestions: Budget | None,
    user_types: UserTypes,
) -> SqlType | None:
    key, value = (
        resolve_type(part, diagnostics, suggestions, user_types) for part in name.map_types
    )
    if key is None or value is None:
        return None
    if types.is_map(key):  # as in Feldera
        diagnostics.append(
            error(Code.UNKNOWN_TYPE, "A MAP's keys cannot be MAPs", name.map_types[0].span)
        )
        return None
    return types.map_of(key, value)


def resolve_cast_type(
    name: ast.TypeName,
    diagnostics: list[Diagnostic],
    suggestions: Budget | None = None,
    user_types: UserTypes = _no_user_types,
) -> SqlType | None:
    """The type of `CAST(x AS name)`: a column's types, and intervals of units
    (`INTERVAL HOUR TO MINUTE`), which columns cannot have."""
    words = name.words
    if words[0] != "interval" or name.params or name.arrays:
        return resolve_type(name, diagnostics, suggestions, user_types)
    start, end = words[1], words[3] if len(words) > 3 else None
    try:
        literals.interval_fields(start, end or start)
    except literals.InvalidLiteral as exc:  # INTERVAL MINUTE TO HOUR
        diagnostics.append(error(Code.INVALID_LITERAL, exc.message, name.span))
        return None
    return types.interval_of(start.upper(), end.upper() if end else None)


def fixed_length(name: ast.TypeName) -> tuple[str, int] | None:
    """("char", n) for CHAR(n), ("varchar", n) for VARCHAR(n), ("binary", n) for BINARY(n)
    and ("varbinary", n) for VARBINARY(n) (and their other spellings); None for other
    types and lengths not written. They are VARCHAR or VARBINARY in the plan: a CAST to
    one cuts its value to n characters (bytes), and CHAR(n)'s pads it with spaces to n,
    BINARY(n)'s with zero bytes, as Feldera's."""
    if len(name.params) != 1 or name.arrays:
        return None
    if name.words in _LENGTH_TYPES:
        fixed = name.words in (("char",), ("character",))
        return ("char" if fixed else "varchar"), name.params[0]
    if name.words in _BINARY_TYPES:
        return ("binary" if name.words == ("binary",) else "varbinary"), name.params[0]
    return None


def _decimal(
    written: str, params: tuple[int, ...], invalid: Callable[[str], None]
) -> SqlType | None:
    precision, scale = DEFAULT_DECIMAL
    if len(params) > 2:
        invalid(f"{written} takes a precision and a scale, as in {written}(10,2)")
        return None
    if params:
        precision = params[0]
        scale = params[1] if len(params) == 2 else 0
    if not 1 <= precision <= types.MAX_DECIMAL_PRECISION:
        invalid(f"{written} precision must be from 1 to {types.MAX_DECIMAL_PRECISION}")
        return None
    if scale > precision:
        invalid(f"{written} scale ({scale}) cannot exceed its precision ({precision})")
        return None
    return types.decimal(precision, scale)


def is_built_in(word: str) -> bool:
    """Whether `word` names a built-in type, alone or as its first word (`DOUBLE`)."""
    written = (*_SIMPLE, *_LENGTH_TYPES, *_BINARY_TYPES, *_PRECISION_TYPES, *_DECIMAL_NAMES)
    return word in {words[0] for words in written} or word in ("float", "row", "map", "interval")
