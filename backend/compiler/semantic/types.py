"""SQL types: canonical names, which conversions are allowed, and result types.

Nullability is not part of a type here: columns and typed expressions carry it
next to their type. Arithmetic on DECIMAL follows Spark's precision rules
because Spark evaluates the plan; everything else follows standard SQL (so
INTEGER / INTEGER is an INTEGER, truncated, as in Calcite and Feldera).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum


class TypeKind(Enum):
    NULL = "NULL"
    BOOLEAN = "BOOLEAN"
    TINYINT = "TINYINT"
    SMALLINT = "SMALLINT"
    INTEGER = "INTEGER"
    BIGINT = "BIGINT"
    DECIMAL = "DECIMAL"
    REAL = "REAL"
    DOUBLE = "DOUBLE"
    VARCHAR = "VARCHAR"
    DATE = "DATE"
    TIME = "TIME"
    TIMESTAMP = "TIMESTAMP"
    INTERVAL_DAY_TIME = "INTERVAL DAY TO SECOND"
    INTERVAL_YEAR_MONTH = "INTERVAL YEAR TO MONTH"
    ROW = "ROW"
    ARRAY = "ARRAY"
    MAP = "MAP"
    UUID = "UUID"
    VARBINARY = "VARBINARY"


MAX_DECIMAL_PRECISION = 38


@dataclass(frozen=True, slots=True)
class SqlType:
    kind: TypeKind
    precision: int = 0  # DECIMAL only
    scale: int = 0  # DECIMAL only
    fields: tuple[RowField, ...] = field(default=(), repr=False)  # ROW only (in its name)
    # An interval's units when `(t1 - t2) unit [TO unit]` gave them ("MONTH", "HOUR TO
    # MINUTE"; in its name, INTERVAL MONTH): they decide how it is written.
    unit: str = field(default="", repr=False)
    # ARRAY: its elements' type; MAP: its values' type (in its name)
    element: SqlType | None = field(default=None, repr=False)
    key: SqlType | None = field(default=None, repr=False)  # MAP only (in its name)
    # The canonical name used in the catalog and the plan, computed once.
    name: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.kind is TypeKind.DECIMAL:
            name = f"DECIMAL({self.precision},{self.scale})"
        elif self.kind is TypeKind.ROW:
            name = "ROW(" + ", ".join(str(f) for f in self.fields) + ")"
        elif self.kind is TypeKind.ARRAY:
            name = f"{self.element} ARRAY"  # Feldera's and Calcite's spelling
        elif self.kind is TypeKind.MAP:
            name = f"MAP<{self.key}, {self.element}>"
        elif self.unit:
            name = f"INTERVAL {self.unit}"
        else:
            name = str(self.kind.value)
        object.__setattr__(self, "name", name)

    def __str__(self) -> str:
        """The canonical name.

        >>> str(decimal(10, 2)), str(INTEGER)
        ('DECIMAL(10,2)', 'INTEGER')
        """
        return self.name


@dataclass(frozen=True, slots=True)
class RowField:
    """A field of a ROW type; written `name TYPE [NOT NULL]` in the type's name."""

    name: str
    type: SqlType
    nullable: bool

    def __str__(self) -> str:
        """
        >>> str(RowField("id", INTEGER, False)), str(RowField("Two words", VARCHAR, True))
        ('id INTEGER NOT NULL', '"Two words" VARCHAR')
        """
        plain = _PLAIN_NAME.fullmatch(self.name) is not None
        name = self.name if plain else '"' + self.name.replace('"', '""') + '"'
        return f"{name} {self.type}" + ("" if self.nullable else " NOT NULL")


_PLAIN_NAME = re.compile(r"[a-z_][a-z0-9_$]*")


def row(fields: tuple[RowField, ...]) -> SqlType:
    """The ROW type of `fields` (TO_CHANGELOG's payload).

    >>> str(row((RowField("a", INTEGER, True), RowField("b", VARCHAR, True))))
    'ROW(a INTEGER, b VARCHAR)'
    """
    return SqlType(TypeKind.ROW, fields=fields)


def array_of(element: SqlType) -> SqlType:
    """The ARRAY type of `element` values (ARRAY_AGG's).

    >>> str(array_of(decimal(8, 3))), str(array_of(array_of(DATE)))
    ('DECIMAL(8,3) ARRAY', 'DATE ARRAY ARRAY')
    """
    return SqlType(TypeKind.ARRAY, element=element)


def map_of(key: SqlType, value: SqlType) -> SqlType:
    """The MAP type from `key` values (never NULL) to `value` ones (NULL or not), as
    Feldera has it.

    >>> str(map_of(VARCHAR, array_of(INTEGER)))
    'MAP<VARCHAR, INTEGER ARRAY>'
    """
    return SqlType(TypeKind.MAP, element=value, key=key)


NULL = SqlType(TypeKind.NULL)
BOOLEAN = SqlType(TypeKind.BOOLEAN)
TINYINT = SqlType(TypeKind.TINYINT)
SMALLINT = SqlType(TypeKind.SMALLINT)
INTEGER = SqlType(TypeKind.INTEGER)
BIGINT = SqlType(TypeKind.BIGINT)
REAL = SqlType(TypeKind.REAL)
DOUBLE = SqlType(TypeKind.DOUBLE)
VARCHAR = SqlType(TypeKind.VARCHAR)
DATE = SqlType(TypeKind.DATE)
TIME = SqlType(TypeKind.TIME)
TIMESTAMP = SqlType(TypeKind.TIMESTAMP)
UUID = SqlType(TypeKind.UUID)
VARBINARY = SqlType(TypeKind.VARBINARY)  # BINARY(n) and VARBINARY(n) too: bytes, any number
INTERVAL_DAY_TIME = SqlType(TypeKind.INTERVAL_DAY_TIME)
INTERVAL_YEAR_MONTH = SqlType(TypeKind.INTERVAL_YEAR_MONTH)


def interval_of(start: str, end: str | None = None) -> SqlType:
    """The interval type of units `start` [TO `end`] (upper case), as `(t1 - t2) start
    [TO end]` has it: YEAR and MONTH ones count months, the others microseconds.

    >>> str(interval_of("MONTH")), str(interval_of("HOUR", "SECOND"))
    ('INTERVAL MONTH', 'INTERVAL HOUR TO SECOND')
    >>> interval_of("YEAR", "MONTH") == INTERVAL_YEAR_MONTH
    True
    """
    unit = start if end is None else f"{start} TO {end}"
    if unit == "YEAR TO MONTH":
        return INTERVAL_YEAR_MONTH
    if unit == "DAY TO SECOND":
        return INTERVAL_DAY_TIME
    months = start in ("YEAR", "MONTH")
    return SqlType(
        TypeKind.INTERVAL_YEAR_MONTH if months else TypeKind.INTERVAL_DAY_TIME, unit=unit
    )


def is_single_unit_interval(t: SqlType) -> bool:
    """INTERVAL YEAR ... INTERVAL SECOND: it casts to an integer, its number of units."""
    return is_interval(t) and t.unit != "" and " TO " not in t.unit


def decimal(precision: int, scale: int) -> SqlType:
    return SqlType(TypeKind.DECIMAL, precision, scale)


# Integer types in widening order, and the DECIMAL that holds each exactly.
_INTEGER_RANK = {TypeKind.TINYINT: 0, TypeKind.SMALLINT: 1, TypeKind.INTEGER: 2, TypeKind.BIGINT: 3}
_INTEGER_AS_DECIMAL = {
    TypeKind.TINYINT: decimal(3, 0),
    TypeKind.SMALLINT: decimal(5, 0),
    TypeKind.INTEGER: decimal(10, 0),
    TypeKind.BIGINT: decimal(20, 0),
}
_INTERVALS = (TypeKind.INTERVAL_DAY_TIME, TypeKind.INTERVAL_YEAR_MONTH)
_DATETIMES = (TypeKind.DATE, TypeKind.TIME, TypeKind.TIMESTAMP)


def is_integer(t: SqlType) -> bool:
    return t.kind in _INTEGER_RANK


def is_exact_numeric(t: SqlType) -> bool:
    return is_integer(t) or t.kind is TypeKind.DECIMAL


def is_numeric(t: SqlType) -> bool:
    return is_exact_numeric(t) or t.kind in (TypeKind.REAL, TypeKind.DOUBLE)


def is_interval(t: SqlType) -> bool:
    return t.kind in _INTERVALS


def is_datetime(t: SqlType) -> bool:
    return t.kind in _DATETIMES


def is_string(t: SqlType) -> bool:
    return t.kind is TypeKind.VARCHAR


def is_binary(t: SqlType) -> bool:
    return t.kind is TypeKind.VARBINARY


def is_null(t: SqlType) -> bool:
    return t.kind is TypeKind.NULL


# ---------------------------------------------------------------- comparisons and unions


def is_row(t: SqlType) -> bool:
    return t.kind is TypeKind.ROW


def is_array(t: SqlType) -> bool:
    return t.kind is TypeKind.ARRAY


def is_map(t: SqlType) -> bool:
    return t.kind is TypeKind.MAP


def _keys(a: SqlType, b: SqlType) -> tuple[SqlType, SqlType]:
    assert a.key is not None and b.key is not None
    return a.key, b.key


def _elements(a: SqlType, b: SqlType) -> tuple[SqlType, SqlType]:
    assert a.element is not None and b.element is not None
    return a.element, b.element


def comparable(a: SqlType, b: SqlType) -> bool:
    """Whether `a = b` (and <, >, ...) type-checks."""
    if is_row(a) and is_row(b):
        return len(a.fields) == len(b.fields) and all(
            comparable(x.type, y.type) for x, y in zip(a.fields, b.fields, strict=True)
        )
    if is_array(a) and is_array(b):
        return comparable(*_elements(a, b))
    if is_map(a) and is_map(b):  # as their entries, sorted by key (Feldera's order)
        return comparable(*_keys(a, b)) and comparable(*_elements(a, b))
    if is_null(a) or is_null(b) or a.kind is b.kind:
        return True
    if is_numeric(a) and is_numeric(b):
        return True
    # A date compares with a timestamp as midnight of that day, as in Spark.
    return {a.kind, b.kind} == {TypeKind.DATE, TypeKind.TIMESTAMP}


def common_type(a: SqlType, b: SqlType) -> SqlType | None:
    """The type both `a` and `b` widen to (for COALESCE, IN lists, ...), if any."""
    if is_null(a):
        return b
    if is_null(b) or a == b:
        return a
    if is_numeric(a) and is_numeric(b):
        return _numeric_common_type(a, b)
    if {a.kind, b.kind} == {TypeKind.DATE, TypeKind.TIMESTAMP}:
        return TIMESTAMP
    if is_row(a) and is_row(b):
        return _row_common_type(a, b)
    if is_array(a) and is_array(b):
        common = common_type(*_elements(a, b))
        return None if common is None else array_of(common)
    if is_map(a) and is_map(b):
        key, value = common_type(*_keys(a, b)), common_type(*_elements(a, b))
        return None if key is None or value is None else map_of(key, value)
    if a.kind is b.kind:
        return a
    return None


def _row_common_type(a: SqlType, b: SqlType) -> SqlType | None:
    """Field by field, named as `a`'s fields (as UNION names columns after its left side)."""
    if len(a.fields) != len(b.fields):
        return None
    fields = []
    for x, y in zip(a.fields, b.fields, strict=True):
        common = common_type(x.type, y.type)
        if common is None:
            return None
        fields.append(RowField(x.name, common, x.nullable or y.nullable))
    return row(tuple(fields))


def _numeric_common_type(a: SqlType, b: SqlType) -> SqlType:
    if TypeKind.DOUBLE in (a.kind, b.kind):
        return DOUBLE
    if TypeKind.REAL in (a.kind, b.kind):
        other = b if a.kind is TypeKind.REAL else a
        return DOUBLE if other.kind is TypeKind.DECIMAL else REAL
    if is_integer(a) and is_integer(b):
        return a if _INTEGER_RANK[a.kind] >= _INTEGER_RANK[b.kind] else b
    a, b = _as_decimal(a), _as_decimal(b)
    scale = max(a.scale, b.scale)
    whole = max(a.precision - a.scale, b.precision - b.scale)
    return _bounded_decimal(whole + scale, scale)


# ---------------------------------------------------------------- casts


def can_cast(source: SqlType, target: SqlType) -> bool:
    """Whether CAST(x AS target) is allowed for an `x` of type `source`."""
    if is_row(source) and is_row(target):  # field by field, whatever their names
        pairs = zip(source.fields, target.fields, strict=False)
        same_count = len(source.fields) == len(target.fields)
        return same_count and all(can_cast(a.type, b.type) for a, b in pairs)
    if is_row(source) or is_row(target):
        return is_null(source) or is_string(target)
    if is_array(source) and is_array(target):
        return can_cast(*_elements(source, target))
    if is_map(source) and is_map(target):
        return can_cast(*_keys(source, target)) and can_cast(*_elements(source, target))
    if is_array(source) or is_array(target) or is_map(source) or is_map(target):
        return is_null(source)
    if is_null(source) or source.kind is target.kind:
        return True
    if is_string(source) or is_string(target):
        return True  # every type has a text form, parsed or printed at run time
    if is_numeric(source) and is_numeric(target):
        return True
    kinds = (source.kind, target.kind)
    if TypeKind.BOOLEAN in kinds and (is_numeric(source) or is_numeric(target)):
        return True  # a number is TRUE when it is not 0 (Feldera's); TRUE is 1
    if {source.kind, target.kind} == {TypeKind.DATE, TypeKind.TIMESTAMP}:
        return True
    if is_single_unit_interval(source) and is_integer(target):
        return True  # its number of units, as in Feldera
    if TypeKind.TIMESTAMP in kinds and (is_numeric(source) or is_numeric(target)):
        return True  # milliseconds since 1970-01-01 (Feldera's)
    if {source.kind, target.kind} == {TypeKind.UUID, TypeKind.VARBINARY}:
        return True  # a UUID's 16 bytes
    return {source.kind, target.kind} == {TypeKind.TIMESTAMP, TypeKind.TIME}


# ---------------------------------------------------------------- arithmetic


def arithmetic_type(op: str, left: SqlType, right: SqlType) -> SqlType | None:
    """The result type of `left op right` for op in + - * / %, or None if invalid.

    >>> str(arithmetic_type("+", INTEGER, decimal(5, 2)))
    'DECIMAL(13,2)'
    >>> arithmetic_type("+", VARCHAR, INTEGER) is None
    True
    """
    if is_null(left) and is_null(right):
        return None
    if is_null(left) or is_null(right):
        known = right if is_null(left) else left
        return known if is_numeric(known) or is_interval(known) else None
    if is_numeric(left) and is_numeric(right):
        return _numeric_arithmetic(op, left, right)
    return _temporal_arithmetic(op, left, right)


def _numeric_arithmetic(op: str, left: SqlType, right: SqlType) -> SqlType:
    if not (is_exact_numeric(left) and is_exact_numeric(right)):
        return _numeric_common_type(left, right)
    if is_integer(left) and is_integer(right):
        return _numeric_common_type(left, right)
    a, b = _as_decimal(left), _as_decimal(right)
    p1, s1, p2, s2 = a.precision, a.scale, b.precision, b.scale
    # Spark's DecimalPrecision rules (so the declared type is what Spark computes).
    if op in ("+", "-"):
        scale = max(s1, s2)
        return _bounded_decimal(max(p1 - s1, p2 - s2) + scale + 1, scale)
    if op == "*":
        return _bounded_decimal(p1 + p2 + 1, s1 + s2)
    if op == "/":
        scale = max(6, s1 + p2 + 1)
        return _bounded_decimal(p1 - s1 + s2 + scale, scale)
    scale = max(s1, s2)  # %
    return _bounded_decimal(min(p1 - s1, p2 - s2) + scale, scale)


def _temporal_arithmetic(op: str, left: SqlType, right: SqlType) -> SqlType | None:
    lk, rk = left.kind, right.kind
    if op == "+" and is_interval(left) and (is_datetime(right) or rk is lk):
        left, right, lk, rk = right, left, rk, lk  # interval + t is t + interval
    if op in ("+", "-"):
        if is_interval(right):
            if lk is TypeKind.TIMESTAMP:
                return TIMESTAMP
            if lk is TypeKind.DATE:  # in whole days (Calcite's and Feldera's)
                return DATE
            if lk is TypeKind.TIME:  # around the clock; whole months leave it (Feldera's)
                return TIME
            if lk is rk:  # of other units: all of both (its kind, unqualified)
                return left if left == right else SqlType(lk)
            return None
        if op == "-" and lk is rk and lk in (TypeKind.TIMESTAMP, TypeKind.DATE, TypeKind.TIME):
            return INTERVAL_DAY_TIME
        return None
    if op == "*" and is_interval(right) and is_numeric(left):
        return right
    if op in ("*", "/") and is_interval(left) and is_numeric(right):
        return left
    return None


def negation_type(operand: SqlType) -> SqlType | None:
    """The type of `-x`, or None when x cannot be negated."""
    if is_numeric(operand) or is_interval(operand) or is_null(operand):
        return operand
    return None


def _as_decimal(t: SqlType) -> SqlType:
    return _INTEGER_AS_DECIMAL.get(t.kind, t)


def _bounded_decimal(precision: int, scale: int) -> SqlType:
    """Fit a DECIMAL into 38 digits the way Spark does: keep the whole digits first."""
    if precision <= MAX_DECIMAL_PRECISION:
        return decimal(precision, scale)
    whole = precision - scale
    scale = max(MAX_DECIMAL_PRECISION - whole, min(scale, 6))
    return decimal(MAX_DECIMAL_PRECISION, scale)
