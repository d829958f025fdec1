"""Checking literal values and putting them in the plan's canonical form.

Each function returns `(value, type)` or raises `InvalidLiteral`, which the
expression binder turns into an SQL209 diagnostic at the literal's span.
"""

from __future__ import annotations

import datetime
import re
from decimal import Decimal

from backend.compiler.semantic import types
from backend.compiler.semantic.types import SqlType

_INT32 = 2**31
_INT64 = 2**63
_MAX_MICROS = 2**63 - 1

_DATE = r"(\d{4})-(\d{1,2})-(\d{1,2})"
_TIME = r"(\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d+))?)?"
_TIMESTAMP_RE = re.compile(rf"{_DATE}(?:[ T]{_TIME})?")
_DATE_RE = re.compile(_DATE)
_TIME_RE = re.compile(_TIME)

_DAY_TIME_FIELDS = ("day", "hour", "minute", "second")
_YEAR_MONTH_FIELDS = ("year", "month")
_FIELD_LIMIT = {"hour": 24, "minute": 60, "second": 60, "month": 12}
_MICROS = {"day": 86_400_000_000, "hour": 3_600_000_000, "minute": 60_000_000, "second": 1_000_000}
_SEPARATOR_BEFORE = {"hour": " ", "minute": ":", "second": ":", "month": "-"}


class InvalidLiteral(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def number(text: str, kind: str, negative: bool) -> tuple[int | float | str, SqlType]:
    """An integer, decimal or float literal; `negative` when written after a minus.

    >>> number("12.50", "decimal", False)
    ('12.50', SqlType(kind=<TypeKind.DECIMAL: 'DECIMAL'>, precision=4, scale=2))
    """
    if kind == "integer":
        if len(text.lstrip("0")) > types.MAX_DECIMAL_PRECISION:
            raise InvalidLiteral(
                f"Number {text} has more than {types.MAX_DECIMAL_PRECISION} digits"
            )
        value = -int(text) if negative else int(text)
        if -_INT32 <= value < _INT32:
            return value, types.INTEGER
        if -_INT64 <= value < _INT64:
            return value, types.BIGINT
        return _decimal(text, negative)
    if kind == "decimal":
        return _decimal(text, negative)
    result = float(text)
    if result == float("inf"):
        raise InvalidLiteral(f"Number {text} is out of the range of DOUBLE")
    return (-result if negative else result), types.DOUBLE


def _decimal(text: str, negative: bool) -> tuple[str, SqlType]:
    whole, _, fraction = text.partition(".")
    precision = max(len(whole.lstrip("0")) + len(fraction), 1)
    if precision > types.MAX_DECIMAL_PRECISION:
        raise InvalidLiteral(f"Number {text} has more than {types.MAX_DECIMAL_PRECISION} digits")
    value = Decimal(text)
    return format(-value if negative else value, "f"), types.decimal(precision, len(fraction))


def timestamp(text: str) -> str:
    """A TIMESTAMP literal as 'YYYY-MM-DD HH:MM:SS[.ffffff]'.

    >>> timestamp("2020-1-2 3:04")
    '2020-01-02 03:04:00'
    """
    match = _TIMESTAMP_RE.fullmatch(text.strip())
    if match is None:
        raise InvalidLiteral(f"Invalid TIMESTAMP '{text}': expected 'YYYY-MM-DD HH:MM:SS[.ffffff]'")
    year, month, day, hour, minute, second, fraction = match.groups()
    date = _date_value(text, "TIMESTAMP", year, month, day)
    time = _time_value(text, "TIMESTAMP", hour or "0", minute or "0", second, fraction)
    return f"{date} {time}"


def date(text: str) -> str:
    match = _DATE_RE.fullmatch(text.strip())
    if match is None:
        raise InvalidLiteral(f"Invalid DATE '{text}': expected 'YYYY-MM-DD'")
    return _date_value(text, "DATE", *match.groups())


def time(text: str) -> str:
    match = _TIME_RE.fullmatch(text.strip())
    if match is None:
        raise InvalidLiteral(f"Invalid TIME '{text}': expected 'HH:MM:SS[.ffffff]'")
    hour, minute, second, fraction = match.groups()
    return _time_value(text, "TIME", hour, minute, second, fraction)


# A UUID's text (Feldera's and PostgreSQL's spellings): 32 hex digits of either case,
# optionally in braces; a hyphen may separate any complete group of four digits.
UUID_DIGITS = r"[0-9a-fA-F]{4}(-?[0-9a-fA-F]{4}){7}"
UUID_PATTERN = rf"{UUID_DIGITS}|\{{{UUID_DIGITS}\}}"


def uuid(text: str) -> str:
    """A UUID's canonical text (lower case, 8-4-4-4-12), or InvalidLiteral.

    >>> uuid("{123E4567-E89B12D3-a456-4266-5544-0000}")
    '123e4567-e89b-12d3-a456-426655440000'
    """
    if re.fullmatch(UUID_PATTERN, text) is None:
        message = f"Invalid UUID '{text}': expected 32 hex digits, such as "
        raise InvalidLiteral(message + "'123e4567-e89b-12d3-a456-426655440000'")
    digits = re.sub(r"[-{}]", "", text).lower()
    return "-".join(digits[a:b] for a, b in ((0, 8), (8, 12), (12, 16), (16, 20), (20, 32)))


def binary(text: str) -> str:
    """A binary literal's bytes as Weir keeps them: their hex digits, lower case (two a
    byte); or InvalidLiteral.

    >>> binary("45F0ab")
    '45f0ab'
    """
    if len(text) % 2 or re.fullmatch(r"[0-9a-fA-F]*", text) is None:
        message = f"Invalid binary literal x'{text}': expected an even number of hex digits"
        raise InvalidLiteral(message + ", two for each byte, as in x'45F0AB'")
    return text.lower()


def _date_value(text: str, what: str, year: str, month: str, day: str) -> str:
    try:
        value = datetime.date(int(year), int(month), int(day))
    except ValueError as exc:
        raise InvalidLiteral(f"Invalid {what} '{text}': {exc}") from None
    return value.isoformat()


def _time_value(
    text: str, what: str, hour: str, minute: str, second: str | None, fraction: str | None
) -> str:
    if fraction is not None and len(fraction) > 6:
        raise InvalidLiteral(f"Invalid {what} '{text}': at most 6 fractional digits")
    try:
        micros = int((fraction or "").ljust(6, "0"))
        value = datetime.time(int(hour), int(minute), int(second or 0), micros)
    except ValueError as exc:
        raise InvalidLiteral(f"Invalid {what} '{text}': {exc}") from None
    return value.isoformat(timespec="microseconds" if micros else "seconds")


def interval(text: str, negative: bool, start: str, end: str | None) -> tuple[int, SqlType]:
    """An INTERVAL literal: microseconds (DAY TO SECOND) or months (YEAR TO MONTH).

    >>> interval("1:30", False, "hour", "minute")[0]
    5400000000
    """
    end = end or start
    fields = interval_fields(start, end)
    qualifier = start.upper() if start == end else f"{start.upper()} TO {end.upper()}"
    body = text.strip()
    if body[:1] in ("-", "+"):
        negative = negative != (body[0] == "-")
        body = body[1:].strip()
    match = re.fullmatch(_interval_pattern(fields), body)
    if match is None:
        example = _interval_example(fields)
        raise InvalidLiteral(f"Invalid INTERVAL '{text}' {qualifier}: expected '{example}'")
    groups = match.groups()
    if len(groups[0]) > 18:  # no interval has that many units (and int() would be slow)
        raise InvalidLiteral(f"INTERVAL '{text}' {qualifier} is out of range")
    values, fraction = (
        groups[: len(fields)],
        (groups[len(fields)] if len(groups) > len(fields) else None),
    )
    sign = -1 if negative else 1
    if fields[0] in _YEAR_MONTH_FIELDS:
        months = 0
        for position, (field_name, raw) in enumerate(zip(fields, values, strict=False)):
            _check_field_limit(text, qualifier, field_name, int(raw), position)
            months += int(raw) * (12 if field_name == "year" else 1)
        if months >= _INT32:
            raise InvalidLiteral(f"INTERVAL '{text}' {qualifier} is out of range")
        return sign * months, types.INTERVAL_YEAR_MONTH
    micros = 0
    for position, (field_name, raw) in enumerate(zip(fields, values, strict=False)):
        whole = int(raw)
        _check_field_limit(text, qualifier, field_name, whole, position)
        micros += whole * _MICROS[field_name]
    if fraction is not None:
        if len(fraction) > 6:
            raise InvalidLiteral(f"Invalid INTERVAL '{text}': at most 6 fractional digits")
        micros += int(fraction.ljust(6, "0"))
    if micros > _MAX_MICROS:
        raise InvalidLiteral(f"INTERVAL '{text}' {qualifier} is out of range")
    return sign * micros, types.INTERVAL_DAY_TIME


def interval_fields(start: str, end: str) -> tuple[str, ...]:
    for family in (_YEAR_MONTH_FIELDS, _DAY_TIME_FIELDS):
        if start in family and end in family and family.index(start) <= family.index(end):
            return family[family.index(start) : family.index(end) + 1]
    raise InvalidLiteral(f"Invalid interval qualifier {start.upper()} TO {end.upper()}")


def _interval_pattern(fields: tuple[str, ...]) -> str:
    pattern = ""
    for position, field_name in enumerate(fields):
        if position:
            pattern += r"\s+" if field_name == "hour" else re.escape(_SEPARATOR_BEFORE[field_name])
        pattern += r"(\d+)" if position == 0 else r"(\d{1,2})"
    if fields[-1] == "second":
        pattern += r"(?:\.(\d+))?"
    return pattern


def _interval_example(fields: tuple[str, ...]) -> str:
    samples = {"year": "1", "month": "6", "day": "1", "hour": "2", "minute": "30", "second": "15"}
    text = ""
    for position, field_name in enumerate(fields):
        if position:
            text += _SEPARATOR_BEFORE[field_name]
        text += samples[field_name]
    return text


def _check_field_limit(
    text: str, qualifier: str, field_name: str, value: int, position: int
) -> None:
    limit = _FIELD_LIMIT.get(field_name)
    if position and limit is not None and value >= limit:
        raise InvalidLiteral(
            f"Invalid INTERVAL '{text}' {qualifier}: {field_name} must be below {limit}"
        )
