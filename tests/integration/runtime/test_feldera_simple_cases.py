"""Cases of Feldera's compiler tests (sql/simple: NaiveIncrementalTests,
AggregateTests, RangeFrameTests) and Calcite's agg.iq that Weir got wrong, with the
answers those tests expect: a view of a bare NULL after a delete, a text cast to
DECIMAL cut (not rounded), a TUMBLE that leaves out a row with a NULL time, RANGE frames
at a SMALLINT's extremes, and a chain of + evaluated left to right."""

from pyspark.sql import SparkSession

from tests.integration.runtime.replays import contents_after_steps

PROGRAM = """
CREATE TABLE t (col1 INT NOT NULL, col5 INT, s VARCHAR);
CREATE VIEW bare_null AS SELECT NULL;
CREATE VIEW decimal_parse AS SELECT CAST('0.5' AS DECIMAL) AS half,
  CAST(s AS DECIMAL(5, 1)) AS one_place, CAST(CAST(s AS DECIMAL(6, 3)) AS DECIMAL(4, 1)) AS cut
  FROM t WHERE s IS NOT NULL;
CREATE TABLE data (price DOUBLE, ts TIMESTAMP);
CREATE VIEW tumbled AS SELECT window_start, MAX(price) AS top, COUNT(*) AS n
  FROM TABLE(TUMBLE(DATA => TABLE data, TIMECOL => DESCRIPTOR(ts), SIZE => INTERVAL '1' HOUR))
  GROUP BY window_start, window_end;
CREATE TABLE r (ts SMALLINT NOT NULL, x INT NOT NULL, b BIGINT NOT NULL);
CREATE VIEW ranged AS SELECT ts, x,
  SUM(x) OVER (ORDER BY ts RANGE BETWEEN 2 PRECEDING AND CURRENT ROW) AS s,
  SUM(x) OVER (ORDER BY b RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS sb,
  b + 9223372036854775807 + 1 AS left_to_right
  FROM r;
"""
ROWS = [{"col1": 10, "col5": None, "s": "-2.99"}, {"col1": 10, "col5": 1, "s": "12.345"}]
PRICES = [
    {"price": 1.0, "ts": "2024-01-01 00:00:00"},
    {"price": 4.0, "ts": "2024-01-01 00:00:30"},
    {"price": 7.0, "ts": None},  # in no window
    {"price": 6.0, "ts": "2024-01-01 02:00:00"},
]
EXTREMES = [(-32768, 4), (-32767, 8), (0, 16), (32766, 64), (32767, 128)]


def test_feldera_s_answers_through_inserts_an_empty_step_and_deletes(spark: SparkSession) -> None:
    extremes = [{"ts": ts, "x": x, "b": -9223372036854775807 + ts + 32768} for ts, x in EXTREMES]
    first = {
        "t": [{"insert": row} for row in ROWS],
        "data": [{"insert": row} for row in PRICES],
        "r": [{"insert": row} for row in extremes],
    }
    last = {"t": [{"delete": row} for row in ROWS], "data": [{"delete": PRICES[2]}]}
    after_first, after_empty, after_last = contents_after_steps(
        spark, PROGRAM, [first, {}, last], order=lambda row: str(sorted(row.items()))
    )
    assert after_first["bare_null"] == after_last["bare_null"] == [{"EXPR$0": None}]
    assert sorted(after_first["decimal_parse"], key=lambda row: row["one_place"]) == [
        {"half": "0", "one_place": "-2.9", "cut": "-2.9"},
        {"half": "0", "one_place": "12.3", "cut": "12.3"},
    ]
    assert after_last["decimal_parse"] == []
    assert sorted(after_first["tumbled"], key=lambda row: row["window_start"]) == [
        {"window_start": "2024-01-01 00:00:00", "top": 4.0, "n": 2},
        {"window_start": "2024-01-01 02:00:00", "top": 6.0, "n": 1},
    ]
    assert after_last["tumbled"] == after_first["tumbled"]
    ranged = {
        row["ts"]: (row["s"], row["sb"], row["left_to_right"]) for row in after_first["ranged"]
    }
    assert ranged == {
        -32768: (4, 12, 1),
        -32767: (12, 12, 2),
        0: (16, 16, 32769),
        32766: (64, 192, 65535),
        32767: (192, 192, 65536),
    }
    assert after_empty == after_first
