"""A scalar subquery of a plain value, `(SELECT dname FROM dept WHERE dept.deptno =
emp.deptno)`, correlated or not: the value of its one row, NULL where it has none,
followed as the rows come and go; a second row fails the step, as in SQL (Calcite's
SINGLE_VALUE, PostgreSQL's "more than one row returned by a subquery"). `ARRAY(SELECT
...)`, correlated or not: the values of its rows, in its ORDER BY, empty for none (of
several columns, ROWs named as them)."""

import pytest
from pyspark.sql import SparkSession

from tests.integration.runtime.replays import contents_after_steps
from worker.replay import ReplayStepError

PROGRAM = """
CREATE TABLE emp (empno INT, name VARCHAR, deptno INT);
CREATE TABLE dept (deptno INT, dname VARCHAR);
CREATE VIEW named AS SELECT name,
  (SELECT dname FROM dept WHERE dept.deptno = emp.deptno) AS dname FROM emp;
CREATE VIEW ten AS SELECT name, (SELECT dname FROM dept WHERE deptno = 10) AS ten FROM emp;
CREATE VIEW staff AS SELECT dname,
  ARRAY(SELECT name FROM emp WHERE emp.deptno = dept.deptno ORDER BY name DESC) AS names FROM dept;
CREATE VIEW everyone AS SELECT ARRAY(SELECT name FROM emp ORDER BY name) AS names;
CREATE VIEW members AS SELECT dname,
  ARRAY(SELECT empno, name FROM emp WHERE emp.deptno = dept.deptno) AS members FROM dept;
"""
EMPLOYEES = [
    {"empno": 1, "name": "a", "deptno": 10},
    {"empno": 2, "name": "b", "deptno": 20},
    {"empno": 3, "name": "c", "deptno": None},
]
SALES = {"deptno": 10, "dname": "sales"}


def test_the_value_of_the_one_row_follows_its_rows(spark: SparkSession) -> None:
    steps = [
        {"emp": [{"insert": e} for e in EMPLOYEES], "dept": [{"insert": SALES}]},
        {"dept": [{"insert": {"deptno": 20, "dname": "ops"}}]},
        {"dept": [{"delete": SALES}]},
    ]
    first, second, third = contents_after_steps(
        spark, PROGRAM, steps, order=lambda r: str(r.get("name", r.get("dname")))
    )
    assert first["named"] == [
        {"name": "a", "dname": "sales"},
        {"name": "b", "dname": None},  # no row: NULL
        {"name": "c", "dname": None},
    ]
    assert first["ten"] == [{"name": n, "ten": "sales"} for n in "abc"]
    assert second["named"][1] == {"name": "b", "dname": "ops"}
    assert third["named"] == [
        {"name": "a", "dname": None},
        {"name": "b", "dname": "ops"},
        {"name": "c", "dname": None},
    ]
    assert third["ten"] == [{"name": n, "ten": None} for n in "abc"]
    assert first["staff"] == [{"dname": "sales", "names": ["a"]}]
    assert first["everyone"] == [{"names": ["a", "b", "c"]}]
    assert first["members"] == [{"dname": "sales", "members": [{"empno": 1, "name": "a"}]}]
    assert second["staff"] == [
        {"dname": "ops", "names": ["b"]},
        {"dname": "sales", "names": ["a"]},
    ]
    assert third["staff"] == [{"dname": "ops", "names": ["b"]}]


def test_a_second_row_fails_the_step(spark: SparkSession) -> None:
    steps = [
        {"emp": [{"insert": EMPLOYEES[0]}], "dept": [{"insert": SALES}]},
        {"dept": [{"insert": {"deptno": 10, "dname": "again"}}]},
    ]
    with pytest.raises(ReplayStepError, match=r"a scalar subquery of more than one row"):
        contents_after_steps(spark, PROGRAM, steps)


def test_unique_is_whether_no_two_rows_without_nulls_are_equal(spark: SparkSession) -> None:
    program = """
        CREATE TABLE t (a INT, b VARCHAR);
        CREATE TABLE u (k INT);
        CREATE VIEW v AS SELECT k, UNIQUE (SELECT a, b FROM t) AS pairs,
            UNIQUE (SELECT a FROM t WHERE a > 1) AS none FROM u;
        CREATE VIEW w AS SELECT k FROM u WHERE UNIQUE (SELECT a FROM t);
        CREATE VIEW x AS SELECT k FROM u WHERE NOT UNIQUE (VALUES (1), (1));
    """
    rows = [
        {"a": 1, "b": "x"},
        {"a": 1, "b": "y"},
        {"a": None, "b": "z"},  # equal rows with a NULL are not duplicates
        {"a": None, "b": "z"},
    ]
    first, second, third = contents_after_steps(
        spark,
        program,
        [
            {"u": [{"insert": {"k": 1}}], "t": [{"insert": row} for row in rows]},
            {"t": [{"insert": rows[0]}]},
            {"t": [{"delete": rows[0]}, {"delete": rows[1]}]},
        ],
    )
    assert first["v"] == [{"k": 1, "none": True, "pairs": True}]
    assert first["w"] == []  # a is 1 twice
    assert first["x"] == [{"k": 1}]
    assert second["v"] == [{"k": 1, "none": True, "pairs": False}]
    assert third["v"] == [{"k": 1, "none": True, "pairs": True}]
    assert third["w"] == [{"k": 1}]


def test_other_correlations_aggregate_each_outer_value_s_rows(spark: SparkSession) -> None:
    """`(SELECT COUNT(*) FROM u WHERE u.y < t.x)`: the subquery's rows for each distinct
    outer value, following changes of both sides; NULL outer values match no row."""
    program = """
        CREATE TABLE t (id INT, x INT, g VARCHAR);
        CREATE TABLE u (y INT, g VARCHAR);
        CREATE VIEW below AS SELECT id, (SELECT COUNT(*) FROM u WHERE u.y < t.x) AS n,
            (SELECT MAX(y) FROM u WHERE u.y < t.x AND u.g = t.g) AS top FROM t;
        CREATE VIEW ranked AS SELECT id, (SELECT COUNT(*) FROM t AS o WHERE o.x > t.x) + 1 AS rnk
            FROM t;
        CREATE VIEW just_above AS SELECT id,
            (SELECT y FROM u WHERE u.y > t.x AND u.y < t.x + 2) AS y FROM t;
    """
    ts = [
        {"id": 1, "x": 5, "g": "a"},
        {"id": 2, "x": 10, "g": "b"},
        {"id": 3, "x": None, "g": "a"},
        {"id": 4, "x": 5, "g": "b"},
    ]
    us = [{"y": 3, "g": "a"}, {"y": 6, "g": "b"}, {"y": 11, "g": "a"}]
    first, second = contents_after_steps(
        spark,
        program,
        [
            {"t": [{"insert": row} for row in ts], "u": [{"insert": row} for row in us]},
            {"u": [{"delete": us[1]}, {"insert": {"y": 4, "g": "a"}}]},
        ],
        order=lambda row: row["id"],
    )
    assert first["below"] == [
        {"id": 1, "n": 1, "top": 3},
        {"id": 2, "n": 2, "top": 6},
        {"id": 3, "n": 0, "top": None},  # x is NULL: no row is below it
        {"id": 4, "n": 1, "top": None},
    ]
    assert second["below"] == [
        {"id": 1, "n": 2, "top": 4},
        {"id": 2, "n": 2, "top": None},
        {"id": 3, "n": 0, "top": None},
        {"id": 4, "n": 2, "top": None},
    ]
    assert [r["rnk"] for r in second["ranked"]] == [2, 1, 1, 2]
    assert [r["y"] for r in first["just_above"]] == [6, 11, None, 6]
    assert [r["y"] for r in second["just_above"]] == [None, 11, None, None]


def test_correlated_in_and_all_keep_the_rows_sql_keeps(spark: SparkSession) -> None:
    program = """
        CREATE TABLE t (id INT, g VARCHAR, x INT);
        CREATE TABLE u (g VARCHAR, y INT);
        CREATE VIEW is_in AS SELECT id FROM t WHERE x IN (SELECT y FROM u WHERE u.g = t.g);
        CREATE VIEW not_in AS SELECT id FROM t WHERE x NOT IN (SELECT y FROM u WHERE u.g = t.g);
        CREATE VIEW above_all AS SELECT id FROM t WHERE x > ALL (SELECT y FROM u WHERE u.g = t.g);
        CREATE VIEW as_values AS SELECT id, x IN (SELECT y FROM u WHERE u.g = t.g) AS i,
            x NOT IN (SELECT y FROM u WHERE u.g = t.g) AS n,
            x > ALL (SELECT y FROM u WHERE u.g = t.g) AS a FROM t;
    """
    ts = [
        {"id": 1, "g": "a", "x": 3},
        {"id": 2, "g": "a", "x": 9},
        {"id": 3, "g": "b", "x": 1},  # b's only y is NULL: unknown
        {"id": 4, "g": "c", "x": 1},  # c has no y: NOT IN and ALL hold
        {"id": 5, "g": "a", "x": None},
    ]
    us = [{"g": "a", "y": 3}, {"g": "a", "y": 5}, {"g": "b", "y": None}]
    first, second = contents_after_steps(
        spark,
        program,
        [
            {"t": [{"insert": row} for row in ts], "u": [{"insert": row} for row in us]},
            {"u": [{"delete": us[0]}, {"insert": {"g": "c", "y": 0}}]},
        ],
        order=lambda row: row["id"],
    )
    values = [(row["i"], row["n"], row["a"]) for row in first.pop("as_values")]
    assert values == [  # as values: NULL where a NULL leaves it open
        (True, False, False),
        (False, True, True),
        (None, None, None),
        (False, True, True),
        (None, None, None),
    ]
    second.pop("as_values")
    ids = {view: [row["id"] for row in rows] for view, rows in first.items()}
    assert ids == {"is_in": [1], "not_in": [2, 4], "above_all": [2, 4]}
    ids = {view: [row["id"] for row in rows] for view, rows in second.items()}
    assert ids == {"is_in": [], "not_in": [1, 2, 4], "above_all": [2, 4]}
