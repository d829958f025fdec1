"""A query written as a statement of the program is a view named query_1, query_2, ...
in program order: exactly what `CREATE VIEW query_N AS` the same query would be."""

from __future__ import annotations

import pytest

from backend.compiler import compile_program
from backend.compiler.adhoc import compile_with_queries, queries_of, query_diagnostics

from .markers import marked

ORDERS = (
    "CREATE STREAM Orders (productId INTEGER, orderId INTEGER, units INTEGER);\n"
    "CREATE TABLE Products (productId INTEGER, name VARCHAR);\n"
)


def names(text: str) -> list[str]:
    return [relation.name for relation in compile_program(text).catalog.relations]


def test_queries_are_numbered_in_program_order() -> None:
    text = ORDERS + "SELECT STREAM * FROM Orders;\nCREATE VIEW v AS SELECT 1 AS one;\nVALUES (1);\n"
    assert names(text) == ["orders", "products", "query_1", "v", "query_2"]


def test_a_name_the_program_declares_is_skipped_wherever_it_is_declared() -> None:
    text = "SELECT 1 AS a;\nSELECT 2 AS b;\nCREATE TABLE query_1 (x INT);\n"
    assert names(text) == ["query_2", "query_3", "query_1"]
    assert compile_program(text).diagnostics == ()


@pytest.mark.parametrize(
    "query",
    [
        "SELECT STREAM * FROM Orders WHERE units > 3",
        "SELECT STREAM FLOOR(rowtime TO HOUR) AS rowtime, productId, COUNT(*) AS c\n"
        "FROM Orders GROUP BY FLOOR(rowtime TO HOUR), productId",
        "WITH big AS (SELECT * FROM Orders WHERE units > 3) SELECT STREAM * FROM big",
        "SELECT STREAM * FROM Orders WHERE productId = 10\n"
        "UNION ALL SELECT STREAM * FROM Orders WHERE productId = 30",
        "SELECT * FROM Orders",
        "VALUES (1, 'abc'), (2, 'def')",
        "SELECT STREAM * FROM Orders ORDER BY rowtime",
    ],
)
def test_a_query_statement_compiles_as_the_view_of_its_name(query: str) -> None:
    alone = compile_program(f"{ORDERS}{query};").to_json()
    as_view = compile_program(f"{ORDERS}CREATE VIEW query_1 AS {query};").to_json()
    assert alone["diagnostics"] == as_view["diagnostics"] == []
    assert alone["catalog"] == as_view["catalog"]
    assert alone["plan"] == as_view["plan"]


def test_a_streaming_aggregate_query_emits_each_window_once() -> None:
    text = (
        ORDERS + "SELECT STREAM FLOOR(rowtime TO HOUR) AS rowtime, productId, COUNT(*) AS c\n"
        "FROM Orders GROUP BY FLOOR(rowtime TO HOUR), productId;"
    )
    (view,) = compile_program(text).to_json()["plan"]["views"]
    assert (view["name"], view["emit_final"], view["output_mode"]) == ("query_1", 0, "append")


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("SELECT STREAM * FROM «Products»", "SQL303"),
        ("SELECT STREAM * FROM («VALUES (1, 'abc')»)", "SQL305"),
        ("SELECT STREAM productId, COUNT(*) AS c FROM Orders «GROUP BY productId»", "SQL304"),
        ("SELECT STREAM * FROM Orders ORDER BY «units»", "SQL306"),
    ],
)
def test_the_streaming_rules_of_a_view_apply_to_a_query(query: str, code: str) -> None:
    text, (span,) = marked(f"{ORDERS}{query};")
    found = [(d.code.value, d.span) for d in compile_program(text).diagnostics if d.is_error]
    assert found == [(code, span)]


def test_a_later_statement_reads_a_query_by_its_name() -> None:
    text = ORDERS + "SELECT STREAM * FROM Orders WHERE units > 3;\n"
    text += "CREATE VIEW big_units AS SELECT STREAM rowtime, units FROM query_1;"
    assert compile_program(text).diagnostics == ()


def test_an_earlier_statement_reading_a_query_is_pointed_at_it() -> None:
    text, (use, query) = marked("CREATE VIEW w AS SELECT a FROM «query_1»;\n«SELECT 1 AS a»;\n")
    (diagnostic,) = compile_program(text).diagnostics
    assert (diagnostic.code.value, diagnostic.span) == ("SQL201", use)
    assert [note.span for note in diagnostic.notes] == [query]


def test_replay_queries_are_numbered_after_the_programs_own() -> None:
    program = ORDERS + "SELECT STREAM * FROM Orders;\nCREATE TABLE query_2 (x INT);\n"
    queries = queries_of(["SELECT STREAM units FROM Orders", "SELECT name FROM Products"], program)
    assert [q.name for q in queries] == ["query_3", "query_4"]
    result = compile_with_queries(program, queries)
    assert not result.has_errors
    views = [view["name"] for view in result.to_json()["plan"]["views"]]
    assert views == ["query_1", "query_3", "query_4"]


def test_replay_queries_of_a_program_without_queries_are_query_1_and_on() -> None:
    assert [q.name for q in queries_of(["SELECT 1", "SELECT 2"], ORDERS)] == [
        "query_1",
        "query_2",
    ]
    assert [q.name for q in queries_of(["SELECT 1"])] == ["query_1"]


def test_a_replay_querys_diagnostics_are_in_its_own_text_after_program_queries() -> None:
    program = ORDERS + "SELECT STREAM * FROM Orders;"
    (query,) = queries_of(["SELECT nope FROM Products"], program)
    result = compile_with_queries(program, [query])
    (diagnostic,) = query_diagnostics(result, query)
    assert (diagnostic["code"], diagnostic["start_line_number"], diagnostic["start_column"]) == (
        "SQL202",
        1,
        8,
    )
