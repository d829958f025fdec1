"""Array columns with the rows Feldera's runtime tests expect (complex_type_tests:
test_arr, test_arr_unnest): a[i] from 1 and NULL past the end, UNNEST WITH ORDINALITY
keeping NULL elements and giving no row for a NULL array; then a delete takes a row's
elements away, through an aggregate over them too."""

import pytest
from pyspark.sql import SparkSession

from tests.integration.runtime.replays import as_text, contents_after_steps
from worker.replay import ReplayStepError

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


# Feldera's ArrayFunctionsTests: each call with the value Feldera's test expects.
FUNCTION_CALLS = {
    "array_append(ARRAY [1, 2], null::int)": [1, 2, None],
    "array_append(ARRAY [1, 2], 3.5)": ["1.0", "2.0", "3.5"],
    "array_prepend(ARRAY [2.5, 3.5], null::int)": [None, "2.5", "3.5"],
    "array_repeat(2.1, 3)": ["2.1", "2.1", "2.1"],
    "array_repeat(3, -1)": [],
    "array_position(ARRAY [2, 4, 6, 8, null], 4)": 2,
    "array_position(ARRAY [2, 4, 6, 8, null], 3)": 0,
    "array_position(ARRAY [2, 4, 6, 8], null)": None,
    "array_contains(ARRAY [2, 4, 6, 8, null], 3)": False,
    "array_contains(ARRAY [null, 2, 2, 6, 6, 8, 2], null)": None,
    "array_remove(ARRAY [null, 2, 2, 6, 6, 8, 2], 2)": [None, 6, 6, 8],
    "array_remove(ARRAY [1, 2, 3], null)": None,
    "sort_array(ARRAY [7, 1, null, 4, null, 3], false)": [7, 4, 3, 1, None, None],
    "sort_array(ARRAY [7, 1, null, 4, null, 3], true)": [None, None, 1, 3, 4, 7],
    "sort_array(ARRAY [true, false, null])": [None, False, True],
    "array_distinct(ARRAY [null, 1, null, 2, 3])": [None, 1, 2, 3],
    "array_compact(ARRAY [1, 2, 3.1, null])": ["1.0", "2.0", "3.1"],
    "array_compact(ARRAY [NULL::int])": [],
    "array_reverse(ARRAY [1, 2, 3, null])": [None, 3, 2, 1],
    "array_max(ARRAY [9, 1, 2, 4, 8, null])": 9,
    "array_min(ARRAY [9, 1, 2, 4, 8, null])": 1,
    "array_size(ARRAY [1, 2, 3])": 3,
    # the examples of Feldera's documentation (array.md)
    "array_concat(ARRAY [1, 2, 3], ARRAY [4])": [1, 2, 3, 4],
    "array_except(ARRAY [1, 2, 3], ARRAY [3, 1, 4])": [2],
    "array_intersect(ARRAY [1, 2, 3], ARRAY [3, 1, 4])": [1, 3],
    "array_union(ARRAY [1, 2, 3], ARRAY [3, 1, 4])": [1, 2, 3, 4],
    "arrays_overlap(ARRAY [1, 2, 3], ARRAY [3, 4, 5])": True,
    "array_to_string(ARRAY ['1', '2', '3', NULL, '5'], ',', '*')": "1,2,3,*,5",
    "array_join(ARRAY ['1', NULL, '5'], ',')": "1,5",
    "element(ARRAY [2])": 2,
    "array_insert(ARRAY [1, 2, 3], 3, 4)": [1, 2, 4, 3],
    "transform(ARRAY [1, 2, 3], x -> x % 2)": [1, 0, 1],
    "transform(ARRAY ['a', NULL], s -> UPPER(s) || '!')": ["A!", None],
    "array_exists(ARRAY [1, -2, 3], x -> x > 0)": True,
    "array_exists(ARRAY [-1, NULL], x -> x > 0)": None,  # none TRUE, one NULL
    "array_exists(ARRAY [-1], x -> x > 0)": False,
    "array_insert(ARRAY [1, 2], 4, 9)": [1, 2, None, 9],  # padded with NULLs
    "array_insert(ARRAY [1, 2], -1, 9)": [1, 2, 9],  # from the end
    "array_insert(ARRAY [1, 2], NULL, 9)": None,
    "ARRAY [2, 3][SAFE_OFFSET(1)]": 3,
    "ARRAY [2, 3][SAFE_OFFSET(2)]": None,
    # SPLIT (Feldera's string functions): an empty last part kept, none of ''
    "split('a|b|c|', '|')": ["a", "b", "c", ""],
    "split('a,b')": ["a", "b"],
    "split('')": [],
    "split('a.b', '')": ["a.b"],
}
ROWS_PROGRAM = """
CREATE TABLE t (id INT NOT NULL, a INT ARRAY, x INT);
CREATE VIEW calls AS SELECT {calls} FROM t WHERE id = 0;
CREATE VIEW parts AS SELECT t.id, p.part, p.i FROM t CROSS JOIN
  UNNEST(SPLIT(CAST(x AS VARCHAR) || ',,' || CAST(id AS VARCHAR))) WITH ORDINALITY AS p(part, i)
  WHERE part <> '' AND id > 0;
CREATE VIEW by_row AS SELECT id, ARRAY_APPEND(a, x) AS appended, ARRAY_REMOVE(a, x) AS removed,
  ARRAY_POSITION(a, x) AS pos, SORT_ARRAY(a, FALSE) AS sorted,
  ELEMENT(ARRAY_DISTINCT(ARRAY_COMPACT(a))) AS one, TRANSFORM(a, e -> e * 10) AS tens
  FROM t WHERE id > 0;
"""


def test_array_functions_give_feldera_s_values_and_follow_their_rows(spark: SparkSession) -> None:
    calls = ", ".join(f"{call} AS c{i}" for i, call in enumerate(FUNCTION_CALLS))
    rows = [
        {"id": 0, "a": None, "x": None},
        {"id": 1, "a": [2, 2, None], "x": 2},
        {"id": 2, "a": [5, 5], "x": None},
        {"id": 3, "a": None, "x": 1},
    ]
    first, second = contents_after_steps(
        spark,
        ROWS_PROGRAM.format(calls=calls),
        [{"t": [{"insert": row} for row in rows]}, {"t": [{"delete": rows[1]}]}],
        order=lambda row: (row.get("id", 0), row.get("i", 0)),
    )
    [values] = first["calls"]
    assert {call: values[f"c{i}"] for i, call in enumerate(FUNCTION_CALLS)} == FUNCTION_CALLS
    assert first["by_row"] == [
        {"id": 1, "appended": [2, 2, None, 2], "removed": [None], "pos": 1,
         "sorted": [2, 2, None], "one": 2, "tens": [20, 20, None]},
        {"id": 2, "appended": [5, 5, None], "removed": None, "pos": None, "sorted": [5, 5],
         "one": 5, "tens": [50, 50]},
        {"id": 3, "appended": None, "removed": None, "pos": None, "sorted": None, "one": None,
         "tens": None},
    ]  # fmt: skip
    assert second["by_row"] == first["by_row"][1:]
    # Feldera's issue4799: UNNEST of a SPLIT, the empty parts left out
    assert first["parts"] == [
        {"id": 1, "part": "2", "i": 1},
        {"id": 1, "part": "1", "i": 3},
        {"id": 3, "part": "1", "i": 1},
        {"id": 3, "part": "3", "i": 3},
    ]
    assert second["parts"] == first["parts"][2:]


def test_element_of_an_array_of_two_fails_the_step(spark: SparkSession) -> None:
    program = "CREATE TABLE t (a INT ARRAY);\nCREATE VIEW v AS SELECT ELEMENT(a) AS e FROM t;"
    with pytest.raises(ReplayStepError, match=r"ELEMENT\(\) of an array of more than one"):
        contents_after_steps(spark, program, [{"t": [{"insert": {"a": [1, 2]}}]}])


def test_left_join_unnest_and_unnest_of_several_arrays(spark: SparkSession) -> None:
    """LEFT JOIN UNNEST(...) ON TRUE keeps a row with a NULL or empty array once, its
    element and place NULL (a map's key and value too); UNNEST(a, b) pairs the arrays'
    elements, the shorter padded with NULLs, a NULL array as an empty one."""
    program = """
    CREATE TABLE t (id INT, a INT ARRAY, b VARCHAR ARRAY, m MAP<VARCHAR, INT>);
    CREATE VIEW zipped AS SELECT id, x, y, i FROM t, UNNEST(t.a, t.b) WITH ORDINALITY AS u(x, y, i);
    CREATE VIEW kept AS SELECT id, e, i FROM t LEFT JOIN UNNEST(t.a) WITH ORDINALITY AS u(e, i)
      ON TRUE;
    CREATE VIEW kept_map AS SELECT id, k, v FROM t LEFT JOIN UNNEST(t.m) AS u(k, v) ON TRUE;
    """
    rows = [
        {"id": 1, "a": [1, 2, 3], "b": ["x"], "m": {"p": 1}},
        {"id": 2, "a": None, "b": ["y", "z"], "m": None},
        {"id": 3, "a": [], "b": None, "m": {}},
    ]
    first, second = contents_after_steps(
        spark,
        program,
        [{"t": [{"insert": row} for row in rows]}, {"t": [{"delete": rows[2]}]}],
        order=lambda row: (row["id"], row.get("i") or 0),
    )
    assert first["zipped"] == [
        {"id": 1, "x": 1, "y": "x", "i": 1},
        {"id": 1, "x": 2, "y": None, "i": 2},
        {"id": 1, "x": 3, "y": None, "i": 3},
        {"id": 2, "x": None, "y": "y", "i": 1},
        {"id": 2, "x": None, "y": "z", "i": 2},
    ]
    assert first["kept"] == [
        {"id": 1, "e": 1, "i": 1},
        {"id": 1, "e": 2, "i": 2},
        {"id": 1, "e": 3, "i": 3},
        {"id": 2, "e": None, "i": None},
        {"id": 3, "e": None, "i": None},
    ]
    assert first["kept_map"] == [
        {"id": 1, "k": "p", "v": 1},
        {"id": 2, "k": None, "v": None},
        {"id": 3, "k": None, "v": None},
    ]
    assert second["kept"] == first["kept"][:4]
    assert second["kept_map"] == first["kept_map"][:2]
    assert second["zipped"] == first["zipped"]
