"""LATERAL subqueries, CROSS APPLY and OUTER APPLY through steps: each left row with the
subquery's rows for it (related by equalities, and by other conditions; its first rows
with ORDER BY and LIMIT; its select list naming the left row's columns), following
inserts and deletes on both sides; an aggregate has a
row for a left row that no row matches (COUNT 0, SUM NULL). DuckDB checks the same
views on random changes in the oracle corpus (corpus/50_lateral_and_pivot.sql)."""

from pyspark.sql import SparkSession

from tests.integration.runtime.replays import contents_after_steps

PROGRAM = """
CREATE TABLE emp (name VARCHAR, deptno INT, sal INT);
CREATE TABLE dept (deptno INT, dname VARCHAR);
CREATE VIEW applied AS SELECT d.dname, e.name FROM dept d
  CROSS APPLY (SELECT name FROM emp WHERE emp.deptno = d.deptno AND sal > 10) e;
CREATE VIEW outer_applied AS SELECT d.dname, e.name FROM dept d
  OUTER APPLY (SELECT name FROM emp WHERE emp.deptno = d.deptno) e;
CREATE VIEW totals AS SELECT d.dname, s.n, s.total FROM dept d,
  LATERAL (SELECT COUNT(*) AS n, SUM(sal) AS total FROM emp WHERE emp.deptno = d.deptno) s;
CREATE VIEW by_sal AS SELECT d.dname, s.sal, s.c FROM dept d CROSS JOIN LATERAL
  (SELECT sal, COUNT(*) AS c FROM emp WHERE emp.deptno = d.deptno GROUP BY sal) AS s;
CREATE VIEW not_bob AS SELECT d.dname, x.y FROM dept d
  LEFT JOIN LATERAL (SELECT name AS y FROM emp WHERE d.deptno = emp.deptno) AS x ON x.y <> 'bob';
CREATE VIEW top_two AS SELECT d.dname, e.name, e.sal FROM dept d
  CROSS APPLY (SELECT name, sal FROM emp WHERE emp.deptno = d.deptno ORDER BY sal DESC LIMIT 2) e;
CREATE VIEW second AS SELECT d.dname, e.sal FROM dept d LEFT JOIN LATERAL
  (SELECT sal FROM emp WHERE emp.deptno = d.deptno ORDER BY sal DESC LIMIT 1 OFFSET 1) e ON TRUE;
CREATE VIEW labelled AS SELECT e.* FROM dept d
  CROSS APPLY (SELECT d.dname || '/' || name AS who, sal + d.deptno AS s FROM emp
               WHERE emp.deptno = d.deptno) e;
CREATE VIEW richer AS SELECT d.dname, s.n FROM dept d
  CROSS APPLY (SELECT COUNT(*) AS n FROM emp WHERE emp.sal > d.deptno * 5) s;
CREATE VIEW above_floor AS SELECT d.dname, e.name FROM dept d
  OUTER APPLY (SELECT name FROM emp WHERE emp.deptno = d.deptno AND emp.sal > d.deptno * 5) e;
"""
DEPTS = [
    {"deptno": 10, "dname": "A"},
    {"deptno": 20, "dname": "B"},
    {"deptno": None, "dname": "N"},
]
EMPS = [
    {"name": "bob", "deptno": 10, "sal": 100},
    {"name": "amy", "deptno": 10, "sal": 5},
    {"name": "cat", "deptno": 20, "sal": 100},
    {"name": "eve", "deptno": None, "sal": 7},
]


def test_each_left_row_with_the_subquerys_rows_for_it(spark: SparkSession) -> None:
    first, second = contents_after_steps(
        spark,
        PROGRAM,
        [
            {
                "dept": [{"insert": d} for d in DEPTS],
                "emp": [{"insert": e} for e in EMPS],
            },
            {
                "emp": [{"delete": EMPS[2]}, {"insert": {"name": "dan", "deptno": 10, "sal": 100}}],
            },
        ],
    )
    assert first["applied"] == [{"dname": "A", "name": "bob"}, {"dname": "B", "name": "cat"}]
    assert second["applied"] == [{"dname": "A", "name": "bob"}, {"dname": "A", "name": "dan"}]
    assert second["outer_applied"] == [
        {"dname": "A", "name": "amy"},
        {"dname": "A", "name": "bob"},
        {"dname": "A", "name": "dan"},
        {"dname": "B", "name": None},  # cat left
        {"dname": "N", "name": None},  # NULL = NULL is not true
    ]
    assert first["totals"] == [
        {"dname": "A", "n": 2, "total": 105},
        {"dname": "B", "n": 1, "total": 100},
        {"dname": "N", "n": 0, "total": None},
    ]
    assert second["totals"][1] == {"dname": "B", "n": 0, "total": None}
    assert second["by_sal"] == [
        {"dname": "A", "sal": 5, "c": 1},
        {"dname": "A", "sal": 100, "c": 2},
    ]
    assert [r["y"] for r in second["not_bob"]] == ["amy", "dan", None, None]
    assert first["top_two"] == [
        {"dname": "A", "name": "amy", "sal": 5},
        {"dname": "A", "name": "bob", "sal": 100},
        {"dname": "B", "name": "cat", "sal": 100},
    ]
    assert second["top_two"] == [  # dan (100) came, amy (5) is third
        {"dname": "A", "name": "bob", "sal": 100},
        {"dname": "A", "name": "dan", "sal": 100},
    ]
    assert second["second"] == [
        {"dname": "A", "sal": 100},
        {"dname": "B", "sal": None},  # cat left: no second
        {"dname": "N", "sal": None},
    ]
    assert second["labelled"] == [
        {"s": 110, "who": "A/bob"},
        {"s": 110, "who": "A/dan"},
        {"s": 15, "who": "A/amy"},
    ]
    assert second["richer"] == [  # sal > 50, > 100, > NULL
        {"dname": "A", "n": 2},
        {"dname": "B", "n": 0},
        {"dname": "N", "n": 0},
    ]
    assert second["above_floor"] == [  # sal > 50 in A, > 100 in B
        {"dname": "A", "name": "bob"},
        {"dname": "A", "name": "dan"},
        {"dname": "B", "name": None},
        {"dname": "N", "name": None},
    ]
