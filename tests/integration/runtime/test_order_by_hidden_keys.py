"""ORDER BY keys the select list leaves out: a FROM column, an aggregate, a stream's
rowtime. The query sorts by them (with LIMIT, picks by them) and outputs only its
own columns."""

import json

from pyspark.sql import SparkSession

from tests.integration.runtime.replays import contents_by_step
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


def test_nulls_sort_as_the_smallest_values_unless_said(spark: SparkSession) -> None:
    """Feldera's ORDER BY tests (their rows and expected rows): NULLs first ascending,
    last descending, as in Feldera, Flink and Spark; NULLS FIRST / LAST say otherwise."""
    program = """
    CREATE TABLE o (c1 INT, c2 VARCHAR);
    CREATE VIEW asc3 AS SELECT c1 FROM o ORDER BY c1 ASC LIMIT 3;
    CREATE VIEW desc3 AS SELECT c1 FROM o ORDER BY c1 DESC LIMIT 3;
    CREATE VIEW desc3_text AS SELECT c2 FROM o ORDER BY c2 DESC LIMIT 3;
    CREATE VIEW asc3_nulls_last AS SELECT c1 FROM o ORDER BY c1 NULLS LAST LIMIT 3;
    """
    rows = [(3, "hello"), (2, "bye bye, friend!!"), (None, "see you later"), (2, None),
            (1, "ferris says ciao"), (14, "meet you @ 5"), (3, None), (6, "see you"),
            (1, "hello"), (None, "fred says konichiwa"), (4, "see you")]  # fmt: skip
    step = [{"insert": {"c1": c1, "c2": c2}} for c1, c2 in rows]
    [after] = contents_by_step(spark, program, "o", [step], order=lambda r: str(r))
    assert after["asc3"] == [{"c1": 1}, {"c1": None}, {"c1": None}]
    assert after["desc3"] == [{"c1": 14}, {"c1": 4}, {"c1": 6}]
    assert after["desc3_text"] == [{"c2": "see you later"}, {"c2": "see you"}, {"c2": "see you"}]
    assert after["asc3_nulls_last"] == [{"c1": 1}, {"c1": 1}, {"c1": 2}]
