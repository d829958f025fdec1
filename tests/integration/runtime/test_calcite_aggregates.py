"""Aggregates of Calcite's quidem tests (agg.iq, as Feldera's AggTests and AggScottTests
run them) with the rows those tests expect, over Calcite's "post" tables: COUNT(DISTINCT
a, b), GROUP BY (), GROUP_ID() and subqueries in an aggregate's argument (a value of
each row it reads). A first step adds noise rows that a second deletes,
so the answers are also made again from the rows left."""

from typing import Any

from pyspark.sql import SparkSession

from tests.integration.runtime.replays import contents_after_steps

PROGRAM = """
CREATE TABLE emp (ename VARCHAR, deptno INTEGER, gender CHAR(1));
CREATE TABLE emps (empno INTEGER, name VARCHAR, deptno INTEGER, gender CHAR(1), city VARCHAR);
CREATE VIEW composite_count_3 AS SELECT COUNT(DISTINCT city, gender) AS c FROM emps;
CREATE VIEW composite_count_5 AS SELECT COUNT(DISTINCT MOD(deptno, 20), gender) AS c FROM emps;
CREATE VIEW composite_count_6 AS SELECT COUNT(MOD(deptno, 20), gender) AS c FROM emps;
CREATE VIEW corner_cases_1 AS SELECT COUNT(*) AS c FROM emp WHERE deptno = 20 GROUP BY ();
CREATE VIEW corner_cases_2 AS SELECT COUNT(*) AS c FROM emp WHERE deptno = 20 GROUP BY DISTINCT ();
CREATE VIEW empty_grand_total AS SELECT COUNT(*) AS c FROM emp WHERE deptno = 99 GROUP BY ();
CREATE VIEW grouping2_1 AS SELECT deptno, GROUP_ID() AS g, COUNT(*) AS c FROM emp
  GROUP BY GROUPING SETS (deptno, (), ());
CREATE VIEW grouping2_3 AS SELECT GROUP_ID() AS g, SUM(3) AS s3 FROM emp;
CREATE TABLE dept (deptno INTEGER, dname VARCHAR);
CREATE VIEW simple_4 AS SELECT SUM(CASE WHEN deptno IN (SELECT deptno FROM dept) THEN 1
  ELSE 0 END) AS s FROM emp;
CREATE VIEW simple_5 AS SELECT SUM((SELECT MIN(CAST(deptno AS INTEGER)) FROM dept)) AS s FROM emp;
CREATE VIEW scalar_grouped AS SELECT deptno,
  (SELECT COUNT(*) FROM emp WHERE deptno = dept.deptno GROUP BY deptno) AS n FROM dept;
CREATE VIEW scalar_limited AS SELECT deptno,
  (SELECT COUNT(*) FROM emp WHERE deptno = dept.deptno LIMIT 1) AS n FROM dept;
CREATE VIEW distinct_sorted AS SELECT DISTINCT deptno, COUNT(*) AS c FROM emp
  GROUP BY deptno ORDER BY COUNT(*) DESC, deptno LIMIT 1;
CREATE VIEW simple_6 AS SELECT SUM((SELECT MIN(CAST(deptno AS INTEGER)) FROM dept)) AS s, deptno
  FROM emp GROUP BY deptno;
"""
DEPT = [(10, "Sales"), (20, "Marketing"), (30, "Engineering"), (40, "Empty")]
EMP = [("Jane", 10, "F"), ("Bob", 10, "M"), ("Eric", 20, "M"), ("Susan", 30, "F"),
       ("Alice", 30, "F"), ("Adam", 50, "M"), ("Eve", 50, "F"), ("Grace", 60, "F"),
       ("Wilma", None, "F")]  # fmt: skip
EMPS = [(100, "Fred", 10, None, None), (110, "Eric", 20, "M", "San Francisco"),
        (110, "John", 40, "M", "Vancouver"), (120, "Wilma", 20, "F", None),
        (130, "Alice", 40, "F", "Vancouver")]  # fmt: skip
NOISE = {
    "emp": [{"ename": "Zed", "deptno": 20, "gender": "M"}],
    "emps": [{"empno": 999, "name": "Noise", "deptno": 30, "gender": "F", "city": "Paris"}],
}


def _rows(table: str, values: list[tuple[Any, ...]]) -> list[dict[str, Any]]:
    columns = {"emp": ["ename", "deptno", "gender"], "dept": ["deptno", "dname"],
               "emps": ["empno", "name", "deptno", "gender", "city"]}[table]  # fmt: skip
    return [{"insert": dict(zip(columns, row, strict=True))} for row in values]


def test_calcite_s_aggregate_answers_after_noise_comes_and_goes(spark: SparkSession) -> None:
    first = {
        "emp": [*_rows("emp", EMP), {"insert": NOISE["emp"][0]}],
        "emps": [*_rows("emps", EMPS), {"insert": NOISE["emps"][0]}],
        "dept": _rows("dept", DEPT),
    }
    second = {table: [{"delete": row} for row in rows] for table, rows in NOISE.items()}
    with_noise, after = contents_after_steps(
        spark,
        PROGRAM,
        [first, second],
        order=lambda r: (r.get("g", 0), str(r.get("deptno")), r.get("c", 0)),
    )
    assert with_noise["composite_count_3"] == [{"c": 4}]
    assert with_noise["corner_cases_1"] == [{"c": 2}]
    assert after == {
        "composite_count_3": [{"c": 3}],  # (city, gender) with neither NULL
        "composite_count_5": [{"c": 2}],
        "composite_count_6": [{"c": 4}],
        "corner_cases_1": [{"c": 1}],
        "corner_cases_2": [{"c": 1}],
        "empty_grand_total": [{"c": 0}],  # GROUP BY (): a row over no rows
        "grouping2_1": [
            {"deptno": 10, "g": 0, "c": 2},
            {"deptno": 20, "g": 0, "c": 1},
            {"deptno": 30, "g": 0, "c": 2},
            {"deptno": 50, "g": 0, "c": 2},
            {"deptno": 60, "g": 0, "c": 1},
            {"deptno": None, "g": 0, "c": 1},
            {"deptno": None, "g": 0, "c": 9},
            {"deptno": None, "g": 1, "c": 9},
        ],
        "grouping2_3": [{"g": 0, "s3": 27}],
        # Calcite's FoodmartBaseTests.testScalar and limitTests: grouped by its
        # correlated column, no row (NULL) for department 40; a bare COUNT is 0 there.
        "scalar_grouped": [
            {"deptno": 10, "n": 2},
            {"deptno": 20, "n": 1},
            {"deptno": 30, "n": 2},
            {"deptno": 40, "n": None},
        ],
        "scalar_limited": [
            {"deptno": 10, "n": 2},
            {"deptno": 20, "n": 1},
            {"deptno": 30, "n": 2},
            {"deptno": 40, "n": 0},
        ],
        "distinct_sorted": [{"deptno": 10, "c": 2}],  # SortHrTests: ORDER BY COUNT(*)
        "simple_4": [{"s": 5}],  # the rows of departments 10, 20 and 30
        "simple_5": [{"s": 90}],  # 10 for each of the 9 rows
        "simple_6": [
            {"s": 20, "deptno": 10},
            {"s": 10, "deptno": 20},
            {"s": 20, "deptno": 30},
            {"s": 20, "deptno": 50},
            {"s": 10, "deptno": 60},
            {"s": 10, "deptno": None},
        ],
    }
