"""PIVOT in FROM (semantic/pivots.py): its columns, their names and types, as Calcite's
validator tests give them (Weir's names are lower case, as its unquoted identifiers)."""

from __future__ import annotations

import pytest

from backend.compiler import compile_program
from tests.unit.compiler.compiled import plan_nodes, the_error

EMP = (
    "CREATE TABLE emp (empno INT NOT NULL, ename VARCHAR NOT NULL, job VARCHAR NOT NULL, "
    "mgr INT, hiredate TIMESTAMP NOT NULL, sal INT NOT NULL, comm INT NOT NULL, "
    "deptno INT NOT NULL, slacker BOOLEAN NOT NULL);\n"
)


def columns_of(query: str) -> list[tuple[str, str, bool]]:
    result = compile_program(EMP + f"CREATE VIEW v AS {query};")
    assert not result.has_errors, result.diagnostics_json()
    [view] = [r for r in result.to_json()["catalog"]["relations"] if r["name"] == "v"]
    return [(c["name"], c["type"], c["nullable"]) for c in view["columns"]]


def test_the_other_columns_group_and_each_value_and_measure_is_a_column() -> None:
    columns = columns_of(
        "SELECT * FROM emp PIVOT (SUM(sal) AS ss FOR job IN ('CLERK' AS c, 'MANAGER' AS m))"
    )
    assert columns == [
        ("empno", "INTEGER", False),
        ("ename", "VARCHAR", False),
        ("mgr", "INTEGER", True),
        ("hiredate", "TIMESTAMP", False),
        ("comm", "INTEGER", False),
        ("deptno", "INTEGER", False),
        ("slacker", "BOOLEAN", False),
        ("c_ss", "BIGINT", True),  # no row of the group may be a CLERK
        ("m_ss", "BIGINT", True),
    ]


def test_values_without_names_are_named_by_their_text() -> None:
    columns = columns_of(
        "SELECT * FROM (SELECT deptno, job, sal FROM emp) "
        'PIVOT (SUM(sal) AS sum_sal, COUNT(*) AS "COUNT" '
        "FOR (job) IN ('CLERK', 'MANAGER' mgr, 'ANALYST' AS \"a\"))"
    )
    assert columns == [
        ("deptno", "INTEGER", False),
        ("'CLERK'_sum_sal", "BIGINT", True),
        ("'CLERK'_COUNT", "BIGINT", False),  # COUNT of no row is 0
        ("mgr_sum_sal", "BIGINT", True),
        ("mgr_COUNT", "BIGINT", False),
        ("a_sum_sal", "BIGINT", True),
        ("a_COUNT", "BIGINT", False),
    ]


def test_several_for_columns_take_tuples_of_values() -> None:
    columns = columns_of(
        "SELECT * FROM (SELECT deptno, job, sal FROM emp) "
        "PIVOT (SUM(sal) AS ss FOR (job, deptno) "
        "IN (('A B'/*C*/||' D', 10), ('MANAGER', null) mgr, ('ANALYST', 30) AS \"a\"))"
    )
    assert [name for name, _, _ in columns] == ["'A B' ||' D'_10_ss", "mgr_ss", "a_ss"]


def test_a_measure_without_a_name_is_named_by_its_value_alone() -> None:
    columns = columns_of(
        "SELECT * FROM (SELECT deptno, job, sal FROM emp) "
        "PIVOT (SUM(sal) AS ss, MIN(job) FOR deptno IN (10 AS ten, 20))"
    )
    assert columns == [
        ("ten_ss", "BIGINT", True),
        ("ten", "VARCHAR", True),
        ("20_ss", "BIGINT", True),
        ("20", "VARCHAR", True),
    ]


def test_columns_a_measure_or_the_for_list_reads_are_not_grouped() -> None:
    columns = columns_of(
        "SELECT * FROM emp PIVOT (SUM(sal) AS sum_sal, COUNT(comm) AS count_comm, "
        "MIN(hiredate) AS min_hiredate, MAX(hiredate) AS max_hiredate "
        "FOR (job, deptno, slacker, mgr, ename) IN (('CLERK', 10, false, null, ename) AS c10))"
    )
    assert [name for name, _, _ in columns] == [
        "empno",
        "c10_sum_sal",
        "c10_count_comm",
        "c10_min_hiredate",
        "c10_max_hiredate",
    ]
    expression = columns_of(
        "SELECT * FROM (SELECT sal, deptno, job, mgr FROM emp) "
        "PIVOT (SUM(sal + deptno + 1) FOR job IN ('CLERK' AS c, 'ANALYST' AS a))"
    )
    assert [name for name, _, _ in expression] == ["mgr", "c", "a"]


def test_no_values_leave_the_groups() -> None:
    columns = columns_of(
        "SELECT * FROM (SELECT deptno, sal, job FROM emp) PIVOT (SUM(sal) AS s FOR job IN ())"
    )
    assert columns == [("deptno", "INTEGER", False)]


def test_the_pivot_is_a_filtered_aggregate_read_by_its_alias() -> None:
    result = compile_program(
        EMP + "CREATE VIEW v AS SELECT p.c_n AS clerks FROM emp "
        "PIVOT (COUNT(*) AS n FOR job IN ('CLERK' AS c)) AS p WHERE p.empno > 1;"
    )
    assert not result.has_errors, result.diagnostics_json()
    query = result.to_json()["plan"]["views"][0]["query"]
    [aggregate] = plan_nodes(query, "aggregate")
    [call] = aggregate["aggregates"]
    [counted] = call["args"]  # COUNT(*) FILTER (WHERE job = 'CLERK'): COUNT(CASE ...)
    assert (call["function"], counted["kind"]) == ("count", "case")
    assert counted["whens"][0][0]["function"] == "eq"
    renamed = columns_of(
        "SELECT d, clerks FROM (SELECT deptno, job FROM emp) "
        "PIVOT (COUNT(*) AS n FOR job IN ('CLERK' AS c)) AS p (d, clerks)"
    )
    assert renamed == [("d", "INTEGER", False), ("clerks", "BIGINT", False)]


@pytest.mark.parametrize(
    ("pivot", "code", "message"),
    [
        ("PIVOT (SUM(nosuch) FOR job IN ('CLERK'))", "SQL202", "Unknown column 'nosuch'"),
        ("PIVOT (SUM(sal) FOR (job, nosuch) IN (('CLERK', 1)))", "SQL202", "'nosuch'"),
        ("PIVOT (LOG10(sal) FOR job IN ('CLERK'))", "SQL213", "must be an aggregate call"),
        (
            "PIVOT (SUM(sal) FOR job IN (('A', 'B') AS x, 'C'))",
            "SQL210",
            "PIVOT's value ('A', 'B') has 2 parts, but FOR names 1 column",
        ),
        (
            "PIVOT (SUM(sal) FOR (job, deptno) IN ('CLERK'))",
            "SQL210",
            "PIVOT's value 'CLERK' has 1 part, but FOR names 2 columns",
        ),
    ],
)
def test_wrong_pivots_are_errors(pivot: str, code: str, message: str) -> None:
    found = the_error(EMP + f"CREATE VIEW v AS SELECT * FROM emp {pivot};")
    assert found[0] == code and message in found[1], found


def test_pivot_is_still_a_name() -> None:
    columns = columns_of("SELECT pivot.empno FROM emp pivot")
    assert columns == [("empno", "INTEGER", False)]


def test_unpivot_turns_columns_into_rows_of_a_label_and_a_value() -> None:
    columns = columns_of(
        "SELECT * FROM emp UNPIVOT (remuneration FOR remuneration_type "
        "IN (comm AS 'commission', sal AS 'salary'))"
    )
    assert [name for name, _, _ in columns] == [
        "empno",
        "ename",
        "job",
        "mgr",
        "hiredate",
        "deptno",
        "slacker",
        "remuneration_type",
        "remuneration",
    ]
    assert columns[-2:] == [
        ("remuneration_type", "VARCHAR", False),
        ("remuneration", "INTEGER", False),
    ]
    several = columns_of(
        "SELECT * FROM (SELECT empno, sal, comm, mgr FROM emp) UNPIVOT INCLUDE NULLS "
        "((m0, m1) FOR (a0, a1) IN ((sal, comm) AS ('x', 1), (comm, mgr) AS ('y', 2))) AS u"
    )
    assert several == [
        ("empno", "INTEGER", False),
        ("a0", "VARCHAR", False),
        ("a1", "INTEGER", False),
        ("m0", "INTEGER", False),  # sal and comm are NOT NULL
        ("m1", "INTEGER", True),  # mgr is not
    ]


@pytest.mark.parametrize(
    ("unpivot", "code", "message"),
    [
        (
            "UNPIVOT (r FOR r IN (comm AS 'c', sal AS 's'))",
            "SQL205",
            "Duplicate column name 'r' in UNPIVOT",
        ),
        (
            "UNPIVOT (r FOR t IN (comm AS 'c', ename AS 's'))",
            "SQL206",
            "UNPIVOT's measure 'r' has columns of types INTEGER and VARCHAR",
        ),
        (
            "UNPIVOT (r FOR t IN (comm AS ('c', 1), sal))",
            "SQL210",
            "UNPIVOT's item has 2 labels, but FOR names 1 column",
        ),
        (
            "UNPIVOT ((r, s) FOR t IN (comm AS 'c'))",
            "SQL210",
            "UNPIVOT's item has 1 column, but it names 2 measures",
        ),
        ("UNPIVOT (r FOR t IN (nosuch AS 'c'))", "SQL202", "Unknown column 'nosuch'"),
    ],
)
def test_wrong_unpivots_are_errors(unpivot: str, code: str, message: str) -> None:
    found = the_error(EMP + f"CREATE VIEW v AS SELECT * FROM emp {unpivot};")
    assert found[0] == code and message in found[1], found
