"""Output connectors: each step's changes of a view, delivered once per step id.

A pipeline's `config.connectors` lists them:

    {"view": "v", "type": "file", "path": "/abs/dir", "format": "jsonl" | "csv"}
    {"view": "v", "type": "postgres", "url": "postgresql://...", "table": "t",
     "mode": "content" | "changes"}

The stored deltas (`ViewDelta`) are the source of truth: after every step, and
when the runner starts, each connector is brought up to the pipeline's last step
from where its own progress says it is. A connector writes a step and its
progress together (an atomic file rename; one database transaction), so a step
is delivered exactly once even if the runner dies in the middle. A connector
that is ahead of the pipeline belongs to an earlier run (a deploy reset the
state): it starts over.

- file: one file per step that changed the view, `step-000000000012.jsonl` with
  a line per change (`{"step": 12, "insert": {...}}`), or `.csv` with the view's
  columns, then `weir_step` and `weir_weight` (1 or -1); progress in
  `.weir-progress`.
- postgres: `content` keeps the table equal to the view (inserts, and each delete
  removes one equal row); `changes` appends every change with `weir_step` and
  `weir_weight`. The table is created if missing; progress is kept in
  `weir_sink_progress` in the same database.
"""

from __future__ import annotations

import csv
import io
import json
import logging
import os
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import psycopg
from psycopg import sql

log = logging.getLogger("weir.connectors")

Change = Mapping[str, Mapping[str, Any]]  # {"insert": row} | {"delete": row}
FORMATS = ("jsonl", "csv")
MODES = ("content", "changes")
TABLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?")
PG_TYPES = {
    "BOOLEAN": "boolean",
    "TINYINT": "smallint",
    "SMALLINT": "smallint",
    "INTEGER": "integer",
    "BIGINT": "bigint",
    "REAL": "real",
    "DOUBLE": "double precision",
    "DATE": "date",
    "TIME": "time",
    "TIMESTAMP": "timestamp",
}


class ConnectorError(ValueError):
    """A connector's configuration is not usable; the message says why, `key` where."""

    def __init__(self, message: str, key: str | None = None) -> None:
        super().__init__(message)
        self.key = key


class Sink(Protocol):
    name: str

    def progress(self) -> int:
        """The last step delivered (0: none)."""
        ...

    def reset(self) -> None:
        """Forget what was delivered (the pipeline's run was reset)."""
        ...

    def deliver(self, steps: Sequence[tuple[int, list[Change]]], up_to: int) -> None:
        """Write these steps' changes (in order), and progress `up_to`, atomically per step."""
        ...


def validate_connector(spec: Any, views: Collection[str]) -> None:
    """Raise ConnectorError unless `spec` is a usable connector of one of `views`."""
    if not isinstance(spec, dict):
        raise ConnectorError("a connector is an object")
    kind = spec.get("type")
    allowed = {"file": {"view", "type", "path", "format"},
               "postgres": {"view", "type", "url", "table", "mode"}}  # fmt: skip
    if kind not in allowed:
        raise ConnectorError("a connector's type is 'file' or 'postgres'", "type")
    unknown = set(spec) - allowed[kind]
    if unknown:
        raise ConnectorError(
            f"unknown {kind} connector keys: {', '.join(sorted(unknown))}", sorted(unknown)[0]
        )
    if spec.get("view") not in views:
        raise ConnectorError(f"no output view {spec.get('view')!r}", "view")
    if kind == "file":
        path = spec.get("path")
        if not isinstance(path, str) or not os.path.isabs(path):
            raise ConnectorError("a file connector's path is an absolute directory", "path")
        if spec.get("format", "jsonl") not in FORMATS:
            raise ConnectorError("a file connector's format is 'jsonl' or 'csv'", "format")
    else:
        for key in ("url", "table"):
            if not isinstance(spec.get(key), str) or not spec[key]:
                raise ConnectorError(f"a postgres connector needs '{key}'", key)
        if not spec["url"].startswith(("postgresql://", "postgres://")):
            raise ConnectorError("a postgres connector's url is postgresql://...", "url")
        if not TABLE_NAME.fullmatch(spec["table"]):
            raise ConnectorError("a postgres connector's table is a name or schema.name", "table")
        if spec.get("mode", "content") not in MODES:
            raise ConnectorError("a postgres connector's mode is 'content' or 'changes'", "mode")


def sink_for(pipeline: str, spec: Mapping[str, Any], columns: Sequence[Mapping[str, Any]]) -> Sink:
    if spec["type"] == "file":
        return FileSink(spec, columns)
    return PostgresSink(pipeline, spec, columns)


class FileSink:
    """A file per step in a directory (see the module docstring)."""

    def __init__(self, spec: Mapping[str, Any], columns: Sequence[Mapping[str, Any]]) -> None:
        self.directory = Path(spec["path"])
        self.format = spec.get("format", "jsonl")
        self.columns = [c["name"] for c in columns]
        self.name = f"file {self.directory}"
        self.progress_file = self.directory / ".weir-progress"

    def progress(self) -> int:
        try:
            return int(json.loads(self.progress_file.read_text())["step"])
        except FileNotFoundError:
            return 0

    def reset(self) -> None:
        for path in self.directory.glob("step-*"):
            path.unlink()
        self.progress_file.unlink(missing_ok=True)

    def deliver(self, steps: Sequence[tuple[int, list[Change]]], up_to: int) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        for step, changes in steps:
            path = self.directory / f"step-{step:012d}.{self.format}"
            if not path.exists():  # written before a crash: never rewritten
                _write_atomically(path, self._render(step, changes))
        _write_atomically(self.progress_file, json.dumps({"step": up_to}))

    def _render(self, step: int, changes: list[Change]) -> str:
        if self.format == "jsonl":
            return "".join(json.dumps({"step": step, **change}) + "\n" for change in changes)
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow([*self.columns, "weir_step", "weir_weight"])
        for change in changes:
            ((kind, row),) = change.items()
            writer.writerow([*(row[c] for c in self.columns), step, 1 if kind == "insert" else -1])
        return out.getvalue()


def _write_atomically(path: Path, text: str) -> None:
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(text)
    os.replace(partial, path)


class PostgresSink:
    """A table in a PostgreSQL database (see the module docstring)."""

    def __init__(
        self, pipeline: str, spec: Mapping[str, Any], columns: Sequence[Mapping[str, Any]]
    ) -> None:
        self.url = spec["url"]
        self.mode = spec.get("mode", "content")
        self.table = sql.Identifier(*spec["table"].split(".", 1))
        self.columns = list(columns)
        self.key = f"{pipeline}/{spec['view']}/{spec['table']}"
        self.name = f"postgres table {spec['table']}"
        self._ready = False

    def _connect(self) -> psycopg.Connection[Any]:
        return psycopg.connect(self.url, connect_timeout=5)

    def _prepare(self, conn: psycopg.Connection[Any]) -> None:
        if self._ready:
            return
        extra = ["weir_step bigint", "weir_weight smallint"] if self.mode == "changes" else []
        definitions = [
            sql.SQL("{} {}").format(sql.Identifier(c["name"]), sql.SQL(_pg_type(c["type"])))
            for c in self.columns
        ] + [sql.SQL(e) for e in extra]
        conn.execute(
            "CREATE TABLE IF NOT EXISTS weir_sink_progress (sink text PRIMARY KEY, step bigint)"
        )
        conn.execute(
            sql.SQL("CREATE TABLE IF NOT EXISTS {} ({})").format(
                self.table, sql.SQL(", ").join(definitions)
            )
        )
        conn.commit()
        self._ready = True

    def progress(self) -> int:
        with self._connect() as conn:
            self._prepare(conn)
            found = conn.execute(
                "SELECT step FROM weir_sink_progress WHERE sink = %s", (self.key,)
            ).fetchone()
        return int(found[0]) if found else 0

    def reset(self) -> None:
        with self._connect() as conn:
            self._prepare(conn)
            conn.execute(sql.SQL("DELETE FROM {}").format(self.table))
            conn.execute("DELETE FROM weir_sink_progress WHERE sink = %s", (self.key,))

    def deliver(self, steps: Sequence[tuple[int, list[Change]]], up_to: int) -> None:
        with self._connect() as conn:
            self._prepare(conn)
            for step, changes in steps:
                with conn.transaction():
                    self._apply(conn, step, changes)
                    self._set_progress(conn, step)
            with conn.transaction():
                self._set_progress(conn, up_to)

    def _apply(self, conn: psycopg.Connection[Any], step: int, changes: Iterable[Change]) -> None:
        names = [c["name"] for c in self.columns]
        columns = sql.SQL(", ").join(sql.Identifier(n) for n in names)
        for change in changes:
            ((kind, row),) = change.items()
            values = [_pg_value(c["type"], row[c["name"]]) for c in self.columns]
            if self.mode == "changes":
                conn.execute(
                    sql.SQL("INSERT INTO {} ({}, weir_step, weir_weight) VALUES ({})").format(
                        self.table, columns, _placeholders(len(names) + 2)
                    ),
                    [*values, step, 1 if kind == "insert" else -1],
                )
            elif kind == "insert":
                conn.execute(
                    sql.SQL("INSERT INTO {} ({}) VALUES ({})").format(
                        self.table, columns, _placeholders(len(names))
                    ),
                    values,
                )
            else:
                equal = sql.SQL(" AND ").join(
                    sql.SQL("{} IS NOT DISTINCT FROM {}").format(
                        sql.Identifier(n), sql.SQL("%s::{}").format(sql.SQL(_pg_type(c["type"])))
                    )
                    for n, c in zip(names, self.columns, strict=True)
                )
                conn.execute(
                    sql.SQL(
                        "DELETE FROM {t} WHERE ctid = (SELECT ctid FROM {t} WHERE {eq} LIMIT 1)"
                    ).format(t=self.table, eq=equal),
                    values,
                )

    def _set_progress(self, conn: psycopg.Connection[Any], step: int) -> None:
        conn.execute(
            "INSERT INTO weir_sink_progress (sink, step) VALUES (%s, %s) "
            "ON CONFLICT (sink) DO UPDATE SET step = EXCLUDED.step",
            (self.key, step),
        )


def _placeholders(count: int) -> sql.Composable:
    return sql.SQL(", ").join([sql.Placeholder()] * count)


def _pg_type(sql_type: str) -> str:
    if sql_type.endswith(" ARRAY"):  # `DATE ARRAY`: its JSON text, as a ROW's
        return "text"
    if sql_type.startswith("DECIMAL"):
        return sql_type.replace("DECIMAL", "numeric")
    return PG_TYPES.get(sql_type, "text")


def _pg_value(sql_type: str, value: Any) -> Any:
    if value is None or _pg_type(sql_type) != "text" or isinstance(value, str):
        return value
    return json.dumps(value)  # ROW, INTERVAL, ...: their JSON text


def bring_up_to_date(sink: Sink, last_step: int, changes_between: Any) -> int:
    """Deliver what `sink` misses up to `last_step`; `changes_between(after, up_to)` gives
    [(step, changes)] of the view. Answers how many steps it wrote."""
    delivered = sink.progress()
    if delivered > last_step:  # from an earlier run of the pipeline
        log.warning("%s is ahead of the pipeline (step %s > %s): starting over",
                    sink.name, delivered, last_step)  # fmt: skip
        sink.reset()
        delivered = 0
    if delivered == last_step:
        return 0
    steps = changes_between(delivered, last_step)
    sink.deliver(steps, last_step)
    return len(steps)
