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


STRUCTS = """
CREATE TYPE address_typ AS (
   street VARCHAR(30), city VARCHAR(30), state CHAR(2), postal_code VARCHAR(6));
CREATE TYPE person_typ AS (firstname VARCHAR(30), lastname VARCHAR(30), address ADDRESS_TYP);
CREATE TABLE PERS(p0 PERSON_TYP, p1 PERSON_TYP);
CREATE VIEW V AS SELECT PERS.p0.address FROM PERS WHERE PERS.p0.firstname = 'Mike';
CREATE VIEW V0 AS
SELECT address_typ(PERS.p0.address.street, PERS.p1.address.city, 'CA', '90000') AS a FROM PERS;
CREATE TYPE simple AS (s INT, t BOOLEAN);
CREATE TYPE vec AS (fields SIMPLE ARRAY);
CREATE TABLE T(col vec);
CREATE VIEW V2 AS SELECT A.* FROM (T CROSS JOIN UNNEST(T.col.fields) A);
CREATE VIEW V3 AS SELECT A.s + 1 AS s1 FROM (T CROSS JOIN UNNEST(T.col.fields) WITH ORDINALITY A);
"""


def test_feldera_s_struct_tests_with_create_type(spark: SparkSession) -> None:
    """Feldera's StructTests (nestedStructTest, structConstructorTest,
    unnestStructVecStructTest, selectiveUnnestStructVecStructTestOrdinality)."""
    address = {"street": "Broadway", "city": "New York", "state": "NY", "postal_code": "10000"}
    person = {"firstname": "Mike", "lastname": "John", "address": address}
    fields = [[{"s": s, "t": True} for s in range(start, start + 3)] for start in (0, 3)]
    [after] = contents_after_steps(
        spark,
        STRUCTS,
        [
            {
                "pers": [{"insert": {"p0": person, "p1": person}}],
                "t": [{"insert": {"col": {"fields": f}}} for f in fields],
            }
        ],
        order=lambda row: str(row.get("s", row.get("s1", ""))),
    )
    assert after["v"] == [{"address": address}]
    assert after["v0"] == [{"a": {**address, "state": "CA", "postal_code": "90000"}}]
    assert after["v2"] == [{"s": s, "t": True} for s in range(6)]
    assert after["v3"] == [{"s1": s} for s in range(1, 7)]
