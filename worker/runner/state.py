"""The state a program's stateful operators keep between steps, versioned by step.

A snapshot is what every operator had after one step: weighted multisets of rows
(a row is the JSON text the engine made of it, the weight how many times it is
there) and small JSON values (waterlines, stream clocks, flags). The engine reads
the snapshot of the previous step and commits the next one whole, so a step that
is run again after a crash starts from exactly the state it first started from.

A multiset is kept as an Arrow table (columns `row`, `weight`; each row once, no
zero weights), never as Python objects: a step adds its changes to it in Arrow
(`integrated`), Spark reads it from Arrow, and a snapshot is written as Parquet.
So what a step costs in Python grows with its changes, not with the state.

>>> store = MemoryStateStore()
>>> agg = integrated(None, ['{"c0":1}', '{"c0":2}', '{"c0":1}'], [1, 1, 1])
>>> store.commit(1, Snapshot(multisets={"agg": agg}, values={"max": 3}))
>>> as_multiset(store.load(before_step=2).multisets["agg"])
{'{"c0":1}': 2, '{"c0":2}': 1}
>>> as_multiset(integrated(agg, ['{"c0":2}'], [-1]))
{'{"c0":1}': 2}
>>> store.load(before_step=1).multisets
{}
"""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

Multiset = dict[str, int]
ROWS_SCHEMA = pa.schema([("row", pa.string()), ("weight", pa.int64())])
VERSION = re.compile(r"step-(\d{12})")
KEEP_VERSIONS = 2  # the latest step and the one before it, from which it can be re-run


def rows_table(multiset: Mapping[str, int]) -> pa.Table:
    """A multiset (row -> weight) as a table of state."""
    return integrated(None, list(multiset), list(multiset.values()))


def as_multiset(table: pa.Table | None) -> Multiset:
    """A table of state as a Python multiset (for the few that read rows in Python)."""
    if table is None:
        return {}
    rows, weights = table.column("row").to_pylist(), table.column("weight").to_pylist()
    return dict(zip(rows, weights, strict=True))


def integrated(table: pa.Table | None, rows: Sequence[str], weights: Sequence[int]) -> pa.Table:
    """`table` with the weighted `rows` added: equal rows summed, rows of weight 0 gone,
    sorted by row (so a snapshot does not depend on the order changes came in)."""
    changes = pa.table([pa.array(rows, pa.string()), pa.array(weights, pa.int64())], ROWS_SCHEMA)
    both = changes if table is None else pa.concat_tables([table, changes])
    summed = both.group_by("row").aggregate([("weight", "sum")])
    summed = pa.table([summed["row"], summed["weight_sum"]], ROWS_SCHEMA)
    kept = summed.filter(pc.not_equal(summed["weight"], 0))
    return kept.sort_by("row")


@dataclass
class Snapshot:
    multisets: dict[str, pa.Table] = field(default_factory=dict)
    values: dict[str, Any] = field(default_factory=dict)
    step: int = 0  # the step this is the state after; 0 before the first step


class StateStore(Protocol):
    def load(self, *, before_step: int) -> Snapshot:
        """The latest committed snapshot of a step before `before_step` (empty if none)."""
        ...

    def commit(self, step: int, snapshot: Snapshot) -> None:
        """Store `snapshot` as the state after `step`, replacing any earlier commit of it."""
        ...


def _copied(snapshot: Snapshot, step: int) -> Snapshot:
    # Tables are immutable: a new dict of the same tables is a copy.
    return Snapshot(dict(snapshot.multisets), copy.deepcopy(snapshot.values), step)


class MemoryStateStore:
    """Snapshots kept in memory: for replay and tests."""

    def __init__(self) -> None:
        self._versions: dict[int, Snapshot] = {}

    def load(self, *, before_step: int) -> Snapshot:
        steps = [s for s in self._versions if s < before_step]
        if not steps:
            return Snapshot()
        latest = max(steps)
        return _copied(self._versions[latest], latest)

    def commit(self, step: int, snapshot: Snapshot) -> None:
        self._versions = {s: v for s, v in self._versions.items() if s < step}
        self._versions[step] = _copied(snapshot, step)
        for old in sorted(self._versions)[:-KEEP_VERSIONS]:
            del self._versions[old]


class DiskStateStore:
    """Snapshots as folders `step-NNNNNNNNNNNN/` under `root`: one parquet file per
    multiset (columns row, weight) and `values.json`. A version is written to a
    temporary folder and renamed into place, so a crash never leaves half of one. A
    multiset a step did not change is linked to its file of the version it was loaded
    from rather than written again."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        # The tables of the last load, by id(), with their files (a table is kept here so
        # that its id is not reused by another while it is looked up).
        self._loaded: dict[int, tuple[pa.Table, Path]] = {}

    def _versions(self) -> list[int]:
        found = (VERSION.fullmatch(p.name) for p in self.root.iterdir())
        return sorted(int(m.group(1)) for m in found if m)

    def _folder(self, step: int) -> Path:
        return self.root / f"step-{step:012d}"

    def load(self, *, before_step: int) -> Snapshot:
        steps = [s for s in self._versions() if s < before_step]
        if not steps:
            return Snapshot()
        folder = self._folder(max(steps))
        meta = json.loads((folder / "values.json").read_text())
        multisets: dict[str, pa.Table] = {}
        self._loaded = {}
        for key, filename in meta["multisets"].items():
            table = pq.read_table(folder / filename, schema=ROWS_SCHEMA)
            multisets[key] = table
            self._loaded[id(table)] = (table, folder / filename)
        return Snapshot(multisets, meta["values"], max(steps))

    def commit(self, step: int, snapshot: Snapshot) -> None:
        final = self._folder(step)
        temporary = self.root / f".tmp-{step:012d}"
        shutil.rmtree(temporary, ignore_errors=True)
        temporary.mkdir()
        files = {}
        for index, (key, table) in enumerate(sorted(snapshot.multisets.items())):
            files[key] = f"m{index}.parquet"
            loaded, source = self._loaded.get(id(table), (None, None))
            if loaded is table and source is not None and source.exists():
                os.link(source, temporary / files[key])  # unchanged since it was loaded
            else:
                pq.write_table(table, temporary / files[key])
        meta = {"multisets": files, "values": snapshot.values}
        (temporary / "values.json").write_text(json.dumps(meta))
        # A re-run step replaces its own version and every later one.
        for later in (s for s in self._versions() if s >= step):
            shutil.rmtree(self._folder(later))
        temporary.rename(final)
        for old in self._versions()[:-KEEP_VERSIONS]:
            shutil.rmtree(self._folder(old))
