"""Intervals as Spark holds them, and as Weir writes them.

An interval type of the plan is INTERVAL YEAR TO MONTH or INTERVAL DAY TO SECOND, or
one of those with the units `(t1 - t2) unit [TO unit]` gave it (INTERVAL MONTH,
INTERVAL HOUR TO MINUTE: backend/compiler/semantic/types.py). Spark holds the first
kind in months, the second in microseconds, whatever the units; the units decide how
the interval is written (Feldera's, the SQL standard's literal without its quotes):

    INTERVAL YEAR           +10             INTERVAL DAY TO HOUR     +3683 00
    INTERVAL MONTH          -32             INTERVAL DAY TO MINUTE   +3683 00:00
    INTERVAL YEAR TO MONTH  +10-01          INTERVAL DAY TO SECOND   +3683 00:00:00
    INTERVAL DAY            +3683           INTERVAL HOUR TO MINUTE  +88392:00
    INTERVAL HOUR           +88392          INTERVAL HOUR TO SECOND  +88392:00:00.000000
    INTERVAL MINUTE         +5303520        INTERVAL MINUTE TO SECOND +5303520:00.000000
    INTERVAL SECOND         +318211200.000000

(DAY TO SECOND shows its fraction only when there is one.) A single unit's interval
casts to an integer as its number of those units, cut toward zero.
"""

from __future__ import annotations

from pyspark.sql import Column
from pyspark.sql import functions as F
from pyspark.sql import types as T

YEAR_MONTH = frozenset({"INTERVAL YEAR", "INTERVAL MONTH", "INTERVAL YEAR TO MONTH"})
MICROS = {"DAY": 86_400_000_000, "HOUR": 3_600_000_000, "MINUTE": 60_000_000, "SECOND": 1_000_000}
MONTHS = {"YEAR": 12, "MONTH": 1}


def is_interval(sql_type: str) -> bool:
    return sql_type.startswith("INTERVAL")


def interval_spark_type(sql_type: str) -> T.DataType:
    """Months for the YEAR and MONTH intervals, microseconds for the others."""
    return T.YearMonthIntervalType() if sql_type in YEAR_MONTH else T.DayTimeIntervalType()


def _whole(value: Column, sql_type: str) -> Column:
    """The interval as a BIGINT: its months, or its microseconds."""
    if sql_type in YEAR_MONTH:
        return value.cast(T.YearMonthIntervalType(1, 1)).cast("long")  # in months
    seconds = value.cast(T.DayTimeIntervalType(3, 3)).cast(T.DecimalType(30, 6))
    return (seconds * 1_000_000).cast("long")


def _div(a: Column, n: int) -> Column:
    return F.call_function("div", a, F.lit(n))


def _zero_padded(n: Column, width: int = 2) -> Column:
    return F.lpad(n.cast("string"), width, "0")


def interval_units(value: Column, sql_type: str) -> Column:
    """A single unit's interval (INTERVAL HOUR) as its number of that unit, cut toward
    zero, a BIGINT."""
    unit = sql_type.removeprefix("INTERVAL ")
    return _div(_whole(value, sql_type), MONTHS.get(unit) or MICROS[unit])


def interval_of(amount: Column, unit: str) -> Column:
    """`INTERVAL amount unit`: that many units (a number, or its text), in months for
    YEAR and MONTH (a fraction of a month cut), else in microseconds."""
    number = amount.cast(T.DecimalType(38, 9))
    if unit in MONTHS:
        return F.make_ym_interval(F.lit(0), (number * MONTHS[unit]).cast("int"))
    seconds = (number * (MICROS[unit] // MICROS["SECOND"])).cast(T.DecimalType(18, 6))
    return F.make_dt_interval(F.lit(0), F.lit(0), F.lit(0), seconds)


def interval_divided(value: Column, divisor: Column, sql_type: str, floating: bool) -> Column:
    """An interval divided by a number (`floating`: a REAL or DOUBLE), cut toward zero to
    a whole month or microsecond as Feldera cuts it (Spark's own rounds half up: 15
    months / 10 would be 2)."""
    whole = _whole(value, sql_type)
    if floating:
        quotient = (whole.cast("double") / divisor.cast("double")).cast("long")
    else:
        quotient = (whole.cast(T.DecimalType(38, 0)) / divisor).cast("long")
    if sql_type in YEAR_MONTH:
        return F.make_ym_interval(F.lit(0), quotient.cast("int"))
    seconds = (quotient.cast(T.DecimalType(30, 0)) / 1_000_000).cast(T.DecimalType(18, 6))
    return F.make_dt_interval(F.lit(0), F.lit(0), F.lit(0), seconds)


# The fields of each interval type's text, in order (the table above).
FIELDS = {
    "YEAR": ("YEAR",),
    "MONTH": ("MONTH",),
    "YEAR TO MONTH": ("YEAR", "MONTH"),
    "DAY": ("DAY",),
    "HOUR": ("HOUR",),
    "MINUTE": ("MINUTE",),
    "SECOND": ("SECOND",),
    "DAY TO HOUR": ("DAY", "HOUR"),
    "DAY TO MINUTE": ("DAY", "HOUR", "MINUTE"),
    "DAY TO SECOND": ("DAY", "HOUR", "MINUTE", "SECOND"),
    "HOUR TO MINUTE": ("HOUR", "MINUTE"),
    "HOUR TO SECOND": ("HOUR", "MINUTE", "SECOND"),
    "MINUTE TO SECOND": ("MINUTE", "SECOND"),
}


def interval_from_text(text: Column, sql_type: str) -> Column:
    """An interval's text as `interval_text` writes it ('+5:45' for HOUR TO MINUTE), read
    back: its fields, separated by '-', ' ' or ':', after an optional sign; NULL when
    the text has another number of fields."""
    fields = FIELDS[sql_type.removeprefix("INTERVAL ")]
    body = F.trim(text)
    negative = body.startswith("-")
    parts = F.split(F.regexp_replace(body, r"^[+-]", ""), r"[-: ]")
    sizes = [MONTHS[f] if sql_type in YEAR_MONTH else MICROS[f] for f in fields]
    total = sum(
        (
            F.element_at(parts, i + 1).cast(T.DecimalType(38, 6)) * size
            for i, size in enumerate(sizes)
        ),
        F.lit(0),
    )
    signed = F.when(negative, -total).otherwise(total)
    if sql_type in YEAR_MONTH:
        value = F.make_ym_interval(F.lit(0), signed.cast("int"))
    else:
        seconds = (signed / MICROS["SECOND"]).cast(T.DecimalType(18, 6))
        value = F.make_dt_interval(F.lit(0), F.lit(0), F.lit(0), seconds)
    return F.when(F.size(parts) == len(fields), value)


def interval_days(value: Column, sql_type: str) -> Column:
    """A DAY TO SECOND interval (of any units) as its whole days, cut toward zero: what
    a DATE moves by, as in Feldera."""
    return _div(_whole(value, sql_type), MICROS["DAY"]).cast("int")


def interval_text(value: Column, sql_type: str) -> Column:
    """The interval written for its units (the table above)."""
    unit = sql_type.removeprefix("INTERVAL ")
    whole = _whole(value, sql_type)
    sign = F.when(whole < 0, F.lit("-")).otherwise(F.lit("+"))
    size = F.abs(whole)
    if sql_type in YEAR_MONTH:
        years, months = _div(size, 12), size % 12
        parts = {
            "YEAR": [years],
            "MONTH": [size],
            "YEAR TO MONTH": [years, "-", _zero_padded(months)],
        }
        return F.when(whole.isNotNull(), F.concat(sign, *_texts(parts[unit])))
    days, hours, minutes = (
        _div(size, MICROS["DAY"]),
        _div(size, MICROS["HOUR"]),
        _div(size, MICROS["MINUTE"]),
    )
    hh, mm = _zero_padded(hours % 24), _zero_padded(minutes % 60)
    ss = _zero_padded(_div(size, MICROS["SECOND"]) % 60)
    fraction = F.concat(F.lit("."), _zero_padded(size % MICROS["SECOND"], 6))
    day_time = [days, " ", hh, ":", mm, ":", ss]
    parts = {
        "DAY": [days],
        "HOUR": [hours],
        "MINUTE": [minutes],
        "SECOND": [_div(size, MICROS["SECOND"]), fraction],
        "DAY TO HOUR": [days, " ", hh],
        "DAY TO MINUTE": [days, " ", hh, ":", mm],
        "DAY TO SECOND": [
            *day_time,
            F.when(size % MICROS["SECOND"] != 0, fraction).otherwise(F.lit("")),
        ],
        "HOUR TO MINUTE": [hours, ":", mm],
        "HOUR TO SECOND": [hours, ":", mm, ":", ss, fraction],
        "MINUTE TO SECOND": [minutes, ":", ss, fraction],
    }
    return F.when(whole.isNotNull(), F.concat(sign, *_texts(parts[unit])))


def _texts(parts: list[Column | str]) -> list[Column]:
    return [F.lit(p) if isinstance(p, str) else p.cast("string") for p in parts]
