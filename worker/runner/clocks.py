"""Which columns of an input carry time, by the plan alone (no Spark: the ingress uses it).

The runtime tracks the running maximum of a table's LATENESS and WATERMARK columns
and of a stream's rowtime, keyed "relation.column"; rowtime bounds move exactly
these maxima (worker/runner/inputs.py).

>>> stream = {"name": "s", "kind": "stream", "columns": [{"name": "rowtime"}, {"name": "x"}]}
>>> [max_key(stream, i) for i in time_columns(stream)]
['s.rowtime']
"""

from collections.abc import Mapping
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
