"""Negative tests: each diagnostic's exact code and span.

The expected spans are marked in the SQL with «»; `codes` lists the expected
diagnostic codes in source order, one per marked span, and nothing else may be
reported.
"""

from __future__ import annotations

import pytest

from backend.compiler import compile_program
from backend.compiler.diagnostics import Severity
from backend.compiler.source import Span

from .markers import marked

T = "CREATE TABLE t (a INT, v VARCHAR, ts TIMESTAMP);\n"

CASES = [
    # SQL1xx: syntax
    ("expected_expression", "SELECT «FROM» t", ["SQL101"]),
    ("end_of_input", "CREATE TABLE t (a INT«»", ["SQL101"]),
    ("missing_paren", T + "CREATE VIEW w AS SELECT (a + 1 «FROM» t", ["SQL101"]),
    ("missing_semicolon", "CREATE TABLE a (x INT) «CREATE» TABLE b (y INT)", ["SQL101"]),
    ("unterminated_string", T + "CREATE VIEW w AS SELECT «'»abc FROM t", ["SQL102"]),
    ("unterminated_identifier", T + 'CREATE VIEW w AS SELECT «"»abc FROM t', ["SQL102"]),
    ("unterminated_comment", T + "«/*» CREATE VIEW w AS SELECT a FROM t", ["SQL102"]),
    ("invalid_character", "CREATE TABLE t (a INT «#»)", ["SQL103"]),
    ("empty_identifier", T + 'CREATE VIEW w AS SELECT «""» FROM t', ["SQL104"]),
    # SQL2xx: names and types
    ("unknown_relation", "CREATE VIEW w AS SELECT * FROM «nope»", ["SQL201"]),
    ("unknown_qualifier", T + "CREATE VIEW w AS SELECT «x».a FROM t", ["SQL201"]),
    ("unknown_column", T + "CREATE VIEW w AS SELECT «b» FROM t", ["SQL202"]),
    ("unknown_qualified_column", T + "CREATE VIEW w AS SELECT t.«b» FROM t", ["SQL202"]),
    ("unknown_key_column", "CREATE TABLE k (a INT, PRIMARY KEY («b»))", ["SQL202"]),
    (
        "ambiguous_column",
        T + "CREATE VIEW w AS SELECT «a» FROM t x JOIN t y ON x.a = y.a",
        ["SQL203"],
    ),
    ("duplicate_relation", T + "CREATE TABLE «t» (b INT)", ["SQL204"]),
    ("duplicate_view_name", T + "CREATE VIEW «t» AS SELECT a FROM t", ["SQL204"]),
    (
        "duplicate_from_alias",
        T + "CREATE VIEW w AS SELECT 1 FROM t JOIN «t» ON TRUE",
        ["SQL204"],
    ),
    ("duplicate_column", "CREATE TABLE d (a INT, «a» INT)", ["SQL205"]),
    ("duplicate_view_column", T + "CREATE VIEW w AS SELECT a, «v AS a» FROM t", ["SQL205"]),
    ("where_not_boolean", T + "CREATE VIEW w AS SELECT a FROM t WHERE «a»", ["SQL206"]),
    ("compare_varchar_integer", T + "CREATE VIEW w AS SELECT «v = 1» AS x FROM t", ["SQL206"]),
    ("arithmetic_on_varchars", T + "CREATE VIEW w AS SELECT «v * v» AS x FROM t", ["SQL206"]),
    ("not_on_integer", T + "CREATE VIEW w AS SELECT NOT «a» AS x FROM t", ["SQL206"]),
    ("in_list_item", T + "CREATE VIEW w AS SELECT a IN (1, «'x'») AS x FROM t", ["SQL206"]),
    ("bad_cast", T + "CREATE VIEW w AS SELECT «CAST(ts AS BOOLEAN)» AS x FROM t", ["SQL206"]),
    ("unknown_function", T + "CREATE VIEW w AS SELECT «lowr»(v) AS x FROM t", ["SQL207"]),
    ("wrong_arity", T + "CREATE VIEW w AS SELECT «UPPER(v, v)» AS x FROM t", ["SQL207"]),
    ("unknown_type", "CREATE TABLE u (a «VARCHR»)", ["SQL208"]),
    ("bad_type_parameters", "CREATE TABLE u (a «DECIMAL(40, 2)»)", ["SQL208"]),
    ("cast_to_unknown_type", T + "CREATE VIEW w AS SELECT CAST(a AS «INTGER») FROM t", ["SQL208"]),
    (
        "invalid_timestamp",
        T + "CREATE VIEW w AS SELECT «TIMESTAMP '2020-13-01'» AS x FROM t",
        ["SQL209"],
    ),
    ("column_count", T + "CREATE VIEW w «(x, y)» AS SELECT a FROM t", ["SQL210"]),
    ("two_primary_keys", "CREATE TABLE k (a INT PRIMARY KEY, b INT «PRIMARY KEY»)", ["SQL211"]),
    ("lateness_not_constant", "CREATE TABLE k (a INT LATENESS «a»)", ["SQL211"]),
    ("bad_property_value", "CREATE TABLE k (a INT) WITH ('append_only' = «'maybe'»)", ["SQL211"]),
    ("stream_primary_key", "CREATE STREAM s (a INT «PRIMARY KEY»)", ["SQL211"]),
    ("unknown_property", "CREATE TABLE k (a INT) WITH («'colour'» = 'red')", ["SQL212"]),
    ("not_grouped", T + "CREATE VIEW w AS SELECT «v», COUNT(*) AS n FROM t GROUP BY a", ["SQL214"]),
    ("not_in_aggregate", T + "CREATE VIEW w AS SELECT «a», COUNT(*) AS n FROM t", ["SQL214"]),
    ("aggregate_in_where", T + "CREATE VIEW w AS SELECT a FROM t WHERE «SUM(a)» > 1", ["SQL213"]),
    (
        "aggregate_in_on",
        T + "CREATE VIEW w AS SELECT x.a FROM t x JOIN t y ON «MAX(x.a)» = 1",
        ["SQL213"],
    ),
    ("nested_aggregate", T + "CREATE VIEW w AS SELECT SUM(«COUNT(a)») AS n FROM t", ["SQL213"]),
    (
        "aggregate_in_group_by",
        T + "CREATE VIEW w AS SELECT 1 AS o FROM t GROUP BY «COUNT(a)»",
        ["SQL213"],
    ),
    ("sum_of_varchar", T + "CREATE VIEW w AS SELECT «SUM(v)» AS s FROM t", ["SQL206"]),
    (
        "join_not_boolean",
        T + "CREATE VIEW w AS SELECT x.a FROM t x JOIN t y ON «x.a + y.a»",
        ["SQL206"],
    ),
    ("using_unknown", T + "CREATE VIEW w AS SELECT x.a FROM t x JOIN t y USING («b»)", ["SQL202"]),
    (
        "union_count",
        T + "CREATE VIEW w AS SELECT a FROM t «UNION ALL» SELECT a, v FROM t",
        ["SQL215"],
    ),
    (
        "union_type",
        T + "CREATE VIEW w AS SELECT a FROM t UNION SELECT «v» FROM t",
        ["SQL215"],
    ),
    (
        "case_branch_types",
        T + "CREATE VIEW w AS SELECT CASE WHEN a > 1 THEN 1 ELSE «v» END AS c FROM t",
        ["SQL206"],
    ),
    ("floor_not_time", T + "CREATE VIEW w AS SELECT FLOOR(«a» TO HOUR) AS h FROM t", ["SQL206"]),
    # SQL3xx: streaming rules
    (
        "emit_final_without_waterline",
        T + "CREATE VIEW w WITH ('emit_final' = «'a'») AS SELECT a FROM t",
        ["SQL301"],
    ),
    (
        "emit_final_unknown_column",
        T + "CREATE VIEW w WITH ('emit_final' = «'b'») AS SELECT a FROM t",
        ["SQL202"],
    ),
    (
        "emit_final_out_of_range",
        T + "CREATE VIEW w WITH ('emit_final' = «'3'») AS SELECT a FROM t",
        ["SQL202"],
    ),
    ("select_stream_from_table", T + "CREATE VIEW w AS SELECT STREAM * FROM «t»", ["SQL303"]),
    (
        "stream_values",
        "CREATE VIEW w AS SELECT STREAM * FROM («VALUES (1, 'abc')»)",
        ["SQL305"],
    ),
    (
        "non_monotonic_group_by",
        "CREATE STREAM s (p INT);\n"
        "CREATE VIEW w AS SELECT STREAM p, COUNT(*) AS c FROM s «GROUP BY p»",
        ["SQL304"],
    ),
    (
        "unbounded_group_by",
        "CREATE STREAM s (p INT);\nCREATE VIEW w AS SELECT p, COUNT(*) AS c FROM s «GROUP BY p»",
        ["SQL307"],
    ),
    (
        "duplicate_lateness",
        T + "CREATE VIEW w AS SELECT ts FROM t;\nLATENESS w.ts INTERVAL '1' HOUR;\n"
        "LATENESS «w.ts» INTERVAL '2' HOUR",
        ["SQL308"],
    ),
    ("lateness_unknown_view", "LATENESS «nope».ts INTERVAL '1' HOUR", ["SQL201"]),
    (
        "lateness_unknown_column",
        T + "CREATE VIEW w AS SELECT ts FROM t;\nLATENESS w.«tss» INTERVAL '1' HOUR",
        ["SQL202"],
    ),
    (
        "lateness_wrong_type",
        T + "CREATE VIEW w AS SELECT ts FROM t;\nLATENESS w.ts «'x'»",
        ["SQL206"],
    ),
    (
        "two_watermarks",
        "CREATE TABLE k (a TIMESTAMP WATERMARK INTERVAL '1' HOUR, "
        "b TIMESTAMP «WATERMARK INTERVAL '1' HOUR»)",
        ["SQL309"],
    ),
    (
        "pump_cycle",
        "CREATE STREAM a (x INT);\nCREATE VIEW v AS SELECT STREAM * FROM a;\n"
        "«CREATE PUMP p AS INSERT INTO a SELECT STREAM * FROM v»",
        ["SQL330"],
    ),
    (
        "except_shape",
        T + "CREATE VIEW w AS SELECT a FROM t «EXCEPT ALL» SELECT a, a FROM t",
        ["SQL215"],
    ),
    # SQL4xx: not supported yet
    ("limit_not_a_number", T + "CREATE VIEW w AS SELECT a FROM t LIMIT «a»", ["SQL216"]),
    ("order_by_position", T + "CREATE VIEW w AS SELECT a FROM t ORDER BY «2»", ["SQL202"]),
    (
        "window_function_outside_select",
        T + "CREATE VIEW w AS SELECT a FROM t WHERE «SUM(a) OVER (ORDER BY a)» > 1",
        ["SQL213"],
    ),
    ("unknown_window", T + "CREATE VIEW w AS SELECT SUM(a) OVER «w2» FROM t", ["SQL217"]),
    # SQL402: INSERT as a statement; SQL403: a dynamic parameter
    ("insert", T + "«INSERT INTO t VALUES (1, 'a', NULL)»", ["SQL402"]),
    ("insert_expedited", T + "«INSERT EXPEDITED INTO t (a) VALUES (?)»", ["SQL402"]),
    (
        "insert_select",
        T + "«INSERT INTO t SELECT a, v, ts FROM t WHERE a > 1»;\nSELECT 1 AS one",
        ["SQL402"],
    ),
    ("parameter", T + "CREATE VIEW w AS SELECT a FROM t WHERE a > «?»", ["SQL403"]),
    # SQL404: DROP in a program
    ("drop", T + "«DROP FOREIGN STREAM t»;\nSELECT a FROM t", ["SQL404"]),
    ("drop_what", T + "DROP «INDEX» i", ["SQL101"]),
    # The spec's own slips, each one message where it is.
    ("glued_from", T + "SELECT a, v «FROMt»", ["SQL101"]),
    ("renamed_relation", T + "SELECT «t».a FROM t AS x", ["SQL201"]),
]


@pytest.mark.parametrize(("sql", "codes"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_diagnostic_code_and_exact_span(sql: str, codes: list[str]) -> None:
    text, spans = marked(sql)
    assert len(spans) == len(codes), "one «» marker per expected diagnostic"
    result = compile_program(text)
    assert [(d.code.value, d.span) for d in result.diagnostics] == list(
        zip(codes, spans, strict=True)
    )


def test_unknown_column_hint_names_the_closest_column() -> None:
    (diagnostic,) = compile_program(T + "CREATE VIEW w AS SELECT tss FROM t").diagnostics
    assert diagnostic.message == "Unknown column 'tss' in table 't'"
    assert diagnostic.hint == "did you mean 'ts'?"


def test_duplicate_relation_has_a_note_at_the_first_declaration() -> None:
    text, (first, second) = marked("CREATE TABLE «t» (a INT);\nCREATE VIEW «t» AS SELECT a FROM t")
    (diagnostic,) = compile_program(text).diagnostics
    assert diagnostic.span == second
    assert [(note.message, note.span) for note in diagnostic.notes] == [
        ("'t' is first declared here", first)
    ]


def test_a_table_declared_later_is_pointed_at() -> None:
    text, (use, declaration) = marked(
        "CREATE VIEW w AS SELECT * FROM «later»;\nCREATE TABLE «later» (a INT)"
    )
    (diagnostic,) = compile_program(text).diagnostics
    assert diagnostic.span == use
    assert diagnostic.notes[0].span == declaration


def test_unknown_property_is_only_a_warning_and_the_plan_is_still_built() -> None:
    result = compile_program("CREATE TABLE k (a INT) WITH ('colour' = 'red')")
    assert [d.severity for d in result.diagnostics] == [Severity.WARNING]
    assert not result.has_errors
    assert result.to_json()["plan"] is not None


def test_too_deep_expression_is_reported_once() -> None:
    chain = " + ".join(["a"] * 300)
    result = compile_program(T + f"CREATE VIEW w AS SELECT {chain} AS x FROM t")
    assert [d.code.value for d in result.diagnostics] == ["SQL105"]


def test_long_and_or_chains_are_not_too_deep() -> None:
    chain = " OR ".join(f"a = {i}" for i in range(2000))
    result = compile_program(T + f"CREATE VIEW w AS SELECT a FROM t WHERE {chain}")
    assert result.diagnostics == ()


def test_a_pump_without_stream_cannot_read_a_stream() -> None:
    text, (scan,) = marked(
        "CREATE STREAM shipments (o INT);\nCREATE TABLE t (o INT);\n"
        "CREATE PUMP p AS INSERT INTO t SELECT o FROM «shipments»"
    )
    (diagnostic,) = compile_program(text).diagnostics
    assert (diagnostic.code.value, diagnostic.message, diagnostic.span) == (
        "SQL302",
        "Cannot convert stream 'shipments' to a table",
        scan,
    )


def test_duplicate_lateness_has_a_note_at_the_first() -> None:
    text, (first, second) = marked(
        "CREATE TABLE t (ts TIMESTAMP);\nCREATE VIEW w AS SELECT ts FROM t;\n"
        "LATENESS «w.ts» INTERVAL '1' HOUR;\nLATENESS «w.ts» INTERVAL '2' HOUR"
    )
    (diagnostic,) = compile_program(text).diagnostics
    assert diagnostic.span == second
    assert [note.span for note in diagnostic.notes] == [first]


def test_streaming_order_by_needs_a_monotonic_leading_key() -> None:
    text, (key,) = marked(
        "CREATE STREAM s (u INT);\n"
        "CREATE VIEW v AS SELECT STREAM u, rowtime FROM s ORDER BY «u», rowtime"
    )
    found = [(d.code.value, d.span) for d in compile_program(text).diagnostics]
    assert found == [("SQL306", key)]
    monotone = "CREATE STREAM s (u INT);\nCREATE VIEW v AS SELECT STREAM * FROM s ORDER BY rowtime"
    assert compile_program(monotone).diagnostics == ()


def test_an_insert_statement_says_how_its_rows_get_in() -> None:
    """Feldera's spec writes input transactions as INSERTs: the hint is the step line."""
    program = (
        "CREATE TABLE T (ts TIMESTAMP NOT NULL LATENESS INTERVAL '1' HOUR, location VARCHAR);\n"
        "INSERT INTO T VALUES('2020-01-01 00:00:00', 'home');"
    )
    (diagnostic,) = compile_program(program).diagnostics
    assert diagnostic.message == (
        "A program does not run INSERT statements: rows enter 't' through the pipeline's ingress"
    )
    assert diagnostic.hint == (
        "send the rows to the pipeline's ingress, POST /api/v1/pipelines/{pipeline}/ingress/t, "
        'or to weir replay as a step line: {"t": [{"insert": '
        '{"ts": "2020-01-01 00:00:00", "location": "home"}}]}'
    )


def test_an_insert_s_bytes_are_the_list_of_their_numbers_in_the_step_line() -> None:
    program = "CREATE TABLE b (x VARBINARY);\nINSERT INTO b VALUES (x'AB01'), (x'');"
    (diagnostic,) = compile_program(program).diagnostics
    assert diagnostic.hint is not None
    assert diagnostic.hint.endswith('{"b": [{"insert": {"x": [171, 1]}}, {"insert": {"x": []}}]}')


def test_an_insert_of_parameters_or_into_an_unknown_table_hints_the_shape() -> None:
    (insert,) = compile_program(T + "INSERT INTO t (v, a) VALUES (?, -1)").diagnostics
    assert insert.hint is not None
    assert insert.hint.endswith('{"t": [{"insert": {"v": ..., "a": ...}}]}')
    text = "INSERT INTO nowhere VALUES (1)"
    insert, unknown = compile_program(text).diagnostics
    assert (insert.code.value, insert.span) == ("SQL402", Span(0, len(text)))
    assert insert.hint is not None and insert.hint.endswith('{"nowhere": [{"insert": {...}}]}')
    assert (unknown.code.value, unknown.span) == ("SQL201", Span(12, 19))


def test_a_pump_is_the_insert_a_program_takes() -> None:
    (diagnostic,) = compile_program(T + "INSERT INTO t (a) SELECT a FROM t").diagnostics
    assert diagnostic.hint == (
        "to insert a query's rows as they come, make it a pump: "
        "CREATE PUMP name AS INSERT INTO t (a) SELECT ..."
    )
    pump = "CREATE TABLE u (a INT);\nCREATE PUMP p AS INSERT INTO u (a) SELECT a + 1 FROM t"
    assert compile_program(T + pump).diagnostics == ()


@pytest.mark.parametrize(
    ("sql", "hint"),
    [
        ("SELECT a, v FROMt", "FROM t?"),
        ("SELECT t.a FROM t AS x", "'t' is named 'x' in this FROM"),
        ("SELECT ts + 1 AS x FROM t", "add an INTERVAL, such as INTERVAL '0.1' SECOND"),
        (
            "DROP TABLE t",
            "to drop 't', delete the statement that creates it and deploy the program",
        ),
    ],
)
def test_the_hint_says_what_was_meant(sql: str, hint: str) -> None:
    (diagnostic, *_) = compile_program(T + sql).diagnostics
    assert diagnostic.hint == hint
