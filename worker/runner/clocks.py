"""Which columns of an input carry time, by the plan alone (no Spark: the ingress uses it).

The runtime tracks the running maximum of a table's LATENESS and WATERMARK columns
and of a stream's rowtime, keyed "relation.column"; rowtime bounds move exactly
these maxima (worker/runner/inputs.py).

>>> stream = {"name": "s", "kind": "stream", "columns": [{"name": "rowtime"}, {"name": "x"}]}
>>> [max_key(stream, i) for i in time_columns(stream)]
['s.rowtime']
"""

import datetime as dt
import decimal
from collections.abc import Mapping, Sequence
from typing import Any

ROWTIME = "rowtime"


def time_columns(relation: Mapping[str, Any]) -> list[int]:
    """Columns whose running max the runtime tracks: LATENESS, WATERMARK, a stream's rowtime."""
    return [
        i
        for i, c in enumerate(relation["columns"])
        if c.get("lateness") is not None
        or c.get("watermark") is not None
        or (relation["kind"] == "stream" and c["name"] == ROWTIME)
    ]


def max_key(relation: Mapping[str, Any], index: int) -> str:
    return f"{relation['name']}.{relation['columns'][index]['name']}"


def waterlines(relations: Sequence[Mapping[str, Any]], maxima: Mapping[str, str]) -> dict[str, str]:
    """Each input's (or view's) waterline by "relation.column", as text: a LATENESS
    column's max seen minus its lateness, a stream's clock. Columns without one yet are
    left out.

    >>> hour = {"kind": "literal", "value": 3600000000, "type": "INTERVAL DAY TO SECOND"}
    >>> table = {"name": "t", "kind": "table",
    ...          "columns": [{"name": "ts", "type": "TIMESTAMP", "lateness": hour}]}
    >>> waterlines([table], {"t.ts": "2020-01-01 10:00:00"})
    {'t.ts': '2020-01-01 09:00:00'}
    """
    lines = {}
    for relation in relations:
        for index, column in enumerate(relation["columns"]):
            top = maxima.get(max_key(relation, index))
            lateness = column.get("lateness")
            if top is None:
                continue
            if lateness is not None:
                line = _minus(column["type"], top, lateness)
                if line is not None:
                    lines[max_key(relation, index)] = line
            elif relation.get("kind") == "stream" and column["name"] == ROWTIME:
                lines[max_key(relation, index)] = top
    return lines


def _minus(sql_type: str, top: str, lateness: Mapping[str, Any]) -> str | None:
    """`top` - a constant lateness, as text; None for a lateness that is not a constant."""
    amount = lateness.get("value")
    if lateness.get("kind") != "literal" or not isinstance(amount, int | float):
        return None
    try:
        if sql_type == "TIMESTAMP" and lateness["type"] == "INTERVAL DAY TO SECOND":
            moment = dt.datetime.fromisoformat(top) - dt.timedelta(microseconds=amount)
            return moment.isoformat(sep=" ")
        return str(decimal.Decimal(top) - decimal.Decimal(str(amount)))
    except (ValueError, ArithmeticError, OverflowError):
        return None
