"""The state a program's stateful operators keep between steps, versioned by step.

A snapshot is what every operator had after one step: weighted multisets of rows
(a row is the JSON text the engine made of it, the weight how many times it is
there) and small JSON values (waterlines, stream clocks, flags). The engine reads
the snapshot of the previous step and commits the next one whole, so a step that
is run again after a crash starts from exactly the state it first started from.

>>> store = MemoryStateStore()
>>> store.commit(1, Snapshot(multisets={"agg": {'{"c0":1}': 2}}, values={"max": 3}))
>>> store.load(before_step=2).multisets["agg"]
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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import pyarrow as pa
import pyarrow.parquet as pq

Multiset = dict[str, int]
VERSION = re.compile(r"step-(\d{12})")
KEEP_VERSIONS = 2  # the latest step and the one before it, from which it can be re-run


@dataclass
class Snapshot:
    multisets: dict[str, Multiset] = field(default_factory=dict)
    values: dict[str, Any] = field(default_factory=dict)
    step: int = 0  # the step this is the state after; 0 before the first step


class StateStore(Protocol):
    def load(self, *, before_step: int) -> Snapshot:
        """The latest committed snapshot of a step before `before_step` (empty if none)."""
        ...

    def commit(self, step: int, snapshot: Snapshot) -> None:
        """Store `snapshot` as the state after `step`, replacing any earlier commit of it."""
        ...


class MemoryStateStore:
    """Snapshots kept in memory: for replay and tests."""

    def __init__(self) -> None:
        self._versions: dict[int, Snapshot] = {}

    def load(self, *, before_step: int) -> Snapshot:
        steps = [s for s in self._versions if s < before_step]
        if not steps:
            return Snapshot()
        return copy.deepcopy(self._versions[max(steps)])

    def commit(self, step: int, snapshot: Snapshot) -> None:
        self._versions = {s: v for s, v in self._versions.items() if s < step}
        self._versions[step] = copy.deepcopy(Snapshot(snapshot.multisets, snapshot.values, step))
        for old in sorted(self._versions)[:-KEEP_VERSIONS]:
            del self._versions[old]


class DiskStateStore:
    """Snapshots as folders `step-NNNNNNNNNNNN/` under `root`: one parquet file per
    multiset (columns row, weight) and `values.json`. A version is written to a
    temporary folder and renamed into place, so a crash never leaves half of one."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)

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
        multisets: dict[str, Multiset] = {}
        for key, filename in meta["multisets"].items():
            table = pq.read_table(folder / filename)
            rows, weights = table.column("row").to_pylist(), table.column("weight").to_pylist()
            multisets[key] = dict(zip(rows, weights, strict=True))
        return Snapshot(multisets, meta["values"], max(steps))

    def commit(self, step: int, snapshot: Snapshot) -> None:
        final = self._folder(step)
        temporary = self.root / f".tmp-{step:012d}"
        shutil.rmtree(temporary, ignore_errors=True)
        temporary.mkdir()
        files = {}
        for index, (key, multiset) in enumerate(sorted(snapshot.multisets.items())):
            files[key] = f"m{index}.parquet"
            table = pa.table(
                {
                    "row": pa.array(list(multiset), pa.string()),
                    "weight": pa.array(list(multiset.values()), pa.int64()),
                }
            )
            pq.write_table(table, temporary / files[key])
        meta = {"multisets": files, "values": snapshot.values}
        (temporary / "values.json").write_text(json.dumps(meta))
        # A re-run step replaces its own version and every later one.
        for later in (s for s in self._versions() if s >= step):
            shutil.rmtree(self._folder(later))
        temporary.rename(final)
        for old in self._versions()[:-KEEP_VERSIONS]:
            shutil.rmtree(self._folder(old))
