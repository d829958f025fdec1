"""PIVOT through steps: each value's measures follow inserts and deletes, a group
whose rows hold none of the values still has its row (COUNT 0, SUM NULL), and a NULL
value matches no row; over a stream, each hour's row comes once the hour is over.
UNPIVOT: each row once per column, NULLs left out unless INCLUDE NULLS."""

from pyspark.sql import SparkSession

from tests.integration.runtime.replays import contents_after_steps

PROGRAM = """
CREATE TABLE emp (ename VARCHAR, deptno INT, job VARCHAR, sal INT);
CREATE VIEW by_job AS SELECT * FROM (SELECT deptno, job, sal FROM emp)
  PIVOT (SUM(sal) AS s, COUNT(*) AS n FOR job IN ('CLERK' AS clerk, 'MANAGER'));
CREATE VIEW by_pair AS SELECT * FROM (SELECT deptno, job, sal FROM emp)
  PIVOT (MAX(sal) FOR (job, deptno) IN (('CLERK', 10) AS c10, ('MANAGER', 20), ('X', NULL) AS x));
CREATE VIEW pay AS SELECT * FROM (SELECT ename, sal, deptno FROM emp)
  UNPIVOT (amount FOR kind IN (sal AS 'salary', deptno AS 'dept'));
CREATE VIEW pay_nulls AS SELECT * FROM (SELECT ename, deptno FROM emp)
  UNPIVOT INCLUDE NULLS (amount FOR kind IN (deptno));
CREATE STREAM trades (sym VARCHAR, px INT);
CREATE VIEW hourly AS SELECT STREAM * FROM
  (SELECT STREAM FLOOR(rowtime TO HOUR) AS h, sym, px FROM trades)
  PIVOT (SUM(px) FOR sym IN ('A' AS a, 'B' AS b));
"""
TRADES = [
    {"rowtime": "2020-01-01 10:00:00", "sym": "A", "px": 1},
    {"rowtime": "2020-01-01 10:30:00", "sym": "B", "px": 2},
    {"rowtime": "2020-01-01 10:40:00", "sym": "A", "px": 3},
]

ROWS = [
    {"ename": "a", "deptno": 10, "job": "CLERK", "sal": 100},
    {"ename": "b", "deptno": 10, "job": "CLERK", "sal": 120},
    {"ename": "c", "deptno": 10, "job": "MANAGER", "sal": 300},
    {"ename": "d", "deptno": 20, "job": "MANAGER", "sal": 250},
    {"ename": "e", "deptno": 30, "job": "ANALYST", "sal": 500},
    {"ename": "f", "deptno": None, "job": "X", "sal": 1},
]


def test_each_value_is_a_filtered_aggregate_of_the_group(spark: SparkSession) -> None:
    after_insert, after_delete = contents_after_steps(
        spark,
        PROGRAM,
        [
            {"emp": [{"insert": row} for row in ROWS], "trades": [{"insert": t} for t in TRADES]},
            {
                "emp": [{"delete": ROWS[1]}],
                "trades": [{"insert": {"rowtime": "2020-01-01 11:05:00", "sym": "A", "px": 5}}],
            },
        ],
        order=lambda row: str(row.get("deptno")),
    )
    manager_s, manager_n = "'MANAGER'_s", "'MANAGER'_n"
    assert after_insert["by_job"] == [
        {"deptno": 10, "clerk_s": 220, "clerk_n": 2, manager_s: 300, manager_n: 1},
        {"deptno": 20, "clerk_s": None, "clerk_n": 0, manager_s: 250, manager_n: 1},
        {"deptno": 30, "clerk_s": None, "clerk_n": 0, manager_s: None, manager_n: 0},
        {"deptno": None, "clerk_s": None, "clerk_n": 0, manager_s: None, manager_n: 0},
    ]
    assert after_delete["by_job"][0] == {
        "deptno": 10,
        "clerk_s": 100,
        "clerk_n": 1,
        manager_s: 300,
        manager_n: 1,
    }
    # Every column is read: one group of all rows; ('X', NULL) matches no row.
    assert after_insert["by_pair"] == [{"c10": 120, "'MANAGER'_20": 250, "x": None}]
    assert after_delete["by_pair"] == [{"c10": 100, "'MANAGER'_20": 250, "x": None}]
    # UNPIVOT: a row per column, without the NULLs (f's deptno) unless INCLUDE NULLS
    pay = sorted(after_delete["pay"], key=lambda r: (r["ename"], r["kind"]))
    assert [r for r in pay if r["ename"] in ("a", "f")] == [
        {"ename": "a", "kind": "dept", "amount": 10},
        {"ename": "a", "kind": "salary", "amount": 100},
        {"ename": "f", "kind": "salary", "amount": 1},
    ]
    assert len(after_insert["pay"]) == 11 and len(after_delete["pay"]) == 9  # b deleted
    assert {"ename": "f", "kind": "deptno", "amount": None} in after_delete["pay_nulls"]
    assert after_insert["hourly"] == []  # the hour is not over
    assert after_delete["hourly"] == [{"h": "2020-01-01 10:00:00", "a": 4, "b": 2}]
