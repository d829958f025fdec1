"""SNAPSHOT, SEARCH_KEY, temporal joins and changelogs run step by step on the engine,
and after every step each view's integrated changes equal DuckDB's batch answer over
the rows accepted so far (docs/dialect.md, "Time travel and changelogs").

The steps hold inserts, deletes by key and by row, primary-key upserts, versions
that arrive after the rows they apply to, a key that comes and goes within one step,
and late rows the tables drop. What "batch" means for the temporal forms:

- a lookup join is the join of each order with the table as it was after the step
  in which the order arrived (DuckDB keeps a copy of the table per step);
- time travel and temporal joins read the tables' versions: every accepted insert at
  its time column, every delete at its own time or, given by key only, at the
  table's clock (the largest time accepted before it); DuckDB's ASOF JOIN is the
  temporal join;
- TO_CHANGELOG is the difference of the table between consecutive steps.
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

from pyspark.sql import SparkSession

from backend.compiler import compile_program
from tests.integration.runtime import duckdb_oracle
from worker.replay import step_rows
from worker.runner.engine import StepEngine
from worker.runner.source import SCHEMA
from worker.runner.state import MemoryStateStore

PROGRAM = """
CREATE STREAM orders (order_id INT, currency VARCHAR, amount DECIMAL(10, 2), name VARCHAR);
CREATE TABLE rates (currency VARCHAR NOT NULL PRIMARY KEY, rate DECIMAL(10, 4),
    ts TIMESTAMP LATENESS INTERVAL '1' HOUR);
CREATE TABLE customers (name VARCHAR, tier INT);
CREATE TABLE clicks (url VARCHAR, ts TIMESTAMP LATENESS INTERVAL '1' HOUR);

CREATE VIEW lookup AS SELECT o.order_id, o.name, c.tier
    FROM orders o LEFT JOIN SNAPSHOT(customers) c ON o.name = c.name;
CREATE VIEW search AS SELECT o.order_id, c.tier
    FROM orders o, LATERAL SEARCH_KEY(customers, DESCRIPTOR(name), o.name) c;
CREATE VIEW rates_then AS SELECT * FROM SNAPSHOT(rates, TIMESTAMP '2024-01-01 10:30:00');
CREATE VIEW clicks_then AS
    SELECT * FROM clicks FOR SYSTEM_TIME AS OF TIMESTAMP '2024-01-01 10:30:00';
CREATE VIEW converted AS SELECT o.order_id, o.amount * r.rate AS amount
    FROM orders o JOIN rates FOR SYSTEM_TIME AS OF o.rowtime AS r ON o.currency = r.currency;
CREATE VIEW converted_left AS SELECT o.order_id, r.rate
    FROM orders o LEFT JOIN LATERAL SNAPSHOT(rates, o.rowtime) AS r ON o.currency = r.currency;
CREATE VIEW clicks_before AS SELECT o.order_id, k.url
    FROM orders o, LATERAL SNAPSHOT(clicks, o.rowtime) AS k;
CREATE VIEW rate_changes AS SELECT * FROM TO_CHANGELOG(rates);
CREATE VIEW customer_changes AS SELECT * FROM TO_CHANGELOG(customers);
CREATE VIEW converted_changes AS SELECT * FROM TO_CHANGELOG(converted);
CREATE VIEW rates_back AS SELECT * FROM FROM_CHANGELOG(rate_changes);
CREATE VIEW rate_inserts AS SELECT payload.* FROM TO_CHANGELOG(rates) WHERE op = 0;
CREATE VIEW now_rates AS SELECT * FROM SNAPSHOT(rates);
CREATE VIEW order_changes AS SELECT STREAM * FROM TO_CHANGELOG(orders);
-- Removes of rows never added (twice for tiers from 3 on) and an op FROM_CHANGELOG ignores.
CREATE LOCAL VIEW customer_log AS
    SELECT op, payload FROM TO_CHANGELOG(customers)
    UNION ALL SELECT CAST(3 AS TINYINT), payload FROM TO_CHANGELOG(customers) c
        WHERE op = 0 AND c.payload.tier >= 3
    UNION ALL SELECT CAST(3 AS TINYINT), payload FROM TO_CHANGELOG(customers) c
        WHERE op = 0 AND c.payload.tier >= 3
    UNION ALL SELECT CAST(5 AS TINYINT), payload FROM TO_CHANGELOG(customers);
CREATE VIEW customers_counted AS SELECT * FROM FROM_CHANGELOG(customer_log);
CREATE VIEW converted_final WITH ('emit_final' = 'rowtime') AS
    SELECT o.rowtime, o.order_id, r.rate
    FROM orders o JOIN rates FOR SYSTEM_TIME AS OF o.rowtime AS r ON o.currency = r.currency;
"""


def at(clock: str) -> str:
    return f"2024-01-01 {clock}:00"


def order(order_id: int, clock: str, currency: str, amount: int, name: str) -> dict[str, Any]:
    row = {"rowtime": at(clock), "order_id": order_id, "currency": currency}
    return {**row, "amount": amount, "name": name}


def rate(currency: str, value: float, clock: str) -> dict[str, Any]:
    return {"currency": currency, "rate": value, "ts": at(clock)}


STEPS: list[dict[str, list[Any]]] = [
    {
        "rates": [
            rate("EUR", 1.10, "09:00"),
            rate("USD", 1.00, "09:00"),
            rate("GBP", 0.80, "09:00"),
        ],
        "customers": [{"name": "ada", "tier": 1}, {"name": "bob", "tier": 2}],
        "clicks": [{"url": "/a", "ts": at("09:30")}, {"url": "/b", "ts": at("10:00")}],
    },
    {
        "orders": [
            order(1, "10:15", "EUR", 10, "ada"),
            order(2, "10:30", "USD", 20, "bob"),
            order(3, "11:05", "EUR", 30, "cy"),
        ],
        "rates": [rate("EUR", 1.20, "11:00")],
        "customers": [{"name": "cy", "tier": 3}],
        "clicks": [{"url": "/c", "ts": at("11:00")}],
    },
    {
        "orders": [order(4, "11:10", "GBP", 5, "ada"), order(5, "11:20", "JPY", 1, "dan")],
        "rates": [
            rate("EUR", 1.15, "10:10"),  # a version older than order 1, which it changes
            rate("EUR", 9.99, "08:00"),  # below the waterline (11:00 - 1 hour): dropped
            {"delete": {"currency": "USD"}},  # by key: at the clock, 11:00
            rate("GBP", 0.85, "10:00"),
            rate("GBP", 0.86, "10:00"),  # the same time: the later change wins
            rate("JPY", 0.0070, "10:20"),
            {"delete": {"currency": "JPY"}},  # gone again within the step, at 11:00
        ],
        "customers": [
            {"delete": {"name": "bob", "tier": 2}},
            {"insert": {"name": "bob", "tier": 5}},
        ],
        # A late delete (09:30 is below 11:00 - 1 hour) is dropped, as a late insert is.
        "clicks": [{"delete": {"url": "/a", "ts": at("09:30")}}, {"url": "/d", "ts": at("10:40")}],
    },
    {
        "orders": [order(6, "11:30", "EUR", 7, "bob"), order(7, "11:40", "USD", 3, "ada")],
        "rates": [
            {"delete": {"currency": "EUR", "ts": at("10:05")}},  # ends EUR at its own time
            rate("USD", 1.01, "11:30"),
        ],
        "customers": [
            {"insert": {"name": "dan", "tier": 4}},
            {"delete": {"name": "ada", "tier": 1}},
        ],
        "clicks": [{"url": "/e", "ts": at("09:45")}],  # late: below 11:00 - 1 hour
    },
    {
        "orders": [order(8, "12:30", "EUR", 2, "cy"), order(9, "12:40", "CHF", 4, "ada")],
        "rates": [
            rate("EUR", 1.30, "12:00"),
            rate("JPY", 0.0071, "11:15"),  # order 5 (11:20) now has a rate
            rate("CHF", 2.0, "12:05"),
            {"delete": {"currency": "CHF"}},  # at the clock: 12:05, from this very step
        ],
        "customers": [{"insert": {"name": "ada", "tier": 9}}],
    },
]
DROPPED = {  # as the input log holds them: decimals as text
    3: [
        {
            "relation": "rates",
            "row": {**rate("EUR", 9.99, "08:00"), "rate": "9.9900"},
            "reason": "late",
        },
        {"relation": "clicks", "row": {"url": "/a", "ts": at("09:30")}, "reason": "late"},
    ],
    4: [{"relation": "clicks", "row": {"url": "/e", "ts": at("09:45")}, "reason": "late"}],
}

# ---------------------------------------------------------------- the oracle


class Oracle:
    """The accepted changes in DuckDB, and each view's batch answer after a step."""

    def __init__(self) -> None:
        self.db = duckdb_oracle.connect()
        self.db.execute(
            "CREATE TABLE orders (step INT, rowtime TIMESTAMP, order_id INT, currency VARCHAR,"
            " amount DECIMAL(10, 2), name VARCHAR);"
            "CREATE TABLE rates_log (step INT, seq INT, currency VARCHAR, rate DECIMAL(10, 4),"
            " ts TIMESTAMP, deleted BOOLEAN, vts TIMESTAMP);"
            "CREATE TABLE customers_log (step INT, weight INT, name VARCHAR, tier INT);"
            "CREATE TABLE clicks_log (step INT, weight INT, url VARCHAR, ts TIMESTAMP);"
            "CREATE TABLE customers_seen (step INT, name VARCHAR, tier INT);"
        )
        self.seq = 0
        self.rates_clock: str | None = None

    def accept(self, step: int, changes: dict[str, list[Any]], dropped: list[Any]) -> None:
        refused = [(d["relation"], _key(d["row"])) for d in dropped]
        for relation, items in changes.items():
            for item in items:
                weight, row = _split(item)
                if (relation, _key(row)) in refused:
                    continue
                self.seq += 1
                self._accept(step, relation, weight, row)
        self.db.execute(
            f"INSERT INTO customers_seen SELECT {step}, name, tier FROM ({self.customers(step)})"
        )

    def _accept(self, step: int, relation: str, weight: int, row: dict[str, Any]) -> None:
        if relation == "orders":
            values = [row["rowtime"], row["order_id"], row["currency"], row["amount"], row["name"]]
            self.db.execute("INSERT INTO orders VALUES (?, ?, ?, ?, ?, ?)", [step, *values])
        elif relation == "rates":
            ts = row.get("ts")
            # A delete given by key is at the clock: the largest time accepted before it.
            version = ts if ts is not None or weight > 0 else self.rates_clock
            if ts is not None and (self.rates_clock is None or ts > self.rates_clock):
                self.rates_clock = ts
            self.db.execute(
                "INSERT INTO rates_log VALUES (?, ?, ?, ?, ?, ?, ?)",
                [step, self.seq, row["currency"], row.get("rate"), ts, weight < 0, version],
            )
        else:
            values = list(row.values())
            self.db.execute(
                f"INSERT INTO {relation}_log VALUES (?, ?, ?, ?)", [step, weight, *values]
            )

    # Each relation as of a step.
    def rates(self, step: int) -> str:
        return (
            "SELECT currency, rate, ts FROM rates_log "
            f"WHERE step <= {step} QUALIFY row_number() OVER "
            "(PARTITION BY currency ORDER BY seq DESC) = 1 AND NOT deleted"
        )

    def customers(self, step: int) -> str:
        return _multiset("customers_log", "name, tier", step)

    def clicks(self, step: int) -> str:
        return _multiset("clicks_log", "url, ts", step)

    def versions(self, step: int) -> str:
        """The versions of rates: of a key's versions at one time, the later one wins."""
        return (
            f"SELECT * FROM rates_log WHERE step <= {step} AND vts IS NOT NULL QUALIFY "
            "row_number() OVER (PARTITION BY currency, vts ORDER BY seq DESC) = 1"
        )

    def answers(self, step: int) -> dict[str, str]:
        orders = f"(SELECT * FROM orders WHERE step <= {step})"
        versions = f"({self.versions(step)})"
        return {
            "lookup": f"SELECT o.order_id, o.name, c.tier FROM {orders} o LEFT JOIN "
            "customers_seen c ON c.step = o.step AND c.name = o.name",
            "search": f"SELECT o.order_id, c.tier FROM {orders} o JOIN customers_seen c "
            "ON c.step = o.step AND c.name = o.name",
            "rates_then": f"SELECT currency, rate, ts FROM {versions} WHERE vts <= "
            f"'{at('10:30')}' QUALIFY row_number() OVER (PARTITION BY currency "
            "ORDER BY vts DESC, seq DESC) = 1 AND NOT deleted",
            "clicks_then": f"SELECT * FROM ({self.clicks(step)}) WHERE ts <= '{at('10:30')}'",
            "converted": self._converted(step),
            "converted_left": f"SELECT o.order_id, CASE WHEN v.deleted THEN NULL ELSE v.rate END "
            f"FROM {orders} o ASOF LEFT JOIN {versions} v "
            "ON o.currency = v.currency AND o.rowtime >= v.vts",
            "clicks_before": f"SELECT o.order_id, k.url FROM {orders} o "
            f"JOIN ({self.clicks(step)}) k ON k.ts <= o.rowtime",
            "rate_changes": self._changelog(step, self.rates, "currency"),
            "customer_changes": self._changelog(step, self.customers, None),
            "converted_changes": self._changelog(step, self._converted, None),
            "rates_back": self.rates(step),
            "now_rates": self.rates(step),
            "order_changes": f"SELECT 0, rowtime, order_id, currency, amount, name FROM {orders}",
            "customers_counted": self._counted(step),
            "converted_final": self._final(step),
            "rate_inserts": "SELECT * EXCLUDE (op) FROM ("
            f"{self._changelog(step, self.rates, 'currency')}) WHERE op = 0",
        }

    def _counted(self, step: int) -> str:
        """FROM_CHANGELOG: each row max(0, adds - removes) times; op 5 counts for nothing."""
        log = f"({self._changelog(step, self.customers, None)})"
        extra = f"SELECT 3, name, tier FROM {log} l WHERE op = 0 AND tier >= 3"
        changes = (
            f"SELECT op, name, tier FROM {log} l UNION ALL {extra} UNION ALL {extra} "
            f"UNION ALL SELECT 5, name, tier FROM {log} l"
        )
        net = "SUM(CASE WHEN op IN (0, 2) THEN 1 WHEN op IN (1, 3) THEN -1 ELSE 0 END)"
        return (
            f"SELECT name, tier FROM (SELECT name, tier, {net}::BIGINT AS n FROM ({changes}) c "
            "GROUP BY ALL) g, generate_series(1, g.n)"
        )

    def _final(self, step: int) -> str:
        """emit_final on rowtime: the rows below the view's waterline, the least of the
        orders' clock and the rates' waterline (their latest time - 1 hour)."""
        line = (
            f"(SELECT LEAST(MAX(rowtime), TIMESTAMP '{self.rates_clock}' - INTERVAL 1 HOUR) "
            f"FROM orders WHERE step <= {step})"
        )
        orders = f"(SELECT * FROM orders WHERE step <= {step})"
        return (
            f"SELECT o.rowtime, o.order_id, v.rate FROM {orders} o "
            f"ASOF JOIN ({self.versions(step)}) v "
            f"ON o.currency = v.currency AND o.rowtime >= v.vts "
            f"WHERE NOT v.deleted AND o.rowtime < {line}"
        )

    def _converted(self, step: int) -> str:
        orders = f"(SELECT * FROM orders WHERE step <= {step})"
        return (
            f"SELECT o.order_id, o.amount * v.rate AS amount FROM {orders} o "
            f"ASOF JOIN ({self.versions(step)}) v "
            "ON o.currency = v.currency AND o.rowtime >= v.vts WHERE NOT v.deleted"
        )

    def _changelog(self, step: int, relation: Any, key: str | None) -> str:
        """Every step's difference of `relation` as (op, its columns...)."""
        parts = []
        for s in range(1, step + 1):
            before, after = relation(s - 1), relation(s)
            added = f"(({after}) EXCEPT ALL ({before}))"
            removed = f"(({before}) EXCEPT ALL ({after}))"
            if key is None:
                parts.append(f"SELECT 0 AS op, * FROM {added} a")
                parts.append(f"SELECT 3 AS op, * FROM {removed} r")
            else:
                parts.append(
                    f"SELECT CASE WHEN {key} IN (SELECT {key} FROM {removed} x) THEN 2 ELSE 0 "
                    f"END AS op, * FROM {added} a"
                )
                parts.append(
                    f"SELECT CASE WHEN {key} IN (SELECT {key} FROM {added} x) THEN 1 ELSE 3 "
                    f"END AS op, * FROM {removed} r"
                )
        return " UNION ALL ".join(parts)

    def rows(self, sql: str) -> Counter[tuple[Any, ...]]:
        return Counter(tuple(_normal(v) for v in row) for row in self.db.execute(sql).fetchall())


def _multiset(table: str, columns: str, step: int) -> str:
    return (
        f"SELECT {columns} FROM (SELECT {columns}, SUM(weight)::BIGINT AS n FROM {table} "
        f"WHERE step <= {step} GROUP BY ALL) g, generate_series(1, g.n)"
    )


def _key(row: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted((name, _normal(value)) for name, value in row.items()))


def _split(item: Any) -> tuple[int, dict[str, Any]]:
    if "delete" in item:
        return -1, item["delete"]
    return 1, item.get("insert", item)


def _normal(value: Any) -> Any:
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, float | int) and not isinstance(value, bool):
        return decimal.Decimal(str(value)).normalize()
    if isinstance(value, decimal.Decimal):
        return value.normalize()
    if isinstance(value, str):
        try:
            return decimal.Decimal(value).normalize()
        except decimal.InvalidOperation:
            return value
    return value


def _flat(row: dict[str, Any]) -> Iterator[Any]:
    for value in row.values():
        if isinstance(value, dict):
            yield from _flat(value)
        else:
            yield _normal(value)


Deltas = dict[int, dict[str, list[dict[str, Any]]]]


def test_every_temporal_view_equals_duckdb_after_every_step(spark: SparkSession) -> None:
    result = compile_program(PROGRAM)
    assert not result.has_errors, result.diagnostics_json()
    plan = result.to_json()["plan"]
    engine = StepEngine(spark, plan, MemoryStateStore())
    oracle = Oracle()
    totals: dict[str, Counter[tuple[Any, ...]]] = {v["name"]: Counter() for v in plan["views"]}
    deltas: Deltas = {}
    seq = 0
    for step, changes in enumerate(STEPS, 1):
        rows = step_rows(plan, json.dumps(changes), step, seq)
        seq += len(rows)
        outcome = engine.step(step, spark.createDataFrame(rows, SCHEMA))
        assert outcome.dropped == DROPPED.get(step, []), step
        oracle.accept(step, changes, outcome.dropped)
        deltas[step] = outcome.deltas
        for name, changed in outcome.deltas.items():
            for change in changed:
                ((kind, row),) = change.items()
                totals[name][tuple(_flat(row))] += 1 if kind == "insert" else -1
        for name, sql in oracle.answers(step).items():
            assert +totals[name] == oracle.rows(sql), (step, name)
            assert all(count >= 0 for count in totals[name].values()), (step, name)
    _the_steps_show_each_rule(deltas)


def _the_steps_show_each_rule(deltas: Deltas) -> None:
    """What the oracle agreed with, spelled out: the data exercises every rule."""
    # A lookup is never undone: customers changing later leave earlier rows alone.
    assert all("delete" not in c for s in deltas.values() for c in s.get("lookup", []))
    assert {"insert": {"order_id": 5, "name": "dan", "tier": None}} in deltas[3]["lookup"]
    # A version older than an order, arriving after it, replaces the order's row.
    assert deltas[3]["converted"] == [
        {"delete": {"order_id": 1, "amount": "11.000000"}},
        {"insert": {"order_id": 1, "amount": "11.500000"}},
        {"insert": {"order_id": 4, "amount": "4.300000"}},
    ]
    # Order 5 (JPY, 11:20) had no rate until a JPY version at 11:15 arrived.
    # CHF was deleted by key after its 12:05 version: at 12:05, so order 9 finds none.
    assert deltas[5]["converted_left"] == [
        {"delete": {"order_id": 5, "rate": None}},
        {"insert": {"order_id": 5, "rate": "0.0071"}},
        {"insert": {"order_id": 8, "rate": "1.3000"}},
        {"insert": {"order_id": 9, "rate": None}},
    ]
    # Time travel to 10:30: JPY existed from 10:20 until its delete at the clock (11:00).
    assert {"insert": {"currency": "JPY", "rate": "0.0070", "ts": at("10:20")}} in deltas[3][
        "rates_then"
    ]
    # An upsert is op 1 (old row) then op 2 (new row); JPY came and went: not shown.
    assert [c["insert"]["op"] for c in deltas[3]["rate_changes"]] == [1, 1, 2, 2, 3]


# ---------------------------------------------------------------- the FLIP's own examples

FLIP = """
CREATE TABLE orders (order_id VARCHAR, order_time TIMESTAMP, amount DECIMAL(10, 2),
    currency VARCHAR) WITH ('append_only' = 'true');
CREATE TABLE versioned_rates (currency VARCHAR NOT NULL PRIMARY KEY, rate DECIMAL(10, 4),
    update_time TIMESTAMP LATENESS INTERVAL '2' HOUR);
CREATE TABLE t (k VARCHAR NOT NULL PRIMARY KEY, v INT);
CREATE TABLE t_other (name VARCHAR) WITH ('append_only' = 'true');

-- FLIP-132's event-time temporal table join (with JOIN ... ON for the FLIP's comma).
CREATE VIEW converted AS
SELECT
  o.order_id,
  o.order_time,
  o.amount * r.rate AS amount,
  r.currency
FROM orders AS o JOIN versioned_rates FOR SYSTEM_TIME AS OF o.order_time r
ON o.currency = r.currency;
CREATE VIEW inserted AS SELECT payload.* FROM TO_CHANGELOG(t) WHERE op = 0;
CREATE VIEW changelog AS SELECT * FROM TO_CHANGELOG(t) AS s;
CREATE VIEW t_again AS SELECT * FROM FROM_CHANGELOG(changelog) AS t;
CREATE VIEW searched AS SELECT * FROM t_other, LATERAL SEARCH_KEY(t, DESCRIPTOR(k), t_other.name);
"""
FLIP_STEPS: list[dict[str, list[Any]]] = [
    {
        "versioned_rates": [
            {"currency": "Euro", "rate": 1.14, "update_time": at("09:00")},
            {"currency": "Yen", "rate": 0.0098, "update_time": at("09:00")},
            {"currency": "USD", "rate": 1.0, "update_time": at("09:00")},
        ],
        "t": [{"k": "a", "v": 1}, {"k": "b", "v": 2}],
        "t_other": [{"name": "a"}],
    },
    {
        "orders": [
            {"order_id": "o1", "order_time": at("10:15"), "amount": 2, "currency": "Euro"},
            {"order_id": "o2", "order_time": at("10:30"), "amount": 1, "currency": "USD"},
            {"order_id": "o3", "order_time": at("10:32"), "amount": 50, "currency": "Yen"},
        ],
        "versioned_rates": [{"currency": "Euro", "rate": 1.19, "update_time": at("11:15")}],
        "t": [{"k": "a", "v": 10}, {"delete": {"k": "b"}}],
        "t_other": [{"name": "a"}, {"name": "b"}],
    },
    {
        "orders": [{"order_id": "o4", "order_time": at("11:20"), "amount": 3, "currency": "Euro"}],
        "versioned_rates": [{"currency": "Euro", "rate": 1.16, "update_time": at("10:00")}],
        "t": [{"k": "c", "v": 3}, {"k": "c", "v": 4}, {"delete": {"k": "a"}}],
    },
]


def converted(order_id: str, clock: str, amount: str, currency: str) -> dict[str, Any]:
    return {"order_id": order_id, "order_time": at(clock), "amount": amount, "currency": currency}


def test_the_flips_examples_row_for_row(spark: SparkSession) -> None:
    result = compile_program(FLIP)
    assert not result.has_errors, result.diagnostics_json()
    plan = result.to_json()["plan"]
    engine = StepEngine(spark, plan, MemoryStateStore())
    out: Deltas = {}
    seq = 0
    for step, changes in enumerate(FLIP_STEPS, 1):
        rows = step_rows(plan, json.dumps(changes), step, seq)
        seq += len(rows)
        out[step] = _unordered(engine.step(step, spark.createDataFrame(rows, SCHEMA)).deltas)
    assert out[1] == _unordered(
        {
            "inserted": [{"insert": {"k": "a", "v": 1}}, {"insert": {"k": "b", "v": 2}}],
            "changelog": [
                {"insert": {"op": 0, "payload": {"k": "a", "v": 1}}},
                {"insert": {"op": 0, "payload": {"k": "b", "v": 2}}},
            ],
            "t_again": [{"insert": {"k": "a", "v": 1}}, {"insert": {"k": "b", "v": 2}}],
            "searched": [{"insert": {"name": "a", "k": "a", "v": 1}}],
        }
    )
    assert out[2] == _unordered(
        {
            "converted": [
                {"insert": converted("o1", "10:15", "2.280000", "Euro")},
                {"insert": converted("o2", "10:30", "1.000000", "USD")},
                {"insert": converted("o3", "10:32", "0.490000", "Yen")},
            ],
            "changelog": [
                {"insert": {"op": 1, "payload": {"k": "a", "v": 1}}},
                {"insert": {"op": 2, "payload": {"k": "a", "v": 10}}},
                {"insert": {"op": 3, "payload": {"k": "b", "v": 2}}},
            ],
            "t_again": [
                {"delete": {"k": "a", "v": 1}},
                {"delete": {"k": "b", "v": 2}},
                {"insert": {"k": "a", "v": 10}},
            ],
            # 'b' was deleted in this very step: the lookup sees the table after the step.
            "searched": [{"insert": {"name": "a", "k": "a", "v": 10}}],
        }
    )
    assert out[3] == _unordered(
        {
            # Euro's 10:00 version arrives after o1 (10:15) was converted at 09:00's rate.
            "converted": [
                {"delete": converted("o1", "10:15", "2.280000", "Euro")},
                {"insert": converted("o1", "10:15", "2.320000", "Euro")},
                {"insert": converted("o4", "11:20", "3.570000", "Euro")},
            ],
            "inserted": [{"insert": {"k": "c", "v": 4}}],
            "changelog": [
                {"insert": {"op": 0, "payload": {"k": "c", "v": 4}}},
                {"insert": {"op": 3, "payload": {"k": "a", "v": 10}}},
            ],
            "t_again": [{"delete": {"k": "a", "v": 10}}, {"insert": {"k": "c", "v": 4}}],
        }
    )


def _unordered(deltas: dict[str, list[dict[str, Any]]]) -> dict[str, list[str]]:
    """Each view's changes of a step, in one order (the engine orders them by their JSON)."""
    return {
        view: sorted(json.dumps(c, sort_keys=True) for c in changes)
        for view, changes in deltas.items()
    }
