"""Feldera's own streaming tests (sql-to-dbsp-compiler StreamingTests, MinWaterline-
IncrementalTests), replayed step by step with the changes they expect: WATERMARK
releases the rows of earlier steps in the step that moves the max, a late delete is
dropped like a late insert, and a FOREIGN KEY is declared but not enforced."""

import json
from typing import Any

from pyspark.sql import SparkSession

from backend.compiler import compile_program
from worker.replay import replay

Step = dict[str, list[dict[str, Any]]]


def _changes_by_step(spark: SparkSession, program: str, steps: list[Step], view: str) -> list[Any]:
    """Each step's changes of `view`, as sorted (op, row) pairs; [] for a step without."""
    result = compile_program(program)
    assert not result.has_errors, result.diagnostics_json()
    found: list[Any] = [[] for _ in steps]
    lines = [json.dumps(step) for step in steps]
    for record in replay(spark, result.to_json()["plan"], lines):
        if record.get("view") == view:
            pairs = [(op, row) for change in record["changes"] for op, row in change.items()]
            found[record["step"] - 1] = sorted(pairs, key=json.dumps)
    return found


def _rows(table: str, *rows: dict[str, Any], op: str = "insert") -> Step:
    return {table: [{op: row} for row in rows]}


def test_watermark_test(spark: SparkSession) -> None:
    program = """
        CREATE TABLE series (
            distance DOUBLE,
            pickup TIMESTAMP NOT NULL WATERMARK INTERVAL '1:00' HOURS TO MINUTES
        );
        CREATE VIEW v AS SELECT AVG(distance) AS a, CAST(pickup AS DATE) AS d
        FROM series GROUP BY CAST(pickup AS DATE);"""
    steps = [
        _rows("series", {"distance": 10, "pickup": f"2023-12-{day} {time}"})
        for day, time in [
            (30, "10:00:00"),
            (29, "10:00:00"),
            (30, "10:10:00"),
            (29, "09:10:00"),
            (30, "10:00:00"),
            (31, "10:00:00"),
        ]
    ]
    steps[2]["series"][0]["insert"]["distance"] = 20
    assert _changes_by_step(spark, program, steps, "v") == [
        [],
        [("insert", {"a": 10.0, "d": "2023-12-29"})],
        [],
        [],  # 12-29 09:10 is out at once: AVG stays 10
        [],
        # The max moves to 12-31 10:00: the 12-30 rows held since steps 1, 3 and 5 are out.
        [("insert", {"a": 13.333333333333334, "d": "2023-12-30"})],
    ]


def test_issue7093_aggregate_drops_a_late_delete(spark: SparkSession) -> None:
    program = """
        CREATE TABLE events (
            id INT NOT NULL, payload VARCHAR,
            ts TIMESTAMP NOT NULL LATENESS INTERVAL 1 HOUR);
        CREATE LOCAL VIEW first_event AS SELECT id, MIN(ts) AS ts FROM events GROUP BY id;
        CREATE VIEW hourly AS SELECT TIMESTAMP_TRUNC(ts, HOUR) AS hour, MAX(id) AS max_id
        FROM first_event GROUP BY TIMESTAMP_TRUNC(ts, HOUR);"""
    a = {"id": 1, "payload": "a", "ts": "2020-01-01 10:30:00"}
    b = {"id": 1, "payload": "b", "ts": "2020-01-01 09:45:00"}
    steps = [
        _rows("events", a),
        _rows("events", b),
        _rows("events", b, op="delete"),
        _rows("events", {"id": 2, "payload": "c", "ts": "2020-01-01 12:00:00"}),
        # 10:30 is below the waterline (12:00 - 1 hour): the delete of `a` is dropped.
        {
            "events": [
                {"delete": a},
                {"insert": {"id": 3, "payload": "d", "ts": "2020-01-01 11:00:00"}},
            ]
        },
    ]
    hour = [f"2020-01-01 {h}:00:00" for h in ("09", "10", "11", "12")]
    assert _changes_by_step(spark, program, steps, "hourly") == [
        [("insert", {"hour": hour[1], "max_id": 1})],
        [("delete", {"hour": hour[1], "max_id": 1}), ("insert", {"hour": hour[0], "max_id": 1})],
        [("delete", {"hour": hour[0], "max_id": 1}), ("insert", {"hour": hour[1], "max_id": 1})],
        [("insert", {"hour": hour[3], "max_id": 2})],
        [("insert", {"hour": hour[2], "max_id": 3})],
    ]


def test_issue2004_a_foreign_key_is_not_enforced(spark: SparkSession) -> None:
    program = """
        CREATE TABLE auction (
           date_time TIMESTAMP NOT NULL LATENESS INTERVAL 1 MINUTE,
           expires   TIMESTAMP NOT NULL,
           id        INT NOT NULL PRIMARY KEY);
        CREATE TABLE bid (
           date_time TIMESTAMP NOT NULL LATENESS INTERVAL 1 MINUTE,
           price INT,
           auction INT FOREIGN KEY REFERENCES auction(id));
        CREATE VIEW q9 AS
        SELECT A.*, B.price, B.date_time AS bid_time
        FROM auction A, bid B
        WHERE A.id = B.auction AND B.date_time BETWEEN A.date_time AND A.expires;"""
    auction = {"date_time": "2024-01-01 00:00:00", "expires": "2024-01-01 01:00:00", "id": 0}
    steps = [
        _rows("auction", auction),
        _rows("bid", {"date_time": "2024-01-01 00:00:01", "price": 100, "auction": 0}),
        _rows(
            "bid", {"date_time": "2024-01-01 00:00:02", "price": 10, "auction": 7}
        ),  # no auction 7
    ]
    assert _changes_by_step(spark, program, steps, "q9") == [
        [],
        [("insert", {**auction, "price": 100, "bid_time": "2024-01-01 00:00:01"})],
        [],
    ]


def test_round_and_truncate_to_a_column_s_digits_are_not_monotone(spark: SparkSession) -> None:
    """MonotoneFunctionsIncrementalTests: ROUND(x, g) and TRUNCATE(x, g) group rows at g
    decimal places, g a column. A waterline of x is none of the group's: ROUND(1.60, 0)
    = 2 is above the group ROUND(1.60, 6) = 1.60, TRUNCATE(-1.60, 0) = -1 above -1.60."""
    for function, x in [("ROUND", 1.6), ("TRUNCATE", -1.6)]:
        for lateness in (True, False):
            table = (
                "CREATE TABLE T (g INT NOT NULL LATENESS 6, x DECIMAL(10, 2) NOT NULL LATENESS 0);"
            )
            if not lateness:
                table = table.replace(" LATENESS 6", "").replace(" LATENESS 0", "")
            view = f"CREATE VIEW V AS SELECT COUNT(*) AS c FROM T GROUP BY {function}(x, g);"
            steps = [_rows("T", {"g": 6, "x": x}) for _ in range(3)]
            assert _changes_by_step(spark, table + view, steps, "v") == [
                [("insert", {"c": 1})],
                [("delete", {"c": 1}), ("insert", {"c": 2})],
                [("delete", {"c": 2}), ("insert", {"c": 3})],
            ], (function, lateness)


def test_an_integer_standard_deviation_is_computed_in_whole_numbers(spark: SparkSession) -> None:
    """StarJoinOptOutIncrementalTests (starJoinFlatmapOptOutTest): STDDEV of the INTEGERs 1
    and 2 is 1, Calcite's reduction in the argument's type ((5 - 9 / 2) / 1, whole
    divisions), not 0.707 cut to 0. Over a window too, and with DISTINCT."""
    program = """
        CREATE TABLE T(x INT, y INT);
        CREATE VIEW V AS SELECT y, MIN(x) AS mn, MAX(x) AS mx, STDDEV(x) AS sd,
          ARG_MAX(y, x) AS am, STDDEV(DISTINCT x) AS sdd FROM T GROUP BY y HAVING y > 1;
        CREATE VIEW W AS SELECT x, STDDEV_SAMP(x) OVER (PARTITION BY y) AS s FROM T
          WHERE y = 2;"""
    steps = [_rows("T", {"x": 0, "y": 0}, {"x": 1, "y": 2}, {"x": 2, "y": 2})]
    assert _changes_by_step(spark, program, steps, "v") == [
        [("insert", {"y": 2, "mn": 1, "mx": 2, "sd": 1, "am": 2, "sdd": 1})]
    ]
    assert _changes_by_step(spark, program, steps, "w") == [
        [("insert", {"x": 1, "s": 1}), ("insert", {"x": 2, "s": 1})]
    ]
