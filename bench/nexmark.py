"""A Nexmark-style event generator: persons, auctions and bids, deterministic.

Events come in steps; each step's events are input-log records
`{"seq", "relation", "weight", "row"}` (row: JSON text), the shape the Weir
runner reads from Postgres, so a compiled pipeline and a hand-written PySpark
job can read the very same files.

Event time advances 10 ms per event from 2026-01-01 00:00:00; like Nexmark's
default mix, 2% of events are persons, 6% auctions and 92% bids.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

START = dt.datetime(2026, 1, 1)
EVENT_GAP = dt.timedelta(milliseconds=10)

SCHEMA_SQL = """
CREATE TABLE person (
    id BIGINT NOT NULL, name VARCHAR, city VARCHAR, state VARCHAR,
    date_time TIMESTAMP NOT NULL LATENESS INTERVAL '10' SECOND
) WITH ('append_only' = 'true');
CREATE TABLE auction (
    id BIGINT NOT NULL, seller BIGINT NOT NULL, category INT NOT NULL,
    initial_bid BIGINT, expires TIMESTAMP,
    date_time TIMESTAMP NOT NULL LATENESS INTERVAL '10' SECOND
) WITH ('append_only' = 'true');
CREATE TABLE bid (
    auction BIGINT NOT NULL, bidder BIGINT NOT NULL, price BIGINT NOT NULL,
    channel VARCHAR, url VARCHAR,
    date_time TIMESTAMP NOT NULL LATENESS INTERVAL '10' SECOND
) WITH ('append_only' = 'true');
"""


def _time(n: int) -> str:
    return (START + n * EVENT_GAP).strftime("%Y-%m-%d %H:%M:%S.%f")


def events(count: int, seed: int = 7) -> Iterator[tuple[str, dict[str, Any]]]:
    """(relation, row) for `count` events in event-time order."""
    rng = random.Random(seed)
    persons, auctions = 1, 1
    for n in range(count):
        kind = n % 50
        when = _time(n)
        if kind == 0:
            yield "person", {
                "id": persons, "name": f"p{persons}", "city": rng.choice(["Paris", "Oslo", "Lima"]),
                "state": rng.choice(["OR", "ID", "CA"]), "date_time": when,
            }  # fmt: skip
            persons += 1
        elif kind in (1, 2, 3):
            yield "auction", {
                "id": auctions, "seller": rng.randrange(1, persons + 1),
                "category": rng.randrange(10, 20), "initial_bid": rng.randrange(1, 100),
                "expires": _time(n + 10_000), "date_time": when,
            }  # fmt: skip
            auctions += 1
        else:
            yield "bid", {
                # Most bids go to recent auctions, as in Nexmark's "hot" auctions.
                "auction": max(1, auctions - 1 - int(rng.expovariate(0.2))),
                "bidder": rng.randrange(1, persons + 1), "price": rng.randrange(1, 10_000),
                "channel": rng.choice(["web", "app", "api"]), "url": f"https://x/{n}",
                "date_time": when,
            }  # fmt: skip


def write_steps(folder: Path, steps: int, per_step: int) -> int:
    """One JSON-lines file per step (names sort in step order); the number of events."""
    folder.mkdir(parents=True, exist_ok=True)
    stream = events(steps * per_step)
    seq = 0
    for step in range(steps):
        with (folder / f"step-{step:05d}.json").open("w") as file:
            for _ in range(per_step):
                relation, row = next(stream)
                seq += 1
                record = {"seq": seq, "relation": relation, "weight": 1, "row": json.dumps(row)}
                file.write(json.dumps(record) + "\n")
    return seq
