"""ROW columns and values (Feldera's): a table column `ROW(i1 INT, v1 VARCHAR NULL)` read
from JSON objects, its fields by `t.col.field`, rows compared, grouped and made
(`ROW(a, b)`, `(a, b)`); a view publishes a ROW as an object by field names. Feldera's
issue4880 (`roww <=> NULL`); a delete takes a row's values away."""

from pyspark.sql import SparkSession

from tests.integration.runtime.replays import contents_after_steps

PROGRAM = """
CREATE TABLE tbl(id INT, roww ROW(i1 INT, v1 VARCHAR NULL));
CREATE VIEW fields AS SELECT id, roww, tbl.roww.i1 AS i1, tbl.roww.v1 AS v1,
  roww <=> NULL AS is_null, ROW(id, tbl.roww.v1) AS made, (id + 1, 'x') AS pair FROM tbl;
CREATE VIEW by_field AS SELECT tbl.roww.i1 AS i1, COUNT(*) AS n FROM tbl GROUP BY tbl.roww.i1;
CREATE VIEW distinct_rows AS SELECT DISTINCT roww FROM tbl WHERE roww IS NOT NULL;
"""
ROWS = [
    {"id": 1, "roww": {"i1": 4, "v1": "cat"}},
    {"id": 2, "roww": {"i1": 4, "v1": None}},
    {"id": 3, "roww": None},
]


def test_row_columns_their_fields_and_row_values(spark: SparkSession) -> None:
    first, second = contents_after_steps(
        spark,
        PROGRAM,
        [{"tbl": [{"insert": row} for row in ROWS]}, {"tbl": [{"delete": ROWS[0]}]}],
        order=lambda row: str(row.get("id", row.get("i1"))) + str(row.get("roww")),
    )
    assert first["fields"] == [
        {"id": 1, "roww": {"i1": 4, "v1": "cat"}, "i1": 4, "v1": "cat", "is_null": False,
         "made": {"EXPR$0": 1, "EXPR$1": "cat"}, "pair": {"EXPR$0": 2, "EXPR$1": "x"}},
        {"id": 2, "roww": {"i1": 4, "v1": None}, "i1": 4, "v1": None, "is_null": False,
         "made": {"EXPR$0": 2, "EXPR$1": None}, "pair": {"EXPR$0": 3, "EXPR$1": "x"}},
        {"id": 3, "roww": None, "i1": None, "v1": None, "is_null": True,
         "made": {"EXPR$0": 3, "EXPR$1": None}, "pair": {"EXPR$0": 4, "EXPR$1": "x"}},
    ]  # fmt: skip
    assert first["by_field"] == [{"i1": 4, "n": 2}, {"i1": None, "n": 1}]
    assert len(first["distinct_rows"]) == 2
    assert second["fields"] == first["fields"][1:]
    assert second["by_field"] == [{"i1": 4, "n": 1}, {"i1": None, "n": 1}]
    assert second["distinct_rows"] == [{"roww": {"i1": 4, "v1": None}}]
