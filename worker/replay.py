"""Replay: run a program over steps of input read from JSON lines, on a local Spark.

One input line is one step: `{"table": [change, ...], ...}` where a change is
`{"insert": row}`, `{"delete": row}` or a rowtime bound
`{"bound": "2020-01-01 10:00:00", "strict": false}`; `{}` is a step without input.
Output records (JSON-able dicts), in step order and program order:

    {"step": n, "view": "v", "changes": [{"insert": row} | {"delete": row}, ...]}
    {"step": n, "dropped": [{"relation", "row", "reason"}, ...]}
    {"step": last, "view": "query_k", "rows": [row, ...]}   # a plain SELECT, at the end

Queries are compiled as views `query_1`, ... appended to the program: `SELECT
STREAM ...` is reported like any view from the first step on, a plain `SELECT` as
its content after the last step. A query the program itself writes as a statement
is a view of the program, `query_1`, ... in program order, reported like any view
(its changes, step by step); the appended ones are numbered after those.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from pyspark.errors import PySparkException
from pyspark.sql import SparkSession

from backend.compiler.adhoc import Query, compile_with_queries, queries_of
from worker.runner.data_errors import data_error
from worker.runner.engine import INPUT_SCHEMA, StepEngine
from worker.runner.incremental import literal_rows
from worker.runner.source import SCHEMA
from worker.runner.state import MemoryStateStore

__all__ = [
    "Query",
    "ReplayInputError",
    "ReplayStepError",
    "compile_with_queries",
    "queries_of",
    "replay",
]


class ReplayInputError(Exception):
    """A step line that is not valid input for the program."""


class ReplayStepError(Exception):
    """A step that raised a SQL error on its data (data_errors.py): a division by zero."""


def _normalize() -> Any:
    """backend.pipelines.ingress, importable without a configured Django project.

    Its error type lives in backend.core.errors, which imports DRF, which reads
    Django settings at import time; replay needs no database, so empty settings do.
    With DJANGO_SETTINGS_MODULE set (the test environment, the Docker image) those
    settings name the API's authentication classes, whose models need the apps loaded.
    """
    import django
    from django.conf import settings

    if not settings.configured and "DJANGO_SETTINGS_MODULE" not in os.environ:
        settings.configure()
    django.setup()
    from backend.core.errors import ApplicationError
    from backend.pipelines.ingress import normalize_changes, relation_named

    return normalize_changes, relation_named, ApplicationError


def step_rows(
    plan: dict[str, Any], line: str, line_no: int, first_seq: int
) -> list[tuple[int, str, int, str]]:
    """A step line as input-log rows (seq, relation, weight, row)."""
    normalize_changes, relation_named, application_error = _normalize()
    try:
        payload = json.loads(line)
    except json.JSONDecodeError as err:
        raise ReplayInputError(f"line {line_no}: not JSON: {err}") from err
    if not isinstance(payload, dict):
        raise ReplayInputError(f"line {line_no}: expected an object {{table: [changes]}}")
    rows = []
    seq = first_seq
    for name, changes in payload.items():
        relation = relation_named(plan["inputs"], name)
        if relation is None:
            raise ReplayInputError(f"line {line_no}: no table or stream '{name}'")
        for index, change in enumerate(changes if isinstance(changes, list) else [changes]):
            seq += 1
            try:
                ((weight, row),) = normalize_changes(relation, [change])
            except application_error as err:
                message = err.message.replace("Change 0", f"change {index}")
                raise ReplayInputError(f"line {line_no}, '{name}': {message}") from err
            rows.append((seq, relation["name"], weight, json.dumps(row)))
    return rows


def replay(
    spark: SparkSession,
    plan: dict[str, Any],
    lines: Iterable[str],
    queries: Sequence[Query] = (),
) -> Iterator[dict[str, Any]]:
    snapshots = {q.name for q in queries if not q.stream}
    content: dict[str, Counter[str]] = {name: Counter() for name in snapshots}
    engine = StepEngine(spark, plan, MemoryStateStore())
    seq = 0
    step = 0
    for line_no, line in enumerate(lines, 1):
        if not line.strip():
            continue
        step += 1
        rows = step_rows(plan, line, line_no, seq)
        seq += len(rows)
        records = [dict(zip(SCHEMA.names, row, strict=True)) for row in rows]
        batch = literal_rows(spark, records, INPUT_SCHEMA)
        try:
            result = engine.step(step, batch, relations={relation for _, relation, _, _ in rows})
        except PySparkException as err:
            message = data_error(err)
            if message is None:
                raise
            raise ReplayStepError(f"step {step} (line {line_no}) failed: {message}") from err
        for view, changes in result.deltas.items():
            if view in snapshots:
                for change in changes:
                    ((kind, row),) = change.items()
                    content[view][json.dumps(row, sort_keys=True)] += 1 if kind == "insert" else -1
                continue
            yield {"step": step, "view": view, "changes": changes}
        if result.dropped:
            yield {"step": step, "dropped": result.dropped}
    for query in queries:
        if query.name in snapshots:
            order = next(v["columns"] for v in plan["views"] if v["name"] == query.name)
            rows_out = []
            for text in sorted(content[query.name]):
                row = json.loads(text)
                ordered = {c["name"]: row[c["name"]] for c in order}
                rows_out.extend(ordered for _ in range(max(content[query.name][text], 0)))
            yield {"step": step, "view": query.name, "rows": rows_out}
