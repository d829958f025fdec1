"""Windowed stream joins against DuckDB on random streams, step by step.

After each step the rows a view has emitted so far must be exactly the batch join of
the rows accepted so far (DuckDB, with the window condition as a predicate on the
rowtimes), restricted to the rows already final: found rows whose rowtime is at or
below the lowest rowtime a row still to be found could have, and unmatched rows only
once no future row can match them. That lowest rowtime is computed here by brute
force, from its definition: every row that one future row of either stream (or one of
each) could still give, whatever its key. After bounds past every time, the whole
batch join has been emitted. Times are whole minutes, so trying every minute from the
clocks on finds every smallest value.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from pyspark.sql import SparkSession

from tests.integration.runtime import duckdb_oracle
from worker.replay import compile_with_queries, replay

BASE = dt.datetime(2024, 5, 1, 10, 0)
HORIZON = 40  # minutes past a clock that future rows are tried at


@dataclass(frozen=True)
class Case:
    name: str
    kind: str
    a_over: str | None  # the window written on A (None: no OVER, RANGE CURRENT ROW)
    b_over: str | None
    a_window: tuple[int, int]  # (preceding, following) minutes
    b_window: tuple[int, int]


CASES = [
    Case(
        "inner_mixed",
        "inner",
        "RANGE INTERVAL '2' MINUTE PRECEDING",
        "RANGE INTERVAL '3' MINUTE FOLLOWING",
        (2, 0),
        (0, 3),
    ),
    Case(
        "left_between",
        "left",
        None,
        "RANGE BETWEEN INTERVAL '1' MINUTE PRECEDING AND INTERVAL '2' MINUTE FOLLOWING",
        (0, 0),
        (1, 2),
    ),
    Case("right_preceding", "right", "RANGE INTERVAL '4' MINUTE PRECEDING", None, (4, 0), (0, 0)),
    Case(
        "full_both",
        "full",
        "RANGE INTERVAL '2' MINUTE FOLLOWING",
        "RANGE INTERVAL '1' MINUTE PRECEDING",
        (0, 2),
        (1, 0),
    ),
]
JOIN = {"inner": "JOIN", "left": "LEFT JOIN", "right": "RIGHT JOIN", "full": "FULL JOIN"}


def _program() -> str:
    text = [
        "CREATE STREAM A (k INT NOT NULL, v INT NOT NULL);",
        "CREATE STREAM B (k INT NOT NULL, w INT NOT NULL);",
    ]
    for case in CASES:
        a = f"A OVER ({case.a_over})" if case.a_over else "A"
        b = f"B OVER ({case.b_over})" if case.b_over else "B"
        text.append(
            f"CREATE VIEW {case.name} AS SELECT STREAM ROWTIME, a.rowtime AS at, a.k AS ak, "
            f"a.v AS av, b.rowtime AS bt, b.k AS bk, b.w AS bw "
            f"FROM {a} AS a {JOIN[case.kind]} {b} AS b ON a.k = b.k;"
        )
    return "\n".join(text)


def _stamp(minute: int) -> str:
    return (BASE + dt.timedelta(minutes=minute)).isoformat(sep=" ")


def _minute(text: str | None) -> int | None:
    if text is None:
        return None
    return int((dt.datetime.fromisoformat(text) - BASE).total_seconds() // 60)


def _random_steps(seed: int) -> list[dict[str, list[dict[str, Any]]]]:
    """Steps of rows in rowtime order per stream (nothing late), and some bounds."""
    rng = random.Random(seed)
    clocks = {"A": 0, "B": 0}
    steps = []
    for _ in range(4):
        step: dict[str, list[dict[str, Any]]] = {}
        for stream, value in (("A", "v"), ("B", "w")):
            changes: list[dict[str, Any]] = []
            for _ in range(rng.randint(0, 4)):
                clocks[stream] += rng.choice((0, 1, 1, 2, 3))
                row = {"rowtime": _stamp(clocks[stream]), "k": rng.randint(1, 2)}
                changes.append({**row, value: rng.randint(1, 99)})
            if rng.random() < 0.4:
                clocks[stream] += rng.randint(1, 4)
                changes.append({"bound": _stamp(clocks[stream])})
            if changes:
                step[stream] = changes
        steps.append(step)
    end = max(clocks.values()) + HORIZON
    steps.append({"A": [{"bound": _stamp(end)}], "B": [{"bound": _stamp(end)}]})
    return steps


def _events(case: Case, a: int, b: int) -> tuple[bool, bool]:
    """Whether row a, arriving, finds b in B's window; whether b finds a in A's."""
    (pa, fa), (pb, fb) = case.a_window, case.b_window
    return a - pb <= b <= a + fb, b - pa <= a <= b + fa


def _matches(case: Case, a: int, b: int) -> bool:
    return any(_events(case, a, b))


def _rowtime(case: Case, a: int, b: int) -> int:
    at_a, at_b = _events(case, a, b)
    return min(a, b) if at_a and at_b else (a if at_a else b)


def _lowest_future(
    case: Case,
    a_times: list[int],
    b_times: list[int],
    unmatched: dict[str, list[int]],
    clock_a: int,
    clock_b: int,
) -> int:
    """The smallest rowtime of a row that some future rows could still give."""
    future_a = range(clock_a, clock_a + HORIZON)
    future_b = range(clock_b, clock_b + HORIZON)
    found = [_rowtime(case, x, y) for x in future_a for y in future_b if _matches(case, x, y)]
    found += [_rowtime(case, a, y) for a in a_times for y in future_b if _matches(case, a, y)]
    found += [_rowtime(case, x, b) for b in b_times for x in future_a if _matches(case, x, b)]
    if case.kind in ("left", "full"):
        found.append(clock_a + case.a_window[0])
        found += [a + case.a_window[0] for a in unmatched["A"]]
    if case.kind in ("right", "full"):
        found.append(clock_b + case.b_window[0])
        found += [b + case.b_window[0] for b in unmatched["B"]]
    return min(found)


def _batch(con: Any, case: Case) -> list[tuple[Any, ...]]:
    """DuckDB's join of the accepted rows: (rowtime, at, ak, av, bt, bk, bw), in minutes."""
    (pa, fa), (pb, fb) = case.a_window, case.b_window
    at_a = f"(b.t BETWEEN a.t - {pb} AND a.t + {fb})"
    at_b = f"(a.t BETWEEN b.t - {pa} AND b.t + {fa})"
    rowtime = (
        f"CASE WHEN b.t IS NULL THEN a.t + {pa} WHEN a.t IS NULL THEN b.t + {pb} "
        f"WHEN {at_a} AND {at_b} THEN least(a.t, b.t) WHEN {at_a} THEN a.t ELSE b.t END"
    )
    query = (
        f"SELECT {rowtime}, a.t, a.k, a.v, b.t, b.k, b.w FROM a {JOIN[case.kind]} b "
        f"ON a.k = b.k AND ({at_a} OR {at_b})"
    )
    return con.execute(query).fetchall()


def _final(con: Any, case: Case, clocks: dict[str, int | None]) -> Counter[tuple[Any, ...]]:
    """The batch rows already final after a step, by brute force over future rows."""
    rows = _batch(con, case)
    clock_a, clock_b = clocks["A"], clocks["B"]
    if clock_a is None or clock_b is None:
        return Counter()
    a_times = [t for (t,) in con.execute("SELECT t FROM a").fetchall()]
    b_times = [t for (t,) in con.execute("SELECT t FROM b").fetchall()]

    def open_a(a: int) -> bool:
        return any(_matches(case, a, y) for y in range(clock_b, clock_b + HORIZON))

    def open_b(b: int) -> bool:
        return any(_matches(case, x, b) for x in range(clock_a, clock_a + HORIZON))

    unmatched = {
        "A": [r[1] for r in rows if r[4] is None and open_a(r[1])],
        "B": [r[4] for r in rows if r[1] is None and open_b(r[4])],
    }
    lowest = _lowest_future(case, a_times, b_times, unmatched, clock_a, clock_b)
    final: Counter[tuple[Any, ...]] = Counter()
    for row in rows:
        alone_open = (row[4] is None and open_a(row[1])) or (row[1] is None and open_b(row[4]))
        if row[0] <= lowest and not alone_open:
            final[row] += 1
    return final


def _emitted_row(row: dict[str, Any]) -> tuple[Any, ...]:
    return (
        _minute(row["rowtime"]),
        _minute(row["at"]),
        row["ak"],
        row["av"],
        _minute(row["bt"]),
        row["bk"],
        row["bw"],
    )


def test_windowed_joins_emit_exactly_the_final_rows_of_the_batch_join(
    spark: SparkSession,
) -> None:
    result = compile_with_queries(_program(), [])
    assert not result.has_errors, result.diagnostics_json()
    steps = _random_steps(seed=4)
    records = list(replay(spark, result.to_json()["plan"], [json.dumps(s) for s in steps]))
    assert not [r for r in records if "dropped" in r]
    con = duckdb_oracle.connect()
    con.execute("CREATE TABLE a (t INTEGER, k INTEGER, v INTEGER)")
    con.execute("CREATE TABLE b (t INTEGER, k INTEGER, w INTEGER)")
    clocks: dict[str, int | None] = {"A": None, "B": None}
    emitted: dict[str, Counter[tuple[Any, ...]]] = {c.name: Counter() for c in CASES}
    latest: dict[str, int] = {}
    checked = 0
    for number, step in enumerate(steps, 1):
        for stream, changes in step.items():
            for change in changes:
                time = _minute(change.get("bound") or change["rowtime"])
                before = clocks[stream]
                clocks[stream] = time if before is None else max(before, time)
                if "bound" not in change:
                    value = change["v"] if stream == "A" else change["w"]
                    con.execute(
                        f"INSERT INTO {stream} VALUES (?, ?, ?)", [time, change["k"], value]
                    )
        for record in records:
            if record["step"] != number:
                continue
            rows = [_emitted_row(change["insert"]) for change in record["changes"]]
            assert all("insert" in change for change in record["changes"])
            assert min(r[0] for r in rows) >= latest.get(record["view"], -1), "rowtime order"
            latest[record["view"]] = max(r[0] for r in rows)
            emitted[record["view"]].update(rows)
        for case in CASES:
            expected = _final(con, case, clocks)
            assert emitted[case.name] == expected, (number, case.name)
            checked += sum(expected.values())
    for case in CASES:  # after the last bounds, every row of the batch join
        assert emitted[case.name] == Counter(_batch(con, case)), case.name
    assert checked > 0
