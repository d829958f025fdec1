"""Feldera's table and view declarations beyond columns: FOREIGN KEY (checked, not
enforced), DEFAULT values, CREATE INDEX on views, INTERNED, GROUP BY ALL / DISTINCT."""

from __future__ import annotations

from typing import Any

import pytest

from backend.compiler import compile_program
from tests.unit.compiler.compiled import errors_of, plan_nodes

PARENT = "CREATE TABLE parent (id INT NOT NULL PRIMARY KEY, name VARCHAR);\n"


def _columns(text: str, relation: str) -> dict[str, dict[str, Any]]:
    result = compile_program(text)
    assert not result.has_errors, result.diagnostics_json()
    [found] = [r for r in result.to_json()["plan"]["inputs"] if r["name"] == relation]
    return {c["name"]: c for c in found["columns"]}


@pytest.mark.parametrize(
    "child",
    [
        "CREATE TABLE child (p INT FOREIGN KEY REFERENCES parent(id))",
        "CREATE TABLE child (p INT REFERENCES parent(id))",
        "CREATE TABLE child (p INT REFERENCES parent)",  # the PRIMARY KEY
        "CREATE TABLE child (p INT, FOREIGN KEY (p) REFERENCES parent (id))",
        "CREATE TABLE child (p INT, CONSTRAINT fk FOREIGN KEY (p) REFERENCES parent)",
        # A table may refer to itself (a tree).
        "CREATE TABLE child (id INT PRIMARY KEY, up INT REFERENCES child(id))",
    ],
)
def test_a_foreign_key_refers_to_a_primary_key_and_changes_no_row(child: str) -> None:
    assert errors_of(PARENT + child + ";") == []


@pytest.mark.parametrize(
    ("child", "error"),
    [
        (
            "CREATE TABLE child (p INT REFERENCES parent(name))",
            ("SQL211", "A FOREIGN KEY refers to the PRIMARY KEY of 'parent': (id)"),
        ),
        (
            "CREATE TABLE child (p BIGINT REFERENCES parent)",
            (
                "SQL206",
                "FOREIGN KEY column 'p' is BIGINT; the column 'id' of 'parent' it refers to "
                "is INTEGER",
            ),
        ),
        (
            "CREATE TABLE child (p INT, FOREIGN KEY (q) REFERENCES parent)",
            ("SQL202", "Unknown column 'q' in FOREIGN KEY"),
        ),
        (
            "CREATE TABLE child (p INT, q INT, FOREIGN KEY (p, q) REFERENCES parent)",
            ("SQL211", "The FOREIGN KEY has 2 columns, the PRIMARY KEY of 'parent' 1"),
        ),
        (
            "CREATE TABLE child (p INT REFERENCES nobody(id))",
            ("SQL201", "Unknown table or view 'nobody'"),
        ),
        (
            "CREATE TABLE other (x INT); CREATE TABLE child (p INT REFERENCES other(x))",
            (
                "SQL211",
                "A FOREIGN KEY refers to a table's PRIMARY KEY: 'other' is a table without "
                "a PRIMARY KEY",
            ),
        ),
    ],
)
def test_a_foreign_key_that_cannot_refer_is_an_error(child: str, error: tuple[str, str]) -> None:
    assert errors_of(PARENT + child + ";") == [error]


def test_default_values_go_into_the_plan_as_a_change_carries_them() -> None:
    columns = _columns(
        "CREATE TABLE t (a INT DEFAULT 5, b VARCHAR DEFAULT 'x', c DATE DEFAULT DATE "
        "'2020-01-02', d DECIMAL(5,2) DEFAULT -1.5, e DOUBLE DEFAULT -2, f TIMESTAMP "
        "DEFAULT CAST('2020-01-01 10:00:00' AS TIMESTAMP), g BOOLEAN DEFAULT TRUE, "
        "h INT DEFAULT NULL, i INT);",
        "t",
    )
    defaults = {name: column.get("default", "absent") for name, column in columns.items()}
    assert defaults == {
        "a": 5, "b": "x", "c": "2020-01-02", "d": "-1.5", "e": -2,
        "f": "2020-01-01 10:00:00", "g": True, "h": None, "i": "absent",
    }  # fmt: skip


@pytest.mark.parametrize(
    ("column", "error"),
    [
        (
            "a INT NOT NULL DEFAULT NULL",
            ("SQL206", "The DEFAULT of NOT NULL column 'a' cannot be NULL"),
        ),
        (
            "a INT DEFAULT 'x'",
            ("SQL206", "A DEFAULT of type VARCHAR cannot go in INTEGER column 'a'"),
        ),
        (
            "a INT, b INT DEFAULT a",
            ("SQL211", "DEFAULT must be a constant expression, but 'a' is a column"),
        ),
        (
            "a INT DEFAULT 1 + 1",
            ("SQL401", "Not supported yet: a DEFAULT that is not a literal value"),
        ),
    ],
)
def test_a_default_is_a_literal_the_column_takes(column: str, error: tuple[str, str]) -> None:
    assert errors_of(f"CREATE TABLE t ({column});") == [error]


def test_an_index_names_columns_of_an_output_view() -> None:
    program = (
        "CREATE TABLE t (a INT, b INT);\n"
        "CREATE VIEW v AS SELECT a, b FROM t;\n"
        "CREATE LOCAL VIEW l AS SELECT a FROM t;\n"
        "CREATE INDEX v_a ON v(a, b);\n"
    )
    assert errors_of(program) == []
    wrong = [
        "CREATE INDEX i ON t(a);",
        "CREATE INDEX i ON v(c);",
        "CREATE INDEX i ON v(a, a);",
        "CREATE INDEX i ON nothing(a);",
    ]
    assert [errors_of(program + index) for index in wrong] == [
        [("SQL211", "CREATE INDEX names a view: 't' is a table")],
        [("SQL202", "Unknown column 'c' in the index of 'v'")],
        [("SQL211", "Column 'a' appears twice in the index")],
        [("SQL201", "Unknown table or view 'nothing'")],
    ]
    local = compile_program(program + "CREATE INDEX i ON l(a);")
    assert [d.message for d in local.diagnostics] == [
        "An index of the LOCAL view 'l' has no effect: a LOCAL view is not an output"
    ]


def test_interned_is_a_hint_with_no_effect() -> None:
    columns = _columns("CREATE TABLE t (s VARCHAR INTERNED NOT NULL, n INT);", "t")
    assert (columns["s"]["type"], columns["s"]["nullable"]) == ("VARCHAR", False)


@pytest.mark.parametrize(
    ("group_by", "sets"),
    [
        ("GROUPING SETS ((a), (a, b), (a))", [1, 2, 1]),
        ("ALL GROUPING SETS ((a), (a, b), (a))", [1, 2, 1]),
        ("DISTINCT GROUPING SETS ((a), (a, b), (a))", [1, 2]),
        ("DISTINCT GROUPING SETS ((a, b), (b, a))", [2]),
        ("DISTINCT ROLLUP(a, b), ROLLUP(a)", [2, 1, 0]),
    ],
)
def test_group_by_distinct_groups_by_each_set_once(group_by: str, sets: list[int]) -> None:
    result = compile_program(
        "CREATE TABLE t (a INT, b INT);\n"
        f"CREATE VIEW v AS SELECT a, b, COUNT(*) AS c FROM t GROUP BY {group_by};"
    )
    assert not result.has_errors, result.diagnostics_json()
    [view] = result.to_json()["plan"]["views"]
    assert [len(node["keys"]) for node in plan_nodes(view["query"], "aggregate")] == sets
