"""Bytes (BINARY and VARBINARY, Feldera's binary.md) in Spark, and their functions.

Weir keeps bytes as their hex digits in lower case, two a byte (`x'0A1B'` is '0a1b'):
equal bytes have equal text, and the texts order as the bytes do (byte by byte, a
prefix first), so grouping, joins, DISTINCT, MIN and comparisons need nothing more.
A view publishes them as Feldera's JSON does, a list of the bytes' numbers
(`[10, 27]`), and the ingress takes that list (`shown` and `kept`).
"""

from __future__ import annotations

from collections.abc import Callable

from pyspark.sql import Column
from pyspark.sql import functions as F


def shown(value: Column) -> Column:
    """Bytes as a view publishes them: the list of their numbers (NULL stays NULL)."""
    pairs = F.regexp_extract_all(value, F.lit("(..)"), 1)
    return F.transform(pairs, lambda pair: F.conv(pair, 16, 10).cast("int"))


def kept(numbers: Column) -> Column:
    """A JSON list of byte numbers (the ingress checked each is 0 to 255) as Weir keeps
    bytes."""
    pairs = F.transform(numbers, lambda n: F.lpad(F.lower(F.hex(n)), 2, "0"))
    return F.array_join(pairs, "")


def of_text(text: Column) -> Column:
    """CAST(text AS VARBINARY): the bytes of its UTF-8 encoding, as in Feldera."""
    return F.lower(F.hex(text))


def of_uuid(uuid: Column) -> Column:
    """CAST(uuid AS VARBINARY): its 16 bytes (its canonical text without the hyphens)."""
    return F.regexp_replace(uuid, "-", "")


def _octets(value: Column) -> Column:
    return (F.length(value) / 2).cast("long")


def _substring(value: Column, start: Column, count: Column | None = None) -> Column:
    """SUBSTRING of bytes, as Feldera's: from byte `start` (from 1; a start below 1 is
    1), `count` bytes (to the end when not given; none when below 0)."""
    begin = F.greatest(start.cast("long"), F.lit(1)) * 2 - 1
    length = F.length(value) if count is None else F.greatest(count.cast("long"), F.lit(0)) * 2
    return F.substring(value, begin, length)


def _right(value: Column, count: Column) -> Column:
    """The last `count` bytes (all of them when there are fewer; none below 1)."""
    digits = F.greatest(count.cast("long"), F.lit(0)) * 2
    return F.substring(value, F.greatest(F.length(value) - digits, F.lit(0)) + 1, digits)


def _overlay(a: list[Column]) -> Column:
    """OVERLAY(bytes PLACING other FROM start [FOR count]), as Feldera's: `count` bytes
    from `start` replaced by `other` (as many as `other` has when not given, none below
    0); a start below 1 leaves the bytes as they are, one past their end appends."""
    value, other, start = a[0], a[1], a[2]
    removed = _octets(other) if len(a) == 3 else F.greatest(a[3].cast("long"), F.lit(0))
    spliced = F.concat(
        F.substring(value, F.lit(1), (start.cast("long") - 1) * 2),
        other,
        _substring(value, start.cast("long") + removed),
    )
    return (
        F.when(start < 1, value).when(start > _octets(value), F.concat(value, other))
    ).otherwise(spliced)


def _position(needle: Column, haystack: Column, start: Column | None = None) -> Column:
    """Where `needle` first starts in `haystack` (from byte `start`, when given), in bytes
    from 1 (0: nowhere; an empty needle is at 1). The digits are searched with a comma
    after each byte, so that a match starts on a byte, never between a byte's two
    digits."""
    if start is not None:  # in the bytes from start on (a start below 1 is 1)
        found = _position(needle, _substring(haystack, start))
        return F.when(found == 0, found).otherwise(found + F.greatest(start, F.lit(1)) - 1)

    def delimited(value: Column) -> Column:
        return F.concat(F.lit(","), F.regexp_replace(value, "(..)", "$1,"))

    found = F.instr(delimited(haystack), delimited(needle))
    return F.when(found == 0, F.lit(0)).otherwise(F.floor((found - 1) / 3) + 1)


def _to_int(value: Column) -> Column:
    """The first four bytes as a big-endian INTEGER (0 for no bytes), as Feldera's TO_INT."""
    unsigned = F.coalesce(F.conv(F.substring(value, 1, 8), 16, 10).cast("long"), F.lit(0))
    width = F.length(F.substring(value, 1, 8)) * 4  # bits read
    return F.when((width == 32) & (unsigned >= 2**31), unsigned - 2**32).otherwise(unsigned)


def _utf8(value: Column) -> Column:
    """The bytes read as UTF-8 text; NULL where they are not UTF-8 (Feldera's BIN2UTF8)."""
    text = F.unhex(value).cast("string")
    return F.when(F.is_valid_utf8(text), text)


BITWISE: dict[str, Callable[[Column, Column], Column]] = {
    "bit_and": lambda a, b: a.bitwiseAND(b),
    "bit_or": lambda a, b: a.bitwiseOR(b),
    "bit_xor": lambda a, b: a.bitwiseXOR(b),
}


def bit_aggregate(function: str, value: Column, weight: Column, distinct: bool) -> Column:
    """BIT_AND, BIT_OR or BIT_XOR of a group's bytes (NULLs left out), byte by byte, as
    Feldera's: NULL for no bytes; bytes of different lengths fail the step. A value's
    copies change neither AND nor OR; for XOR one held an even number of times cancels
    out (of the distinct values, each once), and all cancelled are zero bytes."""
    if function == "bit_xor" and not distinct:
        values = F.collect_list(F.when(weight % 2 == 1, value))
    else:
        values = F.collect_set(value)
    sorted_values = F.array_sort(values)
    first = F.element_at(sorted_values, 1)
    rest = F.slice(sorted_values, 2, F.greatest(F.size(values), F.lit(1)))
    folded = F.aggregate(rest, first, lambda acc, item: _bytewise(function, acc, item))
    none_left = F.repeat(F.lit("0"), F.length(F.first(value, ignorenulls=True)))
    return F.when(F.size(values) > 0, folded).otherwise(
        none_left if function == "bit_xor" else F.lit(None).cast("string")
    )


def _bytewise(function: str, left: Column, right: Column) -> Column:
    """Two byte strings of one length combined byte by byte."""

    def byte(text: Column, at: Column) -> Column:
        return F.conv(F.substring(text, at, F.lit(2)), 16, 10).cast("int")

    def combined(at: Column) -> Column:
        number = BITWISE[function](byte(left, at), byte(right, at))
        return F.lpad(F.lower(F.hex(number)), 2, "0")

    digits = F.transform(F.sequence(F.lit(1), F.length(left), F.lit(2)), combined)
    unequal = F.raise_error(F.lit(f"{function.upper()} of bytes of different lengths."))
    return (
        F.when(F.length(left) != F.length(right), unequal.cast("string"))
        .when(F.length(left) == 0, left)
        .otherwise(F.array_join(digits, ""))
    )


# The string functions' forms for bytes (functions.BYTES_FORMS), each `binary_<name>`.
# Each is NULL where an argument is (lower.py: Spark's GREATEST in the positions would
# skip a NULL).
FORMS: dict[str, Callable[[list[Column]], Column]] = {
    "concat": lambda a: F.concat(*a),
    "octet_length": lambda a: _octets(a[0]),
    "position": lambda a: _position(*a),
    "substring": lambda a: _substring(*a),
    "overlay": _overlay,
    "left": lambda a: _substring(a[0], F.lit(1), a[1]),
    "right": lambda a: _right(a[0], a[1]),
    "md5": lambda a: F.md5(F.unhex(a[0])),
    "sha1": lambda a: F.sha1(F.unhex(a[0])),
    "sha256": lambda a: F.sha2(F.unhex(a[0]), 256),
    "sha512": lambda a: F.sha2(F.unhex(a[0]), 512),
}
FUNCTIONS: dict[str, Callable[[list[Column]], Column]] = {
    **{f"binary_{name}": function for name, function in FORMS.items()},
    # CAST(x AS BINARY(n)): cut to n bytes, or padded with zero bytes to n
    "binary_fixed": lambda a: F.rpad(a[0], (a[1] * 2).cast("int"), "0"),
    "to_hex": lambda a: a[0],
    "to_int": lambda a: _to_int(a[0]),
    "bin2utf8": lambda a: _utf8(a[0]),
}
