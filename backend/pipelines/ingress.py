"""Checks and normalises ingested changes against a relation's columns.

A request is all or nothing: the first bad value raises an ApplicationError that
names the change (0-based index) and the column, and nothing is stored.
"""

import csv
import datetime as dt
import decimal
import io
import json
import re
from collections.abc import Collection, Iterable
from typing import Any

from backend.compiler.semantic import literals
from backend.core.errors import ApplicationError
from worker.runner.clocks import time_columns
from worker.runner.rows import array_element, declared_fields, is_map, is_row, map_types

INTEGER_RANGES = {
    "TINYINT": (-(2**7), 2**7 - 1),
    "SMALLINT": (-(2**15), 2**15 - 1),
    "INTEGER": (-(2**31), 2**31 - 1),
    "BIGINT": (-(2**63), 2**63 - 1),
}
DECIMAL_TYPE = re.compile(r"DECIMAL\((\d+),\s*(\d+)\)")
BYTES = "VARBINARY"  # BINARY(n) and VARBINARY(n): the list of the bytes' numbers in JSON


class BadValue(ValueError):
    pass


def _timestamp(value: Any) -> str:
    if not isinstance(value, str):
        raise BadValue("expected a timestamp string 'YYYY-MM-DD HH:MM:SS[.ffffff]'")
    try:
        parsed = dt.datetime.fromisoformat(value.replace("T", " "))
    except ValueError as err:
        raise BadValue(f"'{value}' is not a timestamp 'YYYY-MM-DD HH:MM:SS[.ffffff]'") from err
    if parsed.tzinfo is not None:
        parsed = parsed.astimezone(dt.UTC).replace(tzinfo=None)
    return parsed.isoformat(sep=" ")


def _date(value: Any) -> str:
    try:
        return dt.date.fromisoformat(value).isoformat()
    except (TypeError, ValueError) as err:
        raise BadValue(f"{value!r} is not a date 'YYYY-MM-DD'") from err


def _time(value: Any) -> str:
    try:
        return dt.time.fromisoformat(value).isoformat()
    except (TypeError, ValueError) as err:
        raise BadValue(f"{value!r} is not a time 'HH:MM:SS'") from err


def _decimal(value: Any, precision: int, scale: int) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise BadValue("expected a decimal number")
    try:
        number = decimal.Decimal(str(value))
    except decimal.InvalidOperation as err:
        raise BadValue(f"{value!r} is not a decimal number") from err
    if not number.is_finite():
        raise BadValue(f"{value!r} is not a finite decimal number")
    quantized = number.quantize(decimal.Decimal(1).scaleb(-scale), rounding=decimal.ROUND_HALF_UP)
    if len(quantized.as_tuple().digits) > precision:
        raise BadValue(f"{value} does not fit DECIMAL({precision},{scale})")
    return str(quantized)


def coerce_value(sql_type: str, value: Any) -> Any:
    """The JSON value stored for `value` in a column of `sql_type`."""
    if is_row(sql_type):  # a JSON object, by field
        if not isinstance(value, dict):
            raise BadValue(f"expected an object for {sql_type}")
        given = {name.lower(): item for name, item in value.items()}
        fields = declared_fields(sql_type)
        unknown = sorted(set(given) - {name.lower() for name, _, _ in fields})
        if unknown:
            raise BadValue(f"{sql_type} has no field {unknown[0]!r}")
        row = {}
        for name, field_type, nullable in fields:
            item = given.get(name.lower())
            if item is None and not nullable:
                raise BadValue(f"field {name!r} of {sql_type} cannot be null")
            row[name] = None if item is None else coerce_value(field_type, item)
        return row
    if is_map(sql_type):  # a JSON object: keys (text) of the key type, values or nulls
        if not isinstance(value, dict):
            raise BadValue(f"expected an object for {sql_type}")
        key_type, value_type = map_types(sql_type)
        return {
            _map_key(key_type, key): None if item is None else coerce_value(value_type, item)
            for key, item in value.items()
        }
    element = array_element(sql_type)
    if element is not None:  # `INTEGER ARRAY`: a list of such values or nulls
        if not isinstance(value, list):
            raise BadValue(f"expected a list for {sql_type}")
        return [None if item is None else coerce_value(element, item) for item in value]
    if sql_type in INTEGER_RANGES:
        if isinstance(value, bool) or not isinstance(value, int):
            raise BadValue(f"expected an integer for {sql_type}")
        low, high = INTEGER_RANGES[sql_type]
        if not low <= value <= high:
            raise BadValue(f"{value} is out of range for {sql_type}")
        return value
    if sql_type in ("REAL", "DOUBLE"):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise BadValue(f"expected a number for {sql_type}")
        return float(value)
    if sql_type == "BOOLEAN":
        if not isinstance(value, bool):
            raise BadValue("expected true or false")
        return value
    if sql_type == "VARCHAR":
        if not isinstance(value, str):
            raise BadValue("expected a string")
        return value
    if sql_type == "TIMESTAMP":
        return _timestamp(value)
    if sql_type == "DATE":
        return _date(value)
    if sql_type == "TIME":
        return _time(value)
    if sql_type == BYTES:  # bytes: the list of their numbers, as Feldera's JSON
        if not isinstance(value, list) or not all(_is_byte(item) for item in value):
            raise BadValue("expected a list of byte values (integers from 0 to 255) for VARBINARY")
        return value
    if sql_type == "UUID":  # its canonical text
        if not isinstance(value, str):
            raise BadValue("expected a string for UUID")
        try:
            return literals.uuid(value)
        except literals.InvalidLiteral as exc:
            raise BadValue(exc.message) from None
    match = DECIMAL_TYPE.fullmatch(sql_type)
    if match:
        return _decimal(value, int(match.group(1)), int(match.group(2)))
    raise BadValue(f"values of type {sql_type} cannot be ingested yet")


def _map_key(sql_type: str, key: str) -> str:
    """A JSON object's key as a MAP's key of `sql_type`: its text, checked (and written
    as it is stored: `"01"` is the INTEGER key `"1"`). An empty key is the empty string,
    not NULL as an empty CSV field is."""
    value = key if key == "" else _from_text(sql_type, key)
    if is_row(sql_type) or array_element(sql_type) is not None:
        raise BadValue(f"keys of type {sql_type} cannot be ingested yet")
    coerced = coerce_value(sql_type, value)
    return json.dumps(coerced) if isinstance(coerced, bool) else str(coerced)


def _is_byte(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 255


def _of_length(length: dict[str, Any] | None, value: Any) -> Any:
    """A CHAR(n) or VARCHAR(n) column's value (`length`: its kind and n): a longer one
    is refused, unless what is past n is spaces, which are cut; a CHAR(n)'s shorter one
    is padded with spaces to n (as the SQL standard and Feldera have it). The same for
    BINARY(n) and VARBINARY(n) in bytes, a BINARY(n)'s padded with zero bytes."""
    if length is None:
        return value
    n = length["n"]
    if length["kind"] in ("binary", "varbinary"):  # bytes: the list of their numbers
        if len(value) > n:
            raise BadValue(f"{len(value)} bytes are more than {length['kind'].upper()}({n})")
        return value + [0] * (n - len(value)) if length["kind"] == "binary" else value
    if len(value) > n:
        if value[n:].strip(" "):
            raise BadValue(f"'{value}' is longer than {length['kind'].upper()}({n})")
        value = value[:n]
    return value.ljust(n) if length["kind"] == "char" else value


def _bound(relation: dict[str, Any], index: int, change: dict[str, Any]) -> dict[str, Any]:
    """A rowtime bound as the input log keeps it: {"bound": value, "strict": bool}.

    The value is checked against the type of the time columns it moves.
    """
    unknown = sorted(set(change) - {"bound", "strict"})
    if unknown:
        raise ApplicationError(
            f"Change {index}: a bound has only 'bound' and 'strict', not '{unknown[0]}'",
            details={"index": index, "column": None},
        )
    strict = change.get("strict", False)
    if not isinstance(strict, bool):
        raise ApplicationError(
            f"Change {index}: 'strict' must be true or false", details={"index": index}
        )
    columns = [relation["columns"][i] for i in time_columns(relation)]
    if not columns:
        raise ApplicationError(
            f"Change {index}: '{relation['name']}' has no column a rowtime bound moves "
            "(a stream's ROWTIME, a LATENESS or WATERMARK column)",
            code="no_time_column",
            details={"index": index},
        )
    try:
        value = coerce_value(columns[0]["type"], change["bound"])
    except BadValue as err:
        raise ApplicationError(
            f"Change {index}, bound for column '{columns[0]['name']}': {err}",
            details={"index": index, "column": columns[0]["name"]},
        ) from err
    return {"bound": value, "strict": strict}


def _split_change(index: int, change: Any) -> tuple[int, dict[str, Any]]:
    if not isinstance(change, dict):
        raise ApplicationError(f"Change {index} is not a JSON object", details={"index": index})
    if set(change) == {"insert"} or set(change) == {"delete"}:
        ((kind, row),) = change.items()
        if not isinstance(row, dict):
            raise ApplicationError(
                f"Change {index}: '{kind}' must hold a row object", details={"index": index}
            )
        return (1 if kind == "insert" else -1), row
    return 1, change


def sql_name(name: str, known: Collection[str]) -> str | None:
    """The known name `name` means, as SQL matches names: exactly (a quoted name), else
    folded to lower case as an unquoted identifier is (`Orders` is `orders`)."""
    for folded in (name, name.lower()):
        if folded in known:
            return folded
    return None


def relation_named(relations: Iterable[dict[str, Any]], name: str) -> dict[str, Any] | None:
    """The table, stream or view `name` names (see `sql_name`), or None."""
    by_name = {relation["name"]: relation for relation in relations}
    found = sql_name(name, by_name)
    return None if found is None else by_name[found]


def normalize_changes(relation: dict[str, Any], changes: Any) -> list[tuple[int, dict[str, Any]]]:
    """(weight, row) for each change, with every column present and typed.

    A rowtime bound `{"bound": value, "strict": false}` is (0, the bound).
    """
    if isinstance(changes, dict):
        changes = [changes]
    if not isinstance(changes, list):
        raise ApplicationError("Expected a JSON array of changes")
    columns = {column["name"]: column for column in relation["columns"]}
    result = []
    for index, change in enumerate(changes):
        if isinstance(change, dict) and "bound" in change:
            result.append((0, _bound(relation, index, change)))
            continue
        weight, row = _split_change(index, change)
        if weight < 0 and (relation["kind"] == "stream" or relation.get("append_only")):
            raise ApplicationError(
                f"Change {index}: '{relation['name']}' is append-only; it accepts no deletes",
                details={"index": index},
            )
        row = _with_column_names(relation, columns, index, row)
        # A keyed table deletes by key: the other columns may be left out.
        keyed_delete = weight < 0 and bool(relation.get("primary_key"))
        required = set(relation["primary_key"]) if keyed_delete else set(columns)
        result.append((weight, _normalize_row(relation, columns, index, row, required)))
    return result


def _with_column_names(
    relation: dict[str, Any], columns: dict[str, Any], index: int, row: dict[str, Any]
) -> dict[str, Any]:
    """The row keyed by column names, matched as SQL matches names: exactly, else folded
    to lower case as an unquoted identifier is (`productId` is column `productid`)."""
    named = {}
    for key, value in row.items():
        name = sql_name(key, columns)
        if name is None:
            raise ApplicationError(
                f"Change {index}: no column '{key}' in '{relation['name']}'",
                details={"index": index, "column": key},
            )
        named[name] = value
    return named


def _normalize_row(
    relation: dict[str, Any],
    columns: dict[str, dict[str, Any]],
    index: int,
    row: dict[str, Any],
    required: set[str],
) -> dict[str, Any]:
    normalized = {}
    for name, column in columns.items():
        value = row.get(name)
        if name not in row and name in required:  # a row left it out: its DEFAULT
            value = column.get("default")
        if value is None and relation["kind"] == "stream" and name == "rowtime":
            value = dt.datetime.now(dt.UTC).replace(tzinfo=None).isoformat(sep=" ")
        if value is None:
            if not column["nullable"] and name in required:
                raise ApplicationError(
                    f"Change {index}: column '{name}' is NOT NULL",
                    details={"index": index, "column": name},
                )
            normalized[name] = None
            continue
        try:
            normalized[name] = _of_length(column.get("length"), coerce_value(column["type"], value))
        except BadValue as err:
            raise ApplicationError(
                f"Change {index}, column '{name}': {err}",
                details={"index": index, "column": name},
            ) from err
    return normalized


def _from_text(sql_type: str, text: str) -> Any:
    """A CSV field as the JSON value a change would carry (empty = NULL)."""
    if text == "":
        return None
    try:
        if sql_type in INTEGER_RANGES:
            return int(text)
        if sql_type in ("REAL", "DOUBLE"):
            return float(text)
        if array_element(sql_type) or is_row(sql_type) or is_map(sql_type) or sql_type == BYTES:
            return json.loads(text)  # JSON text: a list or an object (bytes: their list)
    except ValueError:
        return text  # coerce_value names the problem
    if sql_type == "BOOLEAN":
        return {"true": True, "false": False}.get(text.lower(), text)
    return text


def csv_changes(relation: dict[str, Any], text: str) -> list[dict[str, Any]]:
    """Rows of a CSV text with a header line naming the columns, as insert changes."""
    reader = csv.DictReader(io.StringIO(text))
    types = {column["name"]: column["type"] for column in relation["columns"]}
    unknown = sorted(set(reader.fieldnames or ()) - set(types))
    if not reader.fieldnames or unknown:
        column = unknown[0] if unknown else None
        raise ApplicationError(
            f"The CSV header must name columns of '{relation['name']}'"
            + (f": no column '{column}'" if column else ""),
            details={"index": None, "column": column},
        )
    changes = []
    for row in reader:
        if None in row:  # more fields than the header names
            raise ApplicationError(
                f"Change {len(changes)}: more fields than columns", details={"index": len(changes)}
            )
        changes.append({name: _from_text(types[name], value) for name, value in row.items()})
    return changes
