"""The compiler's plan (docs/contracts.md) turned into Spark DataFrame operations.

Every relation flows as a DataFrame of weighted rows: columns c0..cN by position
(so no identifier from a program is ever parsed by Spark) plus WEIGHT, +1 for an
inserted row and -1 for a deleted one. Filters and projections are linear, so
applying them to a step's input changes yields exactly the view's changes.
"""

import datetime as dt
import functools
import math
import operator
import re
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from typing import Any

from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F
from pyspark.sql import types as T

from backend.compiler.semantic.literals import UUID_PATTERN
from backend.compiler.semantic.time_formats import java_pattern
from worker.runner import byte_strings
from worker.runner.intervals import (
    YEAR_MONTH,
    interval_days,
    interval_divided,
    interval_from_text,
    interval_of,
    interval_spark_type,
    interval_text,
    interval_units,
    is_interval,
)
from worker.runner.rows import (
    array_element,
    from_spark_map,
    is_map,
    is_row,
    map_entries,
    map_types,
    row_fields,
    sorted_entries,
)

WEIGHT = "__weight"
DECIMAL_TYPE = re.compile(r"DECIMAL\((\d+),\s*(\d+)\)")
SPARK_TYPES: dict[str, T.DataType] = {
    "BOOLEAN": T.BooleanType(),
    "TINYINT": T.ByteType(),
    "SMALLINT": T.ShortType(),
    "INTEGER": T.IntegerType(),
    "BIGINT": T.LongType(),
    "REAL": T.FloatType(),
    "DOUBLE": T.DoubleType(),
    "VARCHAR": T.StringType(),
    "DATE": T.DateType(),
    "TIMESTAMP": T.TimestampNTZType(),
    "TIME": T.StringType(),
    "UUID": T.StringType(),  # its canonical text: lower case, 8-4-4-4-12 (literals.uuid)
    "VARBINARY": T.StringType(),  # its hex digits, lower case (byte_strings.py)
    "NULL": T.NullType(),
}
# Types the ingress stores, and views publish, as JSON strings: read after parsing.
PARSED_FROM_STRING = ("DECIMAL", "DATE", "TIMESTAMP", "INTERVAL")


class LoweringError(Exception):
    """The plan has something this runner cannot execute: a compiler/runner mismatch."""


def spark_type(sql_type: str) -> T.DataType:
    if is_map(sql_type):  # its entries, sorted by key (rows.py)
        return spark_type(map_entries(sql_type))
    element = array_element(sql_type)
    if element is not None:
        return T.ArrayType(spark_type(element))
    if is_row(sql_type):  # a struct of positional fields, like a relation's columns
        fields = row_fields(sql_type)
        return T.StructType(
            [T.StructField(positional(i), spark_type(t)) for i, (_, t) in enumerate(fields)]
        )
    match = DECIMAL_TYPE.fullmatch(sql_type)
    if match:
        return T.DecimalType(int(match.group(1)), int(match.group(2)))
    if is_interval(sql_type):
        return interval_spark_type(sql_type)
    try:
        return SPARK_TYPES[sql_type]
    except KeyError as err:
        raise LoweringError(f"no Spark type for {sql_type}") from err


def scanned(rel: Any) -> Iterator[str]:
    """The relations a plan node reads (scans), depth first, with repeats.

    >>> list(scanned({"op": "union", "inputs": [{"op": "scan", "relation": "a"},
    ...                                         {"op": "scan", "relation": "b"}]}))
    ['a', 'b']
    """
    if isinstance(rel, Mapping):
        if rel.get("op") == "scan":
            yield rel["relation"]
        for value in rel.values():
            yield from scanned(value)
    elif isinstance(rel, list | tuple):
        for item in rel:
            yield from scanned(item)


def positional(index: int) -> str:
    return f"c{index}"


def _json_type(sql_type: str) -> T.DataType:
    if is_map(sql_type):  # a JSON object: its keys are text
        return T.MapType(T.StringType(), _json_type(map_types(sql_type)[1]))
    element = array_element(sql_type)
    if element is not None:
        return T.ArrayType(_json_type(element))
    if is_row(sql_type):  # a JSON object: its fields by name
        fields = row_fields(sql_type)
        return T.StructType([T.StructField(name, _json_type(t)) for name, t in fields])
    if sql_type == "VARBINARY":  # a JSON list of the bytes' numbers
        return T.ArrayType(T.IntegerType())
    return T.StringType() if sql_type.startswith(PARSED_FROM_STRING) else spark_type(sql_type)


def parse_rows(changes: DataFrame, relation: Mapping[str, Any]) -> DataFrame:
    """A relation's changes from the input log, or a view's published ones: JSON rows ->
    typed columns c0..cN and the weight, with the change's `seq` and JSON `row` kept
    beside them."""
    columns = relation["columns"]
    schema = T.StructType([T.StructField(c["name"], _json_type(c["type"])) for c in columns])
    parsed = changes.withColumn("__r", F.from_json("row", schema))
    return parsed.select(
        *(
            _as_kept(F.col("__r").getField(c["name"]), c["type"]).alias(positional(i))
            for i, c in enumerate(columns)
        ),
        F.col("weight").cast("int").alias(WEIGHT),
        "seq",
        "row",
    )


def _as_kept(value: Column, sql_type: str) -> Column:
    """A JSON row's value as Spark keeps it: a published interval's or TIME's text read
    back (worker/runner/step.py writes them for views)."""
    if is_map(sql_type):  # a JSON object's entries, the keys read from their text, sorted
        key, item = map_types(sql_type)
        kept_key = lambda e: _as_kept(e["key"], key)  # noqa: E731
        return sorted_entries(F.map_entries(value), kept_key, lambda e: _as_kept(e["value"], item))
    element = array_element(sql_type)
    if element is not None:
        return F.transform(value, lambda item: _as_kept(item, element))
    if is_row(sql_type):  # its fields by position, as a ROW value is kept
        fields = [
            _as_kept(value.getField(name), field_type).alias(positional(index))
            for index, (name, field_type) in enumerate(row_fields(sql_type))
        ]
        return F.when(value.isNotNull(), F.struct(*fields))
    if is_interval(sql_type):
        return interval_from_text(value, sql_type)
    if sql_type == "TIME":
        return kept_time(value)
    if sql_type == "VARBINARY":
        return byte_strings.kept(value)
    return value.cast(spark_type(sql_type))


def shown_time(time: Column) -> Column:
    """A TIME as a view shows it: its text ('HH:MM:SS[.ffffff]', as Weir keeps it) with
    a fraction of whole milliseconds in three digits, as Feldera writes it
    ('13:23:44.456', not '13:23:44.456000'). `kept_time` reads it back."""
    return F.regexp_replace(time, r"(\.\d{3})000$", "$1")


def kept_time(time: Column) -> Column:
    """A TIME as `shown_time` wrote it, back as Weir keeps it (six fraction digits)."""
    return F.when(time.rlike(r"\.\d{3}$"), F.concat(time, F.lit("000"))).otherwise(time)


BINARY: dict[str, Callable[[Column, Column], Column]] = {
    "and": lambda a, b: a & b,
    "or": lambda a, b: a | b,
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
    "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b,
    "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b,
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "mod": lambda a, b: a % b,
    "is_distinct_from": lambda a, b: ~a.eqNullSafe(b),
    "is_not_distinct_from": lambda a, b: a.eqNullSafe(b),
}
UNARY: dict[str, Callable[[Column], Column]] = {
    "not": lambda a: ~a,
    "neg": lambda a: -a,
    "is_null": lambda a: a.isNull(),
    "is_not_null": lambda a: a.isNotNull(),
    "upper": F.upper,
    "lower": F.lower,
    "abs": F.abs,
    # Spark's, as Calcite's, are Java's Math functions: ASIN(2) is NaN, COT(0) Infinity.
    **{name: getattr(F, name) for name in ("sin", "cos", "tan", "cot", "asin", "acos", "atan")},
    **{name: getattr(F, name) for name in ("sinh", "cosh", "tanh", "degrees", "radians", "cbrt")},
    **{name: getattr(F, name) for name in ("sec", "csc", "asinh", "acosh", "atanh")},
    # 1 / x as a power: Infinity at 0, as Java's division of doubles (Spark's ANSI
    # division would fail).
    "sech": lambda a: F.pow(F.cosh(a), -1.0),
    "csch": lambda a: F.pow(F.sinh(a), -1.0),
    "coth": lambda a: F.pow(F.tanh(a), -1.0),
    "is_nan": lambda a: F.when(a.isNotNull(), F.isnan(a)),  # Spark's isnan(NULL) is false
    "is_inf": lambda a: F.abs(a) == F.lit(float("inf")),
    "ascii": F.ascii,  # the code point of the first character, as Calcite's
    "octet_length": F.octet_length,
    "last_day": F.last_day,
    # In English (Spark's own DAYNAME and MONTHNAME are three letters: 'Mon', 'Jan').
    "dayname": lambda a: F.date_format(a, "EEEE"),
    "monthname": lambda a: F.date_format(a, "MMMM"),
}
INTEGRAL = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT")
FLOATING = ("REAL", "DOUBLE")


def _is_number(sql_type: str) -> bool:
    return sql_type in INTEGRAL or sql_type in FLOATING or sql_type.startswith("DECIMAL")


INFINITY, NAN = float("inf"), float("nan")


def _float_quotient(a: Column, b: Column) -> Column:
    """IEEE's a / b, as Feldera has it: over 0, Infinity of a's sign, NaN for 0 / 0 (Spark
    fails there)."""
    over_zero = F.when(a > 0, F.lit(INFINITY)).when(a < 0, F.lit(-INFINITY))
    over_zero = over_zero.when(a.isNotNull(), F.lit(NAN))
    return F.when(b == 0, over_zero).otherwise(a / b)


def _unless_a_null(args: list[Column], value: Column) -> Column:
    present = functools.reduce(operator.and_, (a.isNotNull() for a in args))
    return F.when(present, value)


def _moved(function: str, moved: str, operands: list[Column], types: list[str]) -> Column:
    """A DATE or TIME (`moved`) + or - an interval, as in Feldera. A DATE moves by whole
    months (YEAR TO MONTH), or by the whole days of a DAY TO SECOND interval, cut toward
    zero. A TIME moves around the clock by a DAY TO SECOND interval, and stays where it
    is for a YEAR TO MONTH one (whole days)."""
    value, interval = operands if types[0] == moved else operands[::-1]
    interval_type = types[1] if types[0] == moved else types[0]
    if moved == "TIME":
        if interval_type in YEAR_MONTH:
            return value
        moment = _on_epoch_day(value)
        return _time_of(moment + interval if function == "add" else moment - interval)
    if interval_type in YEAR_MONTH:
        return value + interval if function == "add" else value - interval
    days = interval_days(interval, interval_type)
    return F.date_add(value, days if function == "add" else -days)


def _like(operand: Column, pattern: Column, escape: str | None) -> Column:
    """LIKE; with no ESCAPE no character escapes (Spark's own default escape is the
    backslash, so NUL stands for none: a pattern holds no NUL)."""
    return F.like(operand, pattern, F.lit("\0" if escape is None else escape))


def _literal(value: Any, sql_type: str) -> Column:
    # Interval literals are whole numbers: microseconds, or months.
    if sql_type == "INTERVAL DAY TO SECOND":
        return F.lit(dt.timedelta(microseconds=value))
    if sql_type == "INTERVAL YEAR TO MONTH":
        return F.make_ym_interval(F.lit(0), F.lit(value))
    return F.lit(value).cast(spark_type(sql_type))


def _case(expr: Mapping[str, Any]) -> Column:
    whens = expr["whens"]
    # A WHEN whose condition is NULL is not taken, as in SQL; F.when does the same.
    result = F.when(lower_expr(whens[0][0]), lower_expr(whens[0][1]))
    for condition, value in whens[1:]:
        result = result.when(lower_expr(condition), lower_expr(value))
    if expr.get("else") is not None:
        result = result.otherwise(lower_expr(expr["else"]))
    return result.cast(spark_type(expr["type"]))


def _micros(value: Any) -> int:
    if not isinstance(value, int):
        raise LoweringError(f"expected an interval literal in microseconds, got {value!r}")
    return value


def _instant(time: Column) -> Column:
    """A TIMESTAMP (without a time zone) as Spark's instant, for its epoch functions: the
    same wall time, as the session's time zone is UTC."""
    return time.cast("timestamp")


def _on_epoch_day(time: Column) -> Column:
    """A TIME (or text) as the TIMESTAMP of that time on 1970-01-01, as Feldera casts a
    TIME; NULL for text that is no time of day."""
    moment = F.try_to_timestamp(F.concat(F.lit("1970-01-01 "), time))
    return moment.cast(T.TimestampNTZType())


def _as_timestamp(value: Column, raw: Mapping[str, Any]) -> Column:
    """A TIMESTAMP, DATE or TIME (`raw` its plan) as a TIMESTAMP (a TIME's on 1970-01-01)."""
    return _on_epoch_day(value) if raw.get("type") == "TIME" else value.cast(T.TimestampNTZType())


def _on_the_clock(moment: Column, raw: Mapping[str, Any]) -> Column:
    """`moment` back as a TIME where `raw`, the value it was made from, is one."""
    return _time_of(moment) if raw.get("type") == "TIME" else moment


def _time_of(time: Column) -> Column:
    """The time of day of a TIMESTAMP as a TIME is written (TIME is text in Spark, as the
    ingress writes it): 'HH:MM:SS', then '.ffffff' when there is a fraction."""
    whole = F.pmod(F.unix_micros(_instant(time)), F.lit(1_000_000)) == 0
    return F.when(whole, F.date_format(time, "HH:mm:ss")).otherwise(
        F.date_format(time, "HH:mm:ss.SSSSSS")
    )


def _micros_of_minute(args: list[Column]) -> Column:
    """The seconds of a TIMESTAMP or TIME with their fraction, in microseconds."""
    return F.pmod(F.unix_micros(_instant(args[0])), F.lit(60_000_000))


def _tumble_start(args: list[Column], raw: list[Mapping[str, Any]]) -> Column:
    """The start of the window of `size` (raw[1]) holding the time: windows start at
    offset + k * size (raw[2], 0 when absent)."""
    size = _micros(raw[1].get("value"))
    offset = _micros(raw[2].get("value")) if len(raw) > 2 else 0
    micros = F.unix_micros(_instant(args[0]))
    start = micros - F.pmod(micros - F.lit(offset), F.lit(size))
    return F.timestamp_micros(start).cast(T.TimestampNTZType())


def _tumble_end(args: list[Column], raw: list[Mapping[str, Any]]) -> Column:
    size = _micros(raw[1].get("value"))
    return _tumble_start(args, raw) + F.lit(dt.timedelta(microseconds=size))


def _unit(raw: list[Mapping[str, Any]]) -> str:
    return str(raw[1].get("value", "")).upper()


# Units FLOOR and CEIL take beyond Spark's date_trunc's, as years; and each unit's length.
YEARS_OF = {"DECADE": 10, "CENTURY": 100, "MILLENNIUM": 1000}
UNIT_STEPS = {
    **{unit: f"{years} YEARS" for unit, years in YEARS_OF.items()},
    "QUARTER": "3 MONTHS",
    "ISOWEEK": "7 DAYS",
}


def _floor_time(args: list[Column], raw: list[Mapping[str, Any]]) -> Column:
    return _floor_or_ceil_time(args[0], raw, up=False)


def _ceil_time(args: list[Column], raw: list[Mapping[str, Any]]) -> Column:
    return _floor_or_ceil_time(args[0], raw, up=True)


def _floor_or_ceil_time(value: Column, raw: list[Mapping[str, Any]], up: bool) -> Column:
    """FLOOR / CEIL(value TO unit) of a TIMESTAMP, DATE or TIME (a time of 1970-01-01)."""
    unit = _unit(raw)
    of_time = raw[0].get("type") == "TIME"
    moment = _on_epoch_day(value) if of_time else value
    result = _floored(unit, moment)
    if up:
        step = F.expr(f"INTERVAL {UNIT_STEPS.get(unit, '1 ' + unit)}")
        result = F.when(result == moment, result).otherwise(result + step)
    return _time_of(result) if of_time else result


def _floored(unit: str, moment: Column) -> Column:
    """The start of `moment`'s unit: a DECADE, CENTURY or MILLENNIUM starts at a year that
    is a multiple of 10, 100 or 1000, and a WEEK on Sunday (Calcite's and Feldera's); an
    ISOWEEK (DATE_TRUNC('week', ts)) on Monday."""
    if unit in YEARS_OF:
        year = F.year(moment)
        return F.make_date(year - F.pmod(year, F.lit(YEARS_OF[unit])), F.lit(1), F.lit(1))
    if unit == "WEEK":
        day = F.expr("INTERVAL 1 DAY")
        return F.date_trunc("WEEK", moment + day) - day
    return F.date_trunc("WEEK" if unit == "ISOWEEK" else unit, moment)


def _substring(args: list[Column], raw: list[Mapping[str, Any]]) -> Column:
    length = args[2] if len(args) > 2 else F.lit(2**31 - 1)
    return args[0].substr(args[1].cast("int"), length.cast("int"))


def _field(args: list[Column], raw: list[Mapping[str, Any]]) -> Column:
    """`field(row, i)`: the i-th field of a ROW value (payload.col)."""
    index = raw[1].get("value")
    if raw[1]["kind"] != "literal" or not isinstance(index, int):
        raise LoweringError("a field's position must be an integer literal")
    return args[0].getField(positional(index))


def _round(args: list[Column], raw: list[Mapping[str, Any]]) -> Column:
    return _rounded(F.round, args, raw)


def _bround(args: list[Column], raw: list[Mapping[str, Any]]) -> Column:
    """BROUND(x [, n]): ROUND with a half to the even neighbour (banker's, Feldera's)."""
    return _rounded(F.bround, args, raw)


def _rounded(
    rounding: Callable[[Column, int], Column], args: list[Column], raw: list[Mapping[str, Any]]
) -> Column:
    if len(args) == 1:
        return rounding(args[0], 0)
    return _to_places(rounding, args[0], args[1], raw)


def _truncate(args: list[Column], raw: list[Mapping[str, Any]]) -> Column:
    """TRUNCATE(x [, n]): toward zero, to n decimal places."""
    if len(args) == 1:
        return toward_zero(args[0], 0)
    return _to_places(toward_zero, args[0], args[1], raw)


# The digits before the point an integer type can hold.
INTEGER_DIGITS = {"TINYINT": 3, "SMALLINT": 5, "INTEGER": 10, "BIGINT": 19}


def _to_places(
    cut: Callable[[Column, int], Column],
    x: Column,
    places: Column,
    raw: list[Mapping[str, Any]],
) -> Column:
    """x cut (rounded or truncated) to `places` decimal places. Spark takes only a
    constant number of places: for a column (ROUND(x, g)), an integer or DECIMAL(p, s)
    x has one CASE branch for each number of places that can change it (s - 1 down to
    s - p - 1, where it is 0) and is itself at s places or more; a DOUBLE is cut at
    x * 10^n and divided back."""
    if raw[1]["kind"] == "literal":
        return cut(x, raw[1]["value"])
    sql_type = raw[0]["type"]
    n = places.cast("int")
    if sql_type in FLOATING:
        shift = F.pow(F.lit(10.0), n)
        shifted = cut(x.cast("double") * shift, 0) / shift
        return F.when(F.isnan(shifted) | (F.abs(shifted) == F.lit(INFINITY)), x).otherwise(shifted)
    precision, scale = INTEGER_DIGITS.get(sql_type, 0), 0
    if sql_type.startswith("DECIMAL"):
        precision, scale = (int(part) for part in sql_type[8:-1].split(","))
    # Each branch in x's type: Spark's common type of DECIMAL(38,2) and DECIMAL(38,0)
    # would drop a digit of the scale (SUM's type: 19.75 came back 19.8).
    same = spark_type(sql_type)
    result = F.when(n.isNull(), F.lit(None).cast(same)).when(n >= scale, x.cast(same))
    for k in range(scale - 1, scale - precision - 1, -1):
        result = result.when(n == k, cut(x, k).cast(same))
    return result.otherwise(F.lit(0).cast(same))


def toward_zero(x: Column, places: int) -> Column:
    """x cut toward zero to `places` decimal places (to tens, ... below 0)."""
    return F.when(x >= 0, F.floor(x, F.lit(places))).otherwise(F.ceil(x, F.lit(places)))


def _sign_bit(x: Column) -> Column:
    """Whether the DOUBLE x is negative or -0.0 (which compares equal to 0.0)."""
    return x.cast("string").startswith("-")


def _atan2(args: list[Column], raw: list[Mapping[str, Any]]) -> Column:
    """ATAN2(y, x) as Java's Math.atan2, which Calcite calls: Spark's adds 0.0 to both
    first, losing the sign of a -0.0 (Java's ATAN2(-0.0, -1) is -pi, Spark's pi)."""
    y, x = (arg.cast("double") for arg in args)
    on_the_axis = F.when(_sign_bit(x), F.lit(math.pi)).otherwise(F.lit(0.0))
    at_zero = F.when(_sign_bit(y), -on_the_axis).otherwise(on_the_axis)
    return F.when((y == 0) & x.isNotNull() & ~F.isnan(x), at_zero).otherwise(F.atan2(y, x))


def _chr(args: list[Column], raw: list[Mapping[str, Any]]) -> Column:
    """CHR(n): the character of code point n, as four bytes of UTF-32; '' when n is no
    code point (below 0, above U+10FFFF or a surrogate), as Feldera has it (Spark's own
    CHR is the character of n % 256)."""
    code = args[0].cast("long")
    valid = code.between(0, 0x10FFFF) & ~code.between(0xD800, 0xDFFF)
    utf32 = F.unhex(F.lpad(F.hex(code), 8, "0"))
    return F.when(valid, F.decode(utf32, "UTF-32")).when(code.isNotNull(), F.lit(""))


def _regexp_extract(args: list[Column], raw: list[Mapping[str, Any]]) -> Column:
    """REGEXP_EXTRACT(s, pattern, group): NULL where the pattern does not match (Spark's
    own is '' there)."""
    pattern, group = raw[1]["value"], raw[2]["value"]
    return F.when(args[0].rlike(pattern), F.regexp_extract(args[0], pattern, group))


def _split_index(args: list[Column], raw: list[Mapping[str, Any]]) -> Column:
    """SPLIT_INDEX(s, separator, i): the i-th piece (from 0) of s split at every
    separator, NULL past the last one and for i < 0; '' has no piece, as in Flink."""
    text, _, index = args
    pieces = F.split(text, F.lit(re.escape(raw[1]["value"])), -1)
    piece = F.try_element_at(pieces, (index + 1).cast("int"))
    return F.when((index >= 0) & (text != ""), piece)


def _format_datetime(args: list[Column], raw: list[Mapping[str, Any]]) -> Column:
    """FORMAT_DATE / FORMAT_TIMESTAMP(format, value): strftime's format in Java's words."""
    return F.date_format(args[1], java_pattern(raw[0]["value"]))


def _parsed(args: list[Column], raw: list[Mapping[str, Any]]) -> Column:
    """PARSE_*(format, text): the text read as the strftime format says, NULL if it does
    not read so (a DATE or TIME from the TIMESTAMP, a TIME's of 1970-01-01). Spaces in
    the format match any run of spaces, as chrono's (Feldera's) do: both are read with
    each run of whitespace one space, and none at either end."""
    pattern = re.sub(r"\s+", " ", raw[0]["value"]).strip()
    text = F.trim(F.regexp_replace(args[1], r"\s+", " "))
    return F.try_to_timestamp(text, F.lit(java_pattern(pattern)))


def _overlay(args: list[Column], raw: list[Mapping[str, Any]]) -> Column:
    """OVERLAY(s PLACING r FROM n [FOR m]) as Feldera has it: m characters from the n-th
    replaced by r (m: r's length when absent, 0 when below 0); s when n < 1; s || r when
    n is past s's end. NULL when any argument is (Spark's takes m < 0 as r's length)."""
    text, replacement, start = args[:3]
    length = F.greatest(args[3], F.lit(0)) if len(args) > 3 else F.char_length(replacement)
    after = start.cast("long") + length.cast("long")  # past INTEGER's range for a huge m
    rest = F.when(after > F.char_length(text), F.lit("")).otherwise(
        text.substr(after.cast("int"), F.lit(2**31 - 1))
    )
    replaced = F.concat(F.left(text, start - 1), replacement, rest)
    any_null = functools.reduce(operator.or_, (arg.isNull() for arg in args))
    return F.when(any_null, F.lit(None)).when(start < 1, text).otherwise(replaced)


Scalar = Callable[[list[Column], list[Mapping[str, Any]]], Column]


def _element(a: list[Column], raw: list[Mapping[str, Any]]) -> Column:
    """An array's one element; NULL for an empty (or NULL) array; more than one fails the
    step, as Feldera's ELEMENT does."""
    size = F.size(a[0])  # -1 or NULL for a NULL array
    many = F.raise_error(
        F.lit(
            "ELEMENT() of an array of more than one element "
            "(or a scalar subquery of more than one row)."
        )
    )
    return F.when(size == 1, F.element_at(a[0], 1)).when(size > 1, many)


def _split(a: list[Column], raw: list[Mapping[str, Any]]) -> Column:
    """Feldera's SPLIT(s[, delimiter]): the parts of s at each delimiter (',' when absent),
    an empty last part too; an empty s has none, an empty delimiter gives s whole."""
    text, delimiter = a[0], a[1] if len(a) == 2 else F.lit(",")
    literal = F.concat(F.lit("\\Q"), delimiter, F.lit("\\E"))  # not a pattern
    return (
        F.when(text == "", F.array().cast("array<string>"))
        .when(delimiter == "", F.array(text))
        .otherwise(F.split(text, literal, -1))
    )


def _array_to_string(a: list[Column], raw: list[Mapping[str, Any]]) -> Column:
    """The strings of an array joined by a separator; a NULL element is left out, or
    written as the third argument where it is given and not NULL."""
    joined = F.call_function("array_join", a[0], a[1])
    if len(a) == 2:
        return joined
    return F.when(a[2].isNull(), joined).otherwise(F.call_function("array_join", *a))


def _of_bytes(function: Callable[[list[Column]], Column]) -> Scalar:
    """A function of bytes (byte_strings.py), NULL where an argument is."""
    return lambda a, r: _unless_a_null(a, function(a))


SCALAR: dict[str, Scalar] = {
    **{name: _of_bytes(function) for name, function in byte_strings.FUNCTIONS.items()},
    "tumble_start": _tumble_start,
    "tumble_end": _tumble_end,
    "floor_time": _floor_time,
    "ceil_time": _ceil_time,
    "extract_year": lambda a, r: F.year(a[0]),
    "extract_month": lambda a, r: F.month(a[0]),
    "extract_quarter": lambda a, r: F.quarter(a[0]),
    "extract_week": lambda a, r: F.weekofyear(a[0]),
    "extract_day": lambda a, r: F.dayofmonth(a[0]),
    "extract_dow": lambda a, r: F.dayofweek(a[0]),
    "extract_doy": lambda a, r: F.dayofyear(a[0]),
    "extract_isodow": lambda a, r: (F.dayofweek(a[0]) + 5) % 7 + 1,  # Monday 1 .. Sunday 7
    "extract_isoyear": lambda a, r: F.extract(F.lit("YEAROFWEEK"), a[0]),
    "extract_decade": lambda a, r: F.floor(F.year(a[0]) / 10),
    "extract_century": lambda a, r: F.floor((F.year(a[0]) + 99) / 100),
    "extract_millennium": lambda a, r: F.floor((F.year(a[0]) + 999) / 1000),
    "extract_hour": lambda a, r: F.hour(a[0]),
    "extract_minute": lambda a, r: F.minute(a[0]),
    "extract_second": lambda a, r: F.second(a[0]),
    "extract_millisecond": lambda a, r: F.floor(_micros_of_minute(a) / 1000),
    "extract_microsecond": lambda a, r: _micros_of_minute(a),
    "extract_nanosecond": lambda a, r: _micros_of_minute(a) * 1000,
    "extract_epoch": lambda a, r: (
        F.unix_date(a[0]) * 86400 if r[0]["type"] == "DATE" else F.unix_seconds(_instant(a[0]))
    ),
    "timestampadd": lambda a, r: _on_the_clock(
        F.timestamp_add(r[0]["value"], a[1], _as_timestamp(a[2], r[2])), r[2]
    ),
    "months": lambda a, r: F.make_ym_interval(F.lit(0), a[0]),  # an INTERVAL YEAR TO MONTH
    "interval_of": lambda a, r: interval_of(a[0], r[1]["value"]),  # INTERVAL n HOUR
    "timestampdiff": lambda a, r: F.timestamp_diff(
        r[0]["value"], _as_timestamp(a[1], r[1]), _as_timestamp(a[2], r[2])
    ),
    "nullif": lambda a, r: F.when(a[0] == a[1], F.lit(None)).otherwise(a[0]),
    # NULL where an argument is (Calcite's, Feldera's); Spark's own leave NULLs out.
    "greatest": lambda a, r: _unless_a_null(a, F.greatest(*a)),
    "least": lambda a, r: _unless_a_null(a, F.least(*a)),
    "greatest_ignore_nulls": lambda a, r: F.greatest(*a),
    "least_ignore_nulls": lambda a, r: F.least(*a),
    "round": _round,
    "bround": _bround,
    "truncate": _truncate,
    "floor": lambda a, r: F.floor(a[0]),
    "ceil": lambda a, r: F.ceil(a[0]),
    "power": lambda a, r: F.pow(a[0], a[1]),
    "sqrt": lambda a, r: F.sqrt(a[0]),
    "char_length": lambda a, r: F.char_length(a[0]),
    "substring": _substring,
    "trim": lambda a, r: F.trim(*a),
    "ltrim": lambda a, r: F.ltrim(*a),
    "rtrim": lambda a, r: F.rtrim(*a),
    "initcap": lambda a, r: _initcap(a[0]),
    "initcap_spaces": lambda a, r: F.initcap(a[0]),  # words between spaces (Spark's own)
    "exp": lambda a, r: F.exp(a[0]),
    "ln": lambda a, r: F.ln(a[0]),
    "log10": lambda a, r: F.log10(a[0]),
    "log": lambda a, r: F.ln(a[0]) if len(a) == 1 else F.call_function("log", a[1], a[0]),
    "sign": lambda a, r: F.signum(a[0]),
    "replace": lambda a, r: F.replace(a[0], a[1], a[2]),
    "position": lambda a, r: F.call_function("locate", *a),  # from a start, when given
    # Spark's, as Calcite's: a count below 0 gives '' (LEFT, RIGHT, REPEAT, LPAD, RPAD).
    "left": lambda a, r: F.left(a[0], a[1]),
    "right": lambda a, r: F.right(a[0], a[1]),
    "repeat": lambda a, r: F.call_function("repeat", a[0], a[1]),
    "lpad": lambda a, r: F.call_function("lpad", *a) if len(a) == 3 else F.lpad(a[0], a[1], " "),
    "rpad": lambda a, r: F.call_function("rpad", *a) if len(a) == 3 else F.rpad(a[0], a[1], " "),
    "reverse": lambda a, r: F.reverse(a[0]),
    # A NULL value is '' between its separators, as in Feldera (not left out).
    "concat_ws": lambda a, r: F.call_function(
        "concat_ws", a[0], *(F.coalesce(v, F.lit("")) for v in a[1:])
    ),
    "md5": lambda a, r: F.md5(a[0]),
    "sha1": lambda a, r: F.sha1(a[0]),
    "sha256": lambda a, r: F.sha2(a[0], 256),
    "sha512": lambda a, r: F.sha2(a[0], 512),
    # From start to end; none when end is before start (Spark's own counts down).
    "sequence": lambda a, r: F.when(a[1] < a[0], F.array()).otherwise(F.sequence(a[0], a[1])),
    "regexp_replace": lambda a, r: F.regexp_replace(a[0], a[1], a[2]),
    "rlike": lambda a, r: a[0].rlike(r[1]["value"]),  # a match anywhere (Java's find)
    "regexp_extract": _regexp_extract,
    "split_index": _split_index,
    # Spark's own fails on part 0, which is no part: ''.
    "split_part": lambda a, r: F.when(a[2] == 0, F.lit("")).otherwise(
        F.split_part(a[0], a[1], a[2].cast("int"))
    ),
    "format_date": _format_datetime,
    "format_timestamp": _format_datetime,
    "parse_date": _parsed,
    "parse_timestamp": _parsed,
    "parse_time": lambda a, r: _time_of(_parsed(a, r)),
    "pi": lambda a, r: F.pi(),
    "atan2": _atan2,
    "chr": _chr,
    "array": lambda a, r: F.array(*a),
    "row": lambda a, r: F.struct(*(value.alias(positional(i)) for i, value in enumerate(a))),
    # From 1, NULL past either end (Spark's counts from the end below 0, fails at 0).
    "item": lambda a, r: (
        F.try_element_at(F.map_from_entries(a[0]), a[1])  # a MAP's value, NULL for no key
        if is_map(r[0]["type"])
        else F.when(a[1] >= 1, F.try_element_at(a[0], a[1]))
    ),
    "cardinality": lambda a, r: F.when(a[0].isNotNull(), F.size(a[0])),  # a MAP's entries too
    # MAP values are kept as their entries sorted by key (rows.py): c0 key, c1 value.
    "map": lambda a, r: from_spark_map(F.create_map(*a)),  # a repeated key: the last value
    "map_keys": lambda a, r: F.transform(a[0], lambda e: e["c0"]),
    "map_values": lambda a, r: F.transform(a[0], lambda e: e["c1"]),
    "map_contains_key": lambda a, r: F.when(
        a[0].isNotNull() & a[1].isNotNull(), F.exists(a[0], lambda e: e["c0"] == a[1])
    ),
    # NULL where any is; a key in several: the last one's value (session.py)
    "map_concat": lambda a, r: from_spark_map(F.map_concat(*(F.map_from_entries(m) for m in a))),
    # FALSE where only a NULL element could match (Spark's is NULL there), as in Feldera.
    "array_contains": lambda a, r: F.when(
        a[0].isNotNull() & a[1].isNotNull(), F.coalesce(F.array_contains(a[0], a[1]), F.lit(False))
    ),
    "array_position": lambda a, r: F.call_function("array_position", a[0], a[1]),
    "array_remove": lambda a, r: F.call_function("array_remove", a[0], a[1]),
    "array_append": lambda a, r: F.array_append(a[0], a[1]),
    "array_prepend": lambda a, r: F.array_prepend(a[0], a[1]),
    # From 1, or from the end when negative (-1: after the last), padded with NULLs past
    # the end; 0 fails the step, as in Feldera.
    "array_insert": lambda a, r: F.array_insert(a[0], a[1], a[2]),
    # UNNEST(a, b, ...): the arrays side by side, a NULL one as empty (unnest.py)
    "arrays_zip": lambda a, r: F.arrays_zip(
        *(F.coalesce(x, F.array().cast(spark_type(t["type"]))) for x, t in zip(a, r, strict=True))
    ),
    "array_compact": lambda a, r: F.array_compact(a[0]),
    "array_distinct": lambda a, r: F.array_distinct(a[0]),  # the first of each, in order
    "array_reverse": lambda a, r: F.reverse(a[0]),
    # NULL elements first ascending, last descending: the smallest, as in Feldera.
    "sort_array": lambda a, r: F.sort_array(a[0], asc=len(r) == 1 or bool(r[1]["value"])),
    "array_max": lambda a, r: F.array_max(a[0]),
    "array_min": lambda a, r: F.array_min(a[0]),
    "element": _element,
    "array_concat": lambda a, r: F.concat(*a),
    "array_except": lambda a, r: F.array_except(a[0], a[1]),
    "array_intersect": lambda a, r: F.array_intersect(a[0], a[1]),
    "array_union": lambda a, r: F.array_union(a[0], a[1]),
    "arrays_overlap": lambda a, r: F.arrays_overlap(a[0], a[1]),
    "array_repeat": lambda a, r: F.call_function("array_repeat", a[0], a[1]),
    "array_to_string": _array_to_string,
    "split": _split,
    "overlay": _overlay,
    "field": _field,
}


def _initcap(text: Column) -> Column:
    """Each word's first letter in upper case, the others in lower case, a word being a run
    of letters and digits (Calcite's and Feldera's INITCAP: 'h@pP' is 'H@Pp'); Spark's own
    starts words only after white space."""
    chars = F.split(text, "")

    def cased(char: Column, index: Column) -> Column:
        before = F.element_at(chars, F.greatest(index, F.lit(1)))  # (1-based: the previous)
        starts = (index == 0) | ~before.rlike(r"^[\p{L}\p{Nd}]$")
        return F.when(starts, F.upper(char)).otherwise(F.lower(char))

    return F.array_join(F.transform(chars, cased), "")


def _cast(operand: Column, source: str | None, target: str) -> Column:
    """CAST(operand AS target) of an operand of type `source`, as Feldera casts: text that
    is no DATE, TIMESTAMP or TIME is NULL, and no number a REAL or DOUBLE 0 (another
    number type fails the step, as Feldera's does); a TIME is written as the ingress
    writes it; a BOOLEAN is TRUE or FALSE as text; an interval is written for its units,
    and one of a single unit is a number of them (intervals.py); a TIMESTAMP is a number
    of milliseconds since 1970-01-01 and back."""
    if source == "VARCHAR" and target in ("DATE", "TIMESTAMP"):
        return operand.try_cast(spark_type(target))
    if source in ("VARCHAR", "VARBINARY") and target == "UUID":  # bytes: 16 of them
        return _uuid_of(operand)
    if source == "VARCHAR" and target == "VARBINARY":
        return byte_strings.of_text(operand)
    if source == "UUID" and target == "VARBINARY":
        return byte_strings.of_uuid(operand)
    cut = _decimal_cut(operand, source, target)
    if cut is not None:
        return cut
    if source == "VARCHAR" and target in FLOATING:
        number = operand.try_cast(spark_type(target))
        return F.when(operand.isNotNull(), F.coalesce(number, F.lit(0.0)))
    if source == "VARCHAR" and target == "TIME":
        return _time_of(_on_epoch_day(F.trim(operand)))
    if source == "TIMESTAMP" and target == "TIME":
        return _time_of(operand)
    if source == "TIME" and target == "TIMESTAMP":
        return _on_epoch_day(operand)
    if source == "TIMESTAMP" and _is_number(target):  # milliseconds since the epoch
        return F.unix_millis(_instant(operand)).cast(spark_type(target))
    if source is not None and _is_number(source) and target == "TIMESTAMP":
        moment = F.timestamp_millis(F.floor(operand).cast("long"))
        return moment.cast(T.TimestampNTZType())
    if source == "VARCHAR" and is_interval(target):
        return interval_from_text(operand, target)
    if source is not None and is_interval(source) and target == "VARCHAR":
        return interval_text(operand, source)
    if source is not None and is_interval(source) and target in INTEGRAL:
        return interval_units(operand, source).cast(spark_type(target))
    value = operand.cast(spark_type(target))
    if is_map(target):  # its keys cast may sort otherwise
        return F.array_sort(value)
    return F.upper(value) if source == "BOOLEAN" and target == "VARCHAR" else value


def _uuid_of(text: Column, safe: bool = False) -> Column:
    """Text as a UUID's canonical text; text that is no UUID fails the step, as Feldera's
    cast does (literals.UUID_PATTERN: no blank trimmed, no URN), or is NULL (`safe`)."""
    digits = F.lower(F.regexp_replace(text, r"[-{}]", ""))
    parts = [F.substring(digits, start, length) for start, length in UUID_GROUPS]
    canonical = F.when(text.rlike(f"^({UUID_PATTERN})$"), F.concat_ws("-", *parts))
    if safe:
        return canonical
    invalid = F.raise_error(F.concat(F.lit("Invalid UUID '"), text, F.lit("'.")))
    return F.when(text.isNull() | canonical.isNotNull(), canonical).otherwise(invalid)


UUID_GROUPS = ((1, 8), (9, 4), (13, 4), (17, 4), (21, 12))  # (start from 1, length)


def _decimal_cut(operand: Column, source: str | None, target: str) -> Column | None:
    """Text or a DECIMAL of more places cast to DECIMAL(p, s): cut toward zero to s
    places, as Feldera casts (`CAST('0.5' AS DECIMAL)` is 0; Spark's own rounds)."""
    wanted = DECIMAL_TYPE.fullmatch(target)
    if wanted is None or source is None:
        return None
    precision, scale = int(wanted.group(1)), int(wanted.group(2))
    given = DECIMAL_TYPE.fullmatch(source)
    if given is not None and int(given.group(2)) > scale:
        return toward_zero(operand, scale).cast(spark_type(target))
    if source == "VARCHAR":  # as many places as 38 digits leave beside the whole ones
        wide = operand.cast(T.DecimalType(38, 38 - (precision - scale)))
        return toward_zero(wide, scale).cast(spark_type(target))
    return None


# While a lambda's body is lowered: its parameter, the body's column 0 (`_lambda`).
_LAMBDA_PARAMETER: ContextVar[Column | None] = ContextVar("lambda_parameter", default=None)


def _lambda(function: Mapping[str, Any]) -> Callable[[Column], Column]:
    """A plan's lambda (`x -> body`) as the function of a Column Spark's TRANSFORM and
    EXISTS call: the body, whose column 0 is the parameter."""

    def body(parameter: Column) -> Column:
        token = _LAMBDA_PARAMETER.set(parameter)
        try:
            return lower_expr(function["body"]).cast(spark_type(function["type"]))
        finally:
            _LAMBDA_PARAMETER.reset(token)

    return body


def lower_expr(expr: Mapping[str, Any]) -> Column:
    kind = expr["kind"]
    if kind == "column":
        parameter = _LAMBDA_PARAMETER.get()
        return F.col(positional(expr["index"])) if parameter is None else parameter
    if kind == "literal":
        return _literal(expr["value"], expr["type"])
    if kind == "cast":
        return _cast(lower_expr(expr["expr"]), expr["expr"].get("type"), expr["type"])
    if kind == "case":
        return _case(expr)
    if kind != "call":
        raise LoweringError(f"unknown expression kind {kind!r}")
    function, args = expr["function"], expr["args"]
    if function == "transform":  # TRANSFORM(a, x -> e): NULL for a NULL array
        return F.transform(lower_expr(args[0]), _lambda(args[1]))
    if function == "array_exists":  # NULL where no element is TRUE and one is NULL
        return F.exists(lower_expr(args[0]), _lambda(args[1]))
    lowered = [lower_expr(a) for a in args]
    if function == "div" and expr["type"] in FLOATING:
        return _float_quotient(*lowered).cast(spark_type(expr["type"]))
    if function == "div" and expr["type"] in INTEGRAL:
        # Spark's `div`: whole numbers cut toward zero, in BIGINT (a quotient through a
        # DOUBLE lost the last digits of large ones); the cast fails where it overflows.
        return F.call_function("div", *lowered).cast(spark_type(expr["type"]))
    if function == "div" and is_interval(expr["type"]):
        floating = args[1].get("type") in FLOATING
        return interval_divided(lowered[0], lowered[1], expr["type"], floating)
    if function == "div":
        return lowered[0] / lowered[1]
    if function in ("add", "sub") and expr["type"] in ("DATE", "TIME"):
        return _moved(function, expr["type"], lowered, [a.get("type", "") for a in args])
    if function == "sub" and [a.get("type") for a in args] == ["TIME", "TIME"]:
        return _on_epoch_day(lowered[0]) - _on_epoch_day(lowered[1])  # a DAY TO SECOND
    if function == "mod" and expr["type"] in FLOATING:  # NaN by 0, as in Feldera
        return F.when(lowered[1] == 0, F.lit(NAN)).otherwise(lowered[0] % lowered[1])
    if function == "safe_cast" and expr["type"] == "UUID":
        return _uuid_of(lowered[0], safe=True)
    if function == "safe_cast" and expr["type"] == "VARBINARY":  # every such CAST converts
        return _cast(lowered[0], args[0].get("type"), "VARBINARY")
    if function == "safe_cast":  # NULL where the value does not convert (CAST fails)
        return lowered[0].try_cast(spark_type(expr["type"]))
    if function == "concat":
        return F.concat(*lowered)
    if function == "coalesce":
        return F.coalesce(*lowered)
    if function == "like":
        return _like(lowered[0], lowered[1], args[2]["value"] if len(args) == 3 else None)
    if function in SCALAR:
        return SCALAR[function](lowered, args).cast(spark_type(expr["type"]))
    if function in UNARY and len(lowered) == 1:
        return UNARY[function](lowered[0])
    if function in BINARY and len(lowered) == 2:
        return BINARY[function](lowered[0], lowered[1])
    raise LoweringError(f"function {function!r} with {len(args)} arguments is not supported")


def lower_rel(rel: Mapping[str, Any], relations: Mapping[str, DataFrame]) -> DataFrame:
    """A plan node applied to the changes of its inputs in this step: its own changes."""
    op = rel["op"]
    if op == "scan":
        return relations[rel["relation"]]
    child = lower_rel(rel["input"], relations)
    if op == "filter":
        # A row passes only where the condition is TRUE (not NULL), as in SQL.
        return child.where(F.coalesce(lower_expr(rel["condition"]), F.lit(False)))
    if op == "project":
        return child.select(
            *(lower_expr(e).alias(positional(i)) for i, e in enumerate(rel["exprs"])), WEIGHT
        )
    raise LoweringError(f"unknown plan node {op!r}")
