"""ARRAY_AGG with the values Feldera's runtime tests expect (aggregate_tests2,
test_date_arr_agg): NULL values kept, in the order of the aggregate's input rows (sorted
by the values it reads, NULL first); DISTINCT once per value; FILTER; and ORDER BY,
IGNORE NULLS, decimals and times as text inside the array, a delete, a view that groups
by an array, and eight ARRAY_AGGs in one view (test_array)."""

from pyspark.sql import SparkSession

from tests.integration.runtime.replays import as_text, contents_after_steps

PROGRAM = """
CREATE TABLE date_tbl(id INT, c1 DATE NOT NULL, c2 DATE);
CREATE VIEW date_array_agg AS SELECT ARRAY_AGG(c1) AS c1, ARRAY_AGG(c2) AS c2 FROM date_tbl;
CREATE VIEW date_array_agg_gby AS SELECT id, ARRAY_AGG(c1) AS c1, ARRAY_AGG(c2) AS c2
  FROM date_tbl GROUP BY id;
CREATE VIEW date_array_agg_distinct AS SELECT ARRAY_AGG(DISTINCT c1) AS c1,
  ARRAY_AGG(DISTINCT c2) AS c2 FROM date_tbl;
CREATE VIEW date_array_where_gby AS SELECT id,
  ARRAY_AGG(c1) FILTER(WHERE c1 > '2014-11-05') AS f_c1,
  ARRAY_AGG(c2) FILTER(WHERE c2 > '2014-11-05') AS f_c2 FROM date_tbl GROUP BY id;
CREATE VIEW ordered AS SELECT id, ARRAY_AGG(c2 IGNORE NULLS ORDER BY c1 DESC) AS c2
  FROM date_tbl GROUP BY id;
CREATE TABLE amounts (k INT, d DECIMAL(6, 2), t TIME);
CREATE VIEW texts AS SELECT k, ARRAY_AGG(d ORDER BY d) AS ds, ARRAY_AGG(t ORDER BY t) AS ts
  FROM amounts GROUP BY k;
CREATE VIEW by_array AS SELECT ds, COUNT(*) AS n FROM texts GROUP BY ds;
CREATE TABLE int0_tbl(id INT NOT NULL, c1 TINYINT, c2 TINYINT NOT NULL, c3 INT2,
  c4 INT2 NOT NULL, c5 INT, c6 INT NOT NULL, c7 BIGINT, c8 BIGINT NOT NULL);
CREATE VIEW int_array_agg AS SELECT ARRAY_AGG(c1) AS c1, ARRAY_AGG(c2) AS c2,
  ARRAY_AGG(c3) AS c3, ARRAY_AGG(c4) AS c4, ARRAY_AGG(c5) AS c5, ARRAY_AGG(c6) AS c6,
  ARRAY_AGG(c7) AS c7, ARRAY_AGG(c8) AS c8 FROM int0_tbl;
"""
INTS = [
    (0, 5, 2, None, 4, 5, 6, None, 8),
    (1, 4, 3, 4, 6, 2, 3, 4, 2),
    (0, None, 2, 3, 2, 3, 4, 3, 3),
    (1, None, 5, 6, 2, 2, 1, None, 5),
]
DATES = [
    {"id": 0, "c1": "2014-11-05", "c2": "2024-12-05"},
    {"id": 0, "c1": "2020-06-21", "c2": None},
    {"id": 1, "c1": "2024-12-05", "c2": "2014-11-05"},
    {"id": 1, "c1": "2020-06-21", "c2": "2023-02-26"},
    {"id": 1, "c1": "1969-03-17", "c2": "2015-09-07"},
]
AMOUNTS = [
    {"k": 1, "d": 2.5, "t": "10:00:00"},
    {"k": 1, "d": 10, "t": "09:30:00"},
    {"k": 2, "d": 10, "t": "08:00:00"},
    {"k": 2, "d": 2.5, "t": "23:59:59"},
]


def test_array_agg_as_feldera_expects_and_after_a_delete(spark: SparkSession) -> None:
    first, second = contents_after_steps(
        spark,
        PROGRAM,
        [
            {
                "date_tbl": [{"insert": row} for row in DATES],
                "amounts": [{"insert": row} for row in AMOUNTS],
                "int0_tbl": [
                    {"insert": dict(zip(["id", *(f"c{i}" for i in range(1, 9))], row, strict=True))}
                    for row in INTS
                ],
            },
            {
                "date_tbl": [{"delete": DATES[1]}],
                "amounts": [{"delete": AMOUNTS[0]}],
            },
        ],
        order=lambda row: (row.get("id", row.get("k", 0)), as_text(row)),  # by group
    )
    assert first["date_array_agg"] == [
        {
            "c1": ["1969-03-17", "2014-11-05", "2020-06-21", "2020-06-21", "2024-12-05"],
            "c2": ["2015-09-07", "2024-12-05", None, "2023-02-26", "2014-11-05"],
        }
    ]
    assert first["date_array_agg_gby"] == [
        {"id": 0, "c1": ["2014-11-05", "2020-06-21"], "c2": ["2024-12-05", None]},
        {
            "id": 1,
            "c1": ["1969-03-17", "2020-06-21", "2024-12-05"],
            "c2": ["2015-09-07", "2023-02-26", "2014-11-05"],
        },
    ]
    assert first["date_array_agg_distinct"] == [
        {
            "c1": ["1969-03-17", "2014-11-05", "2020-06-21", "2024-12-05"],
            "c2": [None, "2014-11-05", "2015-09-07", "2023-02-26", "2024-12-05"],
        }
    ]
    assert first["date_array_where_gby"] == [
        {"id": 0, "f_c1": ["2020-06-21"], "f_c2": ["2024-12-05"]},
        {"id": 1, "f_c1": ["2020-06-21", "2024-12-05"], "f_c2": ["2015-09-07", "2023-02-26"]},
    ]
    assert first["ordered"] == [
        {"id": 0, "c2": ["2024-12-05"]},  # the NULL is left out
        {"id": 1, "c2": ["2014-11-05", "2023-02-26", "2015-09-07"]},
    ]
    assert first["texts"] == [
        {"k": 1, "ds": ["2.50", "10.00"], "ts": ["09:30:00", "10:00:00"]},
        {"k": 2, "ds": ["2.50", "10.00"], "ts": ["08:00:00", "23:59:59"]},
    ]
    assert first["by_array"] == [{"ds": ["2.50", "10.00"], "n": 2}]
    # Eight ARRAY_AGGs each sort by the eight values (Feldera's test_array: once, their
    # comparison grew as 2^keys and ran the driver out of heap).
    assert first["int_array_agg"] == [
        {"c1": [None, None, 4, 5], "c2": [2, 5, 3, 2], "c3": [3, 6, 4, None], "c4": [2, 2, 6, 4],
         "c5": [3, 2, 2, 5], "c6": [4, 1, 3, 6], "c7": [3, None, 4, None], "c8": [3, 5, 2, 8]}
    ]  # fmt: skip
    # The group of id 0 keeps one row: its arrays are made again from it.
    assert second["date_array_agg_gby"][0] == {"id": 0, "c1": ["2014-11-05"], "c2": ["2024-12-05"]}
    assert second["date_array_where_gby"][0] == {"id": 0, "f_c1": None, "f_c2": ["2024-12-05"]}
    assert second["by_array"] == [{"ds": ["10.00"], "n": 1}, {"ds": ["2.50", "10.00"], "n": 1}]
