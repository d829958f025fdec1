"""Aggregates on the tables of Feldera's runtime aggregate tests, with the values those
tests expect: ARG_MAX / ARG_MIN when the value or the compared one is NULL (with and
without FILTER), the
statistics in their argument's type (an integer's standard deviation is an integer,
cut toward zero), and a DECIMAL average cut, not rounded, to its scale. A second step
deletes a row, and each aggregate is made again from the rows left."""

from typing import Any

from pyspark.sql import SparkSession

from tests.integration.runtime.replays import contents_after_steps

PAIRS = [(1, 2), (2, 1), (3, 4), (4, 3), (5, 6), (6, 5), (7, 8), (8, 7)]


def _arg_calls(function: str) -> str:
    return ", ".join(f"{function}(c{v}, c{c}) AS c{v}" for v, c in PAIRS)


def _statistics() -> str:
    return ", ".join(f"STDDEV_SAMP(c{i}) AS c{i}" for i in range(1, 9))


PROGRAM = f"""
CREATE TABLE int0_tbl(id INT NOT NULL, c1 TINYINT, c2 TINYINT NOT NULL, c3 INT2,
  c4 INT2 NOT NULL, c5 INT, c6 INT NOT NULL, c7 BIGINT, c8 BIGINT NOT NULL);
CREATE TABLE decimal_tbl(id INT, c1 DECIMAL(6,2), c2 DECIMAL(6,2) NOT NULL);
CREATE VIEW arg_max AS SELECT {_arg_calls("ARG_MAX")} FROM int0_tbl;
CREATE VIEW arg_min AS SELECT {_arg_calls("ARG_MIN")} FROM int0_tbl;
CREATE VIEW arg_max_by_id AS SELECT id, {_arg_calls("ARG_MAX")} FROM int0_tbl GROUP BY id;
CREATE TABLE date_tbl(id INT, c1 DATE NOT NULL, c2 DATE);
CREATE VIEW date_arg_max_where_gby AS SELECT id,
  ARG_MAX(c1, c2) FILTER(WHERE c1 > '2014-11-05') AS c1,
  ARG_MAX(c2, c1) FILTER(WHERE c1 > '2014-11-05') AS c2 FROM date_tbl GROUP BY id;
CREATE VIEW date_arg_min_where_gby AS SELECT id,
  ARG_MIN(c1, c2) FILTER(WHERE c1 > '2014-11-05') AS c1,
  ARG_MIN(c2, c1) FILTER(WHERE c1 > '2014-11-05') AS c2 FROM date_tbl GROUP BY id;
CREATE VIEW stddev_by_id AS SELECT id, {_statistics()} FROM int0_tbl GROUP BY id;
CREATE VIEW decimal_stddev AS SELECT STDDEV_SAMP(c1) AS c1, STDDEV_SAMP(c2) AS c2
  FROM decimal_tbl;
CREATE VIEW decimal_avg AS SELECT AVG(c1) FILTER (WHERE c2 > 2231.90) AS c1,
  AVG(c2) FILTER (WHERE c2 > 2231.90) AS c2 FROM decimal_tbl;
CREATE VIEW decimal_over AS SELECT id, c2, STDDEV_SAMP(c2) OVER (PARTITION BY id) AS s,
  AVG(c2) OVER (PARTITION BY id) AS a FROM decimal_tbl;
"""
INTS = [
    (0, 5, 2, None, 4, 5, 6, None, 8),
    (1, 4, 3, 4, 6, 2, 3, 4, 2),
    (0, None, 2, 3, 2, 3, 4, 3, 3),
    (1, None, 5, 6, 2, 2, 1, None, 5),
]
DATES = [
    (0, "2014-11-05", "2024-12-05"),
    (0, "2020-06-21", None),
    (1, "2024-12-05", "2014-11-05"),
    (1, "2020-06-21", "2023-02-26"),
    (1, "1969-03-17", "2015-09-07"),
]
DECIMALS = [
    (0, "1111.52", "2231.90"),
    (0, None, "3802.71"),
    (1, "5681.08", "7689.88"),
    (1, "5681.08", "7335.88"),
]


def _int_row(values: tuple[Any, ...]) -> dict[str, Any]:
    return dict(zip(["id", *(f"c{i}" for i in range(1, 9))], values, strict=True))


def _columns(*values: Any) -> dict[str, Any]:
    return {f"c{i}": v for i, v in enumerate(values, start=1)}


def test_feldera_s_expected_aggregates_and_after_a_delete(spark: SparkSession) -> None:
    first = {
        "int0_tbl": [{"insert": _int_row(r)} for r in INTS],
        "decimal_tbl": [
            {"insert": dict(zip(["id", "c1", "c2"], r, strict=True))} for r in DECIMALS
        ],
        "date_tbl": [{"insert": dict(zip(["id", "c1", "c2"], r, strict=True))} for r in DATES],
    }
    second = {"int0_tbl": [{"delete": _int_row(INTS[3])}]}
    after = contents_after_steps(spark, PROGRAM, [first, second], order=lambda r: str(r))
    # A NULL value counts (the row with the largest c2 has c1 NULL); a NULL compared
    # loses to any other; of rows equal in compared, the largest (ARG_MAX) or smallest (ARG_MIN)
    # value, NULL the smallest.
    assert after[0]["arg_max"] == [_columns(None, 2, 4, 2, 5, 6, None, 2)]
    assert after[0]["arg_min"] == [_columns(None, 3, 3, 2, 2, 1, 4, 3)]
    assert after[0]["arg_max_by_id"] == [
        {"id": 0} | _columns(5, 2, None, 2, 5, 6, None, 3),
        {"id": 1} | _columns(None, 3, 4, 2, 2, 3, None, 2),
    ]
    # Where the one row the FILTER leaves has a NULL compared, it counts: its value.
    assert sorted(after[0]["date_arg_max_where_gby"], key=lambda r: r["id"]) == [
        {"id": 0, "c1": "2020-06-21", "c2": None},
        {"id": 1, "c1": "2020-06-21", "c2": "2014-11-05"},
    ]
    assert sorted(after[0]["date_arg_min_where_gby"], key=lambda r: r["id"]) == [
        {"id": 0, "c1": "2020-06-21", "c2": None},
        {"id": 1, "c1": "2024-12-05", "c2": "2023-02-26"},
    ]
    assert after[0]["stddev_by_id"] == [
        {"id": 0} | _columns(None, 0, None, 1, 1, 1, None, 3),
        {"id": 1} | _columns(None, 1, 1, 2, 0, 1, None, 2),
    ]
    # Cut toward zero: 2638.2366..., 250.3158..., 6276.1566... (rounding would differ).
    assert after[0]["decimal_stddev"] == [{"c1": "2638.23", "c2": "2677.47"}]
    assert after[0]["decimal_avg"] == [{"c1": "5681.08", "c2": "6276.15"}]
    assert after[0]["decimal_over"] == [
        {"id": 0, "c2": "2231.90", "s": "1110.73", "a": "3017.30"},
        {"id": 0, "c2": "3802.71", "s": "1110.73", "a": "3017.30"},
        {"id": 1, "c2": "7335.88", "s": "250.31", "a": "7512.88"},
        {"id": 1, "c2": "7689.88", "s": "250.31", "a": "7512.88"},
    ]
    assert after[1]["arg_max"] == [_columns(4, 2, 4, 6, 5, 6, None, 2)]
    assert after[1]["arg_min"] == [_columns(None, 3, 3, 2, 2, 3, 4, 3)]
    assert after[1]["stddev_by_id"][1] == {"id": 1} | _columns(*[None] * 8)
