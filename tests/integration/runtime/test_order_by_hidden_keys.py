"""ORDER BY keys the select list leaves out: a FROM column, an aggregate, a stream's
rowtime. The query sorts by them (with LIMIT, picks by them) and outputs only its
own columns."""

import json

from pyspark.sql import SparkSession

from worker.replay import compile_with_queries, replay

PROGRAM = """
CREATE STREAM Orders (productId INT NOT NULL, units INT NOT NULL);
CREATE TABLE t (id INT, g VARCHAR, x INT);
CREATE VIEW top_ids AS SELECT id FROM t ORDER BY x DESC, id LIMIT 2;
CREATE VIEW groups_by_total AS SELECT g FROM t GROUP BY g ORDER BY SUM(x) DESC, g LIMIT 1;
CREATE VIEW in_time AS SELECT STREAM productId FROM Orders ORDER BY rowtime;
"""


def row(id_: int, g: str, x: int) -> dict[str, object]:
    return {"id": id_, "g": g, "x": x}


def order(time: str, product: int) -> dict[str, object]:
    return {"insert": {"rowtime": f"2020-01-01 {time}:00", "productId": product, "units": 1}}


def test_keys_outside_the_select_list_order_and_limit_the_output(spark: SparkSession) -> None:
    result = compile_with_queries(PROGRAM, [])
    assert not result.has_errors, result.diagnostics
    assert [c["name"] for c in result.to_json()["plan"]["views"][0]["columns"]] == ["id"]
    steps = [
        {
            "t": [
                {"insert": row(1, "a", 5)},
                {"insert": row(2, "b", 7)},
                {"insert": row(3, "a", 6)},
            ],
            "Orders": [order("10:00", 10)],
        },
        {"t": [{"delete": row(2, "b", 7)}], "Orders": [order("10:05", 20)]},
    ]
    records = list(replay(spark, result.to_json()["plan"], [json.dumps(s) for s in steps]))
    assert records == [
        # x 7 and 6 are the largest; group a's total (11) is larger than b's (7).
        {"step": 1, "view": "top_ids", "changes": [{"insert": {"id": 2}}, {"insert": {"id": 3}}]},
        {"step": 1, "view": "groups_by_total", "changes": [{"insert": {"g": "a"}}]},
        {"step": 1, "view": "in_time", "changes": [{"insert": {"productid": 10}}]},
        # With id 2 gone, id 1 (x 5) is second.
        {"step": 2, "view": "top_ids", "changes": [{"delete": {"id": 2}}, {"insert": {"id": 1}}]},
        {"step": 2, "view": "in_time", "changes": [{"insert": {"productid": 20}}]},
    ]
