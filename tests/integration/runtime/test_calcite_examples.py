"""Calcite's streaming examples (spec/calcite-streaming.md), row for row, step by step.

The Orders stream receives the document's eight orders one per step, then a
rowtime bound at 12:00. Streaming queries are views with `SELECT STREAM`; each
must emit exactly the document's rows, at the step the document implies (a
streaming aggregate emits an hour's totals once a later row or bound shows the
hour is complete).

Two of the document's result tables have typos that the arithmetic contradicts:
product 20's 10:00 units total is 2 (its only order has 2 units; the document
prints 7), and the description of orders 9, 10 and 12 reads "An order for"
(the document prints "An order by"; the query has no "by").
"""

import json
from typing import Any

import pytest
from pyspark.sql import SparkSession

from worker.replay import compile_with_queries, replay

ORDERS = [
    ("10:17:00", 30, 5, 4),
    ("10:17:05", 10, 6, 1),
    ("10:18:05", 20, 7, 2),
    ("10:18:07", 30, 8, 20),
    ("11:02:00", 10, 9, 6),
    ("11:04:00", 10, 10, 1),
    ("11:09:30", 40, 11, 12),
    ("11:24:11", 10, 12, 4),
]
PROGRAM = """
CREATE STREAM Orders (productId INT NOT NULL, orderId INT NOT NULL, units INT NOT NULL);

CREATE VIEW simple AS SELECT STREAM * FROM Orders;

CREATE VIEW filtered AS SELECT STREAM * FROM Orders WHERE units > 3;

CREATE VIEW described AS
SELECT STREAM rowtime,
  'An order for ' || units || ' '
    || CASE units WHEN 1 THEN 'unit' ELSE 'units' END
    || ' of product #' || productId AS description
FROM Orders;

CREATE VIEW tumbling AS
SELECT STREAM FLOOR(rowtime TO HOUR) AS rowtime,
  productId,
  COUNT(*) AS c,
  SUM(units) AS units
FROM Orders
GROUP BY FLOOR(rowtime TO HOUR), productId;

CREATE VIEW having_filter AS
SELECT STREAM FLOOR(rowtime TO HOUR) AS rowtime,
  productId
FROM Orders
GROUP BY FLOOR(rowtime TO HOUR), productId
HAVING COUNT(*) > 2 OR SUM(units) > 10;

CREATE VIEW sub_query AS
SELECT STREAM rowtime, productId
FROM (
  SELECT FLOOR(rowtime TO HOUR) AS rowtime,
    productId,
    COUNT(*) AS c,
    SUM(units) AS su
  FROM Orders
  GROUP BY FLOOR(rowtime TO HOUR), productId)
WHERE c > 2 OR su > 10;

CREATE VIEW HourlyOrderTotals (rowtime, productId, c, su) AS
  SELECT FLOOR(rowtime TO HOUR),
    productId,
    COUNT(*),
    SUM(units)
  FROM Orders
  GROUP BY FLOOR(rowtime TO HOUR), productId;

CREATE VIEW over_view AS
SELECT STREAM rowtime, productId
FROM HourlyOrderTotals
WHERE c > 2 OR su > 10;

CREATE VIEW with_clause AS
WITH HourlyOrderTotals (rowtime, productId, c, su) AS (
  SELECT FLOOR(rowtime TO HOUR),
    productId,
    COUNT(*),
    SUM(units)
  FROM Orders
  GROUP BY FLOOR(rowtime TO HOUR), productId)
SELECT STREAM rowtime, productId
FROM HourlyOrderTotals
WHERE c > 2 OR su > 10;

CREATE VIEW sorted_orders AS
SELECT STREAM FLOOR(rowtime TO hour) AS rowtime, productId, orderId, units
FROM Orders
ORDER BY FLOOR(rowtime TO hour) ASC, units DESC;

CREATE VIEW merged_in_order AS
SELECT STREAM *
FROM Orders
WHERE productId = 10
UNION ALL
SELECT STREAM *
FROM Orders
WHERE productId = 30
ORDER BY rowtime;

CREATE VIEW hopping AS
SELECT STREAM rowtime,
  productId,
  SUM(su) OVER w AS su,
  SUM(c) OVER w AS c
FROM HourlyOrderTotals
WINDOW w AS (
  ORDER BY rowtime
  PARTITION BY productId
  RANGE INTERVAL '2' HOUR PRECEDING);

CREATE VIEW product_10_hours AS
SELECT STREAM rowtime
FROM HourlyOrderTotals
WHERE productId = 10;
"""


def ts(clock: str) -> str:
    return f"2015-02-15 {clock}"


@pytest.fixture(scope="module")
def emitted(spark: SparkSession) -> dict[str, list[tuple[int, dict[str, Any]]]]:
    """Each view's (step, row) insertions, in order; fails on any deletion."""
    result = compile_with_queries(PROGRAM, [])
    assert not result.has_errors, result.diagnostics_json()
    lines = [
        json.dumps({"Orders": [{"rowtime": ts(t), "productId": p, "orderId": o, "units": u}]})
        for t, p, o, u in ORDERS
    ]
    lines.append(json.dumps({"Orders": [{"bound": ts("12:00:00")}]}))
    by_view: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    for record in replay(spark, result.to_json()["plan"], lines):
        assert "view" in record, record  # nothing is dropped
        if record["view"] == "hourlyordertotals":
            continue  # a relation: its totals are updated as orders arrive
        for change in record["changes"]:
            assert "insert" in change, f"a stream only inserts: {record}"
            by_view.setdefault(record["view"], []).append((record["step"], change["insert"]))
    return by_view


def test_select_stream_star_emits_each_order_as_it_arrives(emitted: Any) -> None:
    assert emitted["simple"] == [
        (step, {"rowtime": ts(t), "productid": p, "orderid": o, "units": u})
        for step, (t, p, o, u) in enumerate(ORDERS, 1)
    ]


def test_filtering_rows(emitted: Any) -> None:
    assert [(step, row["orderid"]) for step, row in emitted["filtered"]] == [
        (1, 5), (4, 8), (5, 9), (7, 11), (8, 12)
    ]  # fmt: skip


def test_projecting_expressions(emitted: Any) -> None:
    assert [row for _, row in emitted["described"]] == [
        {"rowtime": ts("10:17:00"), "description": "An order for 4 units of product #30"},
        {"rowtime": ts("10:17:05"), "description": "An order for 1 unit of product #10"},
        {"rowtime": ts("10:18:05"), "description": "An order for 2 units of product #20"},
        {"rowtime": ts("10:18:07"), "description": "An order for 20 units of product #30"},
        {"rowtime": ts("11:02:00"), "description": "An order for 6 units of product #10"},
        {"rowtime": ts("11:04:00"), "description": "An order for 1 unit of product #10"},
        {"rowtime": ts("11:09:30"), "description": "An order for 12 units of product #40"},
        {"rowtime": ts("11:24:11"), "description": "An order for 4 units of product #10"},
    ]


def test_tumbling_window_totals_come_once_the_hour_is_complete(emitted: Any) -> None:
    def total(hour: str, product: int, c: int, units: int) -> dict[str, Any]:
        return {"rowtime": ts(hour), "productid": product, "c": c, "units": units}

    rows = emitted["tumbling"]
    # 10:00 is complete when the 11:02:00 order arrives (step 5); 11:00 at the bound.
    assert {step for step, _ in rows} == {5, 9}
    assert sorted((r for s, r in rows if s == 5), key=lambda r: r["productid"]) == [
        total("10:00:00", 10, 1, 1),
        total("10:00:00", 20, 1, 2),
        total("10:00:00", 30, 2, 24),
    ]
    assert sorted((r for s, r in rows if s == 9), key=lambda r: r["productid"]) == [
        total("11:00:00", 10, 3, 11),
        total("11:00:00", 40, 1, 12),
    ]


@pytest.mark.parametrize("view", ["having_filter", "sub_query", "over_view", "with_clause"])
def test_filtering_after_aggregation_in_each_of_its_forms(emitted: Any, view: str) -> None:
    in_order = sorted(emitted[view], key=lambda e: (e[0], e[1]["productid"]))
    assert in_order == [
        (5, {"rowtime": ts("10:00:00"), "productid": 30}),
        (9, {"rowtime": ts("11:00:00"), "productid": 10}),
        (9, {"rowtime": ts("11:00:00"), "productid": 40}),
    ]


def test_every_hour_in_which_product_10_was_sold(emitted: Any) -> None:
    assert emitted["product_10_hours"] == [
        (5, {"rowtime": ts("10:00:00")}),
        (9, {"rowtime": ts("11:00:00")}),
    ]


def test_sorting_a_stream_emits_each_complete_hour_in_key_order(emitted: Any) -> None:
    """ORDER BY FLOOR(rowtime TO hour), units DESC: an hour's rows, sorted, once it ends."""
    rows = [(step, row["orderid"]) for step, row in emitted["sorted_orders"]]
    assert rows == [(5, 8), (5, 5), (5, 7), (5, 6), (9, 11), (9, 9), (9, 12), (9, 10)]


def test_an_explicit_order_by_merges_a_union_by_rowtime(emitted: Any) -> None:
    rows = emitted["merged_in_order"]
    assert [row["orderid"] for _, row in rows] == [5, 6, 8, 9, 10, 12]
    assert [step for step, _ in rows] == sorted(step for step, _ in rows)


def test_hopping_window_as_a_sliding_window_over_hourly_totals(emitted: Any) -> None:
    """SUM(...) OVER a 2-hour RANGE of the hourly totals: 10:00 and 11:00 for product 10."""

    def row(hour: str, product: int, su: int, c: int) -> dict[str, Any]:
        return {"rowtime": ts(hour), "productid": product, "su": su, "c": c}

    rows = sorted(emitted["hopping"], key=lambda e: (e[0], e[1]["productid"]))
    assert rows == [
        (5, row("10:00:00", 10, 1, 1)),
        (5, row("10:00:00", 20, 2, 1)),
        (5, row("10:00:00", 30, 24, 2)),
        (9, row("11:00:00", 10, 12, 4)),
        (9, row("11:00:00", 40, 12, 1)),
    ]
