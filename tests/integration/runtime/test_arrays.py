"""Array columns with the rows Feldera's runtime tests expect (complex_type_tests:
test_arr, test_arr_unnest): a[i] from 1 and NULL past the end, UNNEST WITH ORDINALITY
keeping NULL elements and giving no row for a NULL array; then a delete takes a row's
elements away, through an aggregate over them too."""

from pyspark.sql import SparkSession

from tests.integration.runtime.replays import as_text, contents_after_steps

PROGRAM = """
CREATE TABLE array_int_var_tbl(id INT, c1_arr INT ARRAY, c2_arr INT ARRAY NOT NULL,
  c3_arr VARCHAR ARRAY, c4_arr VARCHAR ARRAY NOT NULL);
CREATE VIEW arr_field_access AS SELECT id, c1_arr[1] AS c1_val1, c1_arr[3] AS c1_val3,
  c2_arr[1] AS c2_val1, c2_arr[2] AS c2_val2, c3_arr[1] AS c3_val1, c4_arr[2] AS c4_val2
  FROM array_int_var_tbl;
CREATE VIEW arr_functions AS SELECT id, CARDINALITY(c1_arr) AS n, ARRAY_CONTAINS(c2_arr, 5) AS has5,
  ARRAY[id, 10] AS pair, c2_arr[0] AS at_0, c2_arr[-1] AS at_minus_1 FROM array_int_var_tbl;
CREATE TABLE arr_unnest_tbl(id INT, c1_arr INT ARRAY, c2_arr INT ARRAY NOT NULL);
CREATE VIEW arr_unnest_int1 AS SELECT id, c1_val + 1 AS c1, idx
  FROM arr_unnest_tbl, UNNEST(c1_arr) WITH ORDINALITY AS t (c1_val, idx);
CREATE VIEW sums AS SELECT SUM(e) AS total, COUNT(*) AS n
  FROM arr_unnest_tbl AS a CROSS JOIN UNNEST(a.c2_arr) AS u(e);
"""
ARRAYS = [
    {"id": 0, "c1_arr": [1, 2, None], "c2_arr": [4, 5, 6], "c3_arr": ["Ciao", None],
     "c4_arr": ["Hello", "Hi"]},
    {"id": 1, "c1_arr": [None], "c2_arr": [7, 8, 9], "c3_arr": [None], "c4_arr": ["Bye"]},
]  # fmt: skip
UNNESTED = [
    {"id": 0, "c1_arr": [1, 2, None], "c2_arr": [4, 5, None]},
    {"id": 1, "c1_arr": [None, None], "c2_arr": [None, None, None]},
    {"id": 2, "c1_arr": None, "c2_arr": [7, 8]},
]


def test_array_columns_as_feldera_expects_and_after_a_delete(spark: SparkSession) -> None:
    first, second = contents_after_steps(
        spark,
        PROGRAM,
        [
            {
                "array_int_var_tbl": [{"insert": row} for row in ARRAYS],
                "arr_unnest_tbl": [{"insert": row} for row in UNNESTED],
            },
            {"arr_unnest_tbl": [{"delete": UNNESTED[0]}]},
        ],
        order=lambda row: (row.get("id", 0), row.get("idx", 0), as_text(row)),
    )
    assert first["arr_field_access"] == [
        {"id": 0, "c1_val1": 1, "c1_val3": None, "c2_val1": 4, "c2_val2": 5, "c3_val1": "Ciao",
         "c4_val2": "Hi"},
        {"id": 1, "c1_val1": None, "c1_val3": None, "c2_val1": 7, "c2_val2": 8, "c3_val1": None,
         "c4_val2": None},
    ]  # fmt: skip
    assert first["arr_functions"] == [
        {"id": 0, "n": 3, "has5": True, "pair": [0, 10], "at_0": None, "at_minus_1": None},
        {"id": 1, "n": 1, "has5": False, "pair": [1, 10], "at_0": None, "at_minus_1": None},
    ]
    assert first["arr_unnest_int1"] == [
        {"id": 0, "c1": 2, "idx": 1},
        {"id": 0, "c1": 3, "idx": 2},
        {"id": 0, "c1": None, "idx": 3},
        {"id": 1, "c1": None, "idx": 1},
        {"id": 1, "c1": None, "idx": 2},
    ]
    assert first["sums"] == [{"total": 24, "n": 8}]  # NULL elements are rows too
    assert second["arr_unnest_int1"] == first["arr_unnest_int1"][3:]
    assert second["sums"] == [{"total": 15, "n": 5}]
