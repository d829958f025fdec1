"""MAP columns and values (Feldera's map.md): a table column `MAP<VARCHAR, INT>` read from
JSON objects, MAP[...] values, m[k], CARDINALITY, MAP_CONCAT, MAP_CONTAINS_KEY,
MAP_KEYS, MAP_VALUES and UNNEST of a map, with the rows of Feldera's examples; maps
compare (by their sorted keys, then values), group and are DISTINCT; a delete takes a
map's row away. Also an ARRAY of ROWs (which a MAP is kept as), and its UNNEST."""

from pyspark.sql import SparkSession

from tests.integration.runtime.replays import contents_after_steps

PROGRAM = """
CREATE TABLE data (zipcodes MAP<VARCHAR, INT>, country VARCHAR);
CREATE VIEW functions AS SELECT country, zipcodes['x'] AS x, CARDINALITY(zipcodes) AS n,
  MAP_KEYS(zipcodes) AS ks, MAP_VALUES(zipcodes) AS vs, MAP_CONTAINS_KEY(zipcodes, 'y') AS y,
  MAP_CONCAT(zipcodes, MAP['z', 26]) AS more FROM data;
CREATE VIEW pairs AS SELECT data.country, city, zip
  FROM data CROSS JOIN UNNEST(data.zipcodes) AS zips(city, zip);
CREATE VIEW by_map AS SELECT zipcodes, COUNT(*) AS c FROM data GROUP BY zipcodes;
CREATE VIEW smaller AS SELECT country FROM data WHERE zipcodes < MAP['v', 22];
"""
A = {"zipcodes": {"x": 4, "y": 3}, "country": "a"}
B = {"zipcodes": {"v": 11, "q": 66}, "country": "b"}
C = {"zipcodes": None, "country": "c"}
D = {"zipcodes": {"y": 3, "x": 4}, "country": "d"}  # A's map, written in another order
E = {"zipcodes": {"z": None, "f": 1}, "country": "e"}


def test_map_columns_functions_grouping_and_unnest(spark: SparkSession) -> None:
    first, second = contents_after_steps(
        spark,
        PROGRAM,
        [
            {"data": [{"insert": row} for row in (A, B, C, D)]},
            {"data": [{"delete": A}, {"insert": E}]},
        ],
        order=lambda row: str(row.get("country")) + str(row.get("city")) + str(row.get("c")),
    )
    assert first["functions"] == [
        {"country": "a", "x": 4, "n": 2, "ks": ["x", "y"], "vs": [4, 3], "y": True,
         "more": {"x": 4, "y": 3, "z": 26}},
        {"country": "b", "x": None, "n": 2, "ks": ["q", "v"], "vs": [66, 11], "y": False,
         "more": {"q": 66, "v": 11, "z": 26}},
        {"country": "c", "x": None, "n": None, "ks": None, "vs": None, "y": None, "more": None},
        {"country": "d", "x": 4, "n": 2, "ks": ["x", "y"], "vs": [4, 3], "y": True,
         "more": {"x": 4, "y": 3, "z": 26}},
    ]  # fmt: skip
    assert first["pairs"] == [
        {"country": "a", "city": "x", "zip": 4},
        {"country": "a", "city": "y", "zip": 3},
        {"country": "b", "city": "q", "zip": 66},
        {"country": "b", "city": "v", "zip": 11},
        {"country": "d", "city": "x", "zip": 4},
        {"country": "d", "city": "y", "zip": 3},
    ]
    # A and D hold one map: one group of 2. B's map is less than MAP['v', 22] by its first
    # key ('q' < 'v'), as map.md's example; A's is not ('x' > 'v').
    assert sorted(first["by_map"], key=lambda row: (row["c"], str(row["zipcodes"]))) == [
        {"zipcodes": None, "c": 1},
        {"zipcodes": {"q": 66, "v": 11}, "c": 1},
        {"zipcodes": {"x": 4, "y": 3}, "c": 2},
    ]
    assert first["smaller"] == [{"country": "b"}]
    # Step 2: A deleted (its group down to 1), E in: MAP_CONCAT's second map wins for 'z'.
    assert {"zipcodes": {"x": 4, "y": 3}, "c": 1} in second["by_map"]
    assert [row for row in second["functions"] if row["country"] == "e"] == [
        {"country": "e", "x": None, "n": 2, "ks": ["f", "z"], "vs": [1, None], "y": False,
         "more": {"f": 1, "z": 26}}
    ]  # fmt: skip
    assert [row["country"] for row in second["smaller"]] == ["b", "e"]  # 'f' < 'v'
    assert [row for row in second["pairs"] if row["country"] in ("a", "e")] == [
        {"country": "e", "city": "f", "zip": 1},
        {"country": "e", "city": "z", "zip": None},
    ]


def test_map_values_as_map_md_gives_them(spark: SparkSession) -> None:
    program = """
    CREATE TABLE t (id INT);
    CREATE VIEW v AS SELECT MAP['x', 4, 'y', 3]['x'] AS item, CARDINALITY(MAP['x', 4]) AS n,
      MAP_CONCAT(MAP['x', 4], MAP['y', 2]) AS cat, MAP_CONTAINS_KEY(MAP['x', 4], 'x') AS has,
      MAP_KEYS(MAP['x', 4, 'y', 5]) AS ks, MAP_VALUES(MAP['x', 4, 'y', 5]) AS vs,
      MAP['v', 11, 'q', 66] < MAP['v', 22] AS less, MAP['f', 1, 'v', 0] > MAP['f', 1] AS longer,
      MAP['a', 1, 'a', 2] AS last_wins, MAP[2, 'b', 1, 'a'] = MAP[1, 'a', 2, 'b'] AS same
    FROM t;
    """
    [after] = contents_after_steps(spark, program, [{"t": [{"insert": {"id": 1}}]}])
    assert after["v"] == [
        {"item": 4, "n": 1, "cat": {"x": 4, "y": 2}, "has": True, "ks": ["x", "y"],
         "vs": [4, 5], "less": True, "longer": True, "last_wins": {"a": 2}, "same": True}
    ]  # fmt: skip


def test_an_array_of_rows_column_and_its_unnest_into_fields(spark: SparkSession) -> None:
    """UNNEST of an array of ROWs makes a column of each field, as Feldera's array.md
    says (a NULL element: NULL fields)."""
    program = """
    CREATE TABLE t (id INT, pts ROW(x INT, y INT NULL) ARRAY);
    CREATE VIEW v AS SELECT id, pts[2] AS second, CARDINALITY(pts) AS n FROM t;
    CREATE VIEW fields AS SELECT id, x, y FROM t, UNNEST(t.pts) AS u;
    """
    row = {"id": 1, "pts": [{"x": 1, "y": None}, {"x": 2, "y": 3}, None]}
    first, second = contents_after_steps(
        spark, program, [{"t": [{"insert": row}]}, {"t": [{"delete": row}]}]
    )
    assert first["v"] == [{"id": 1, "second": {"x": 2, "y": 3}, "n": 3}]
    assert first["fields"] == [
        {"id": 1, "x": 1, "y": None},
        {"id": 1, "x": 2, "y": 3},
        {"id": 1, "x": None, "y": None},
    ]
    assert second == {"v": [], "fields": []}
