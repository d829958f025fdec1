"""CREATE FUNCTION ... AS expression: parsing, expansion at calls, errors, the cache."""

from __future__ import annotations

import pytest

from backend.compiler import compile_program
from backend.compiler.cache import CompileCache
from backend.compiler.diagnostics import Severity
from backend.compiler.syntax import statements as stmt
from backend.compiler.syntax.parser import parse
from backend.compiler.syntax.tokens import tokenize

from .compiled import the_error
from .markers import marked

T = "CREATE TABLE bid (auction BIGINT, price BIGINT, extra VARCHAR);\n"
COUNT_CHAR = (
    "CREATE FUNCTION COUNT_CHAR(S VARCHAR, C CHAR) RETURNS INT\n"
    "AS LENGTH(S) - LENGTH(REPLACE(S, C, ''));\n"
)


def _view_json(text: str) -> object:
    result = compile_program(text)
    assert not result.diagnostics, result.diagnostics
    assert result.spec is not None
    return result.spec["views"][-1]


def test_create_function_parses_with_its_parameters_return_type_and_body() -> None:
    tokens, _ = tokenize(COUNT_CHAR)
    program, diagnostics = parse(tokens)
    assert diagnostics == ()
    (function,) = program.statements
    assert isinstance(function, stmt.CreateFunction)
    assert function.name.value == "count_char"
    assert [p.name.value for p in function.parameters] == ["s", "c"]
    assert function.returns.words == ("int",)
    assert function.body is not None and not function.returns_not_null


def test_create_function_without_a_body_parses() -> None:
    text = "CREATE FUNCTION re_extract(s VARCHAR, p VARCHAR, grp INTEGER) RETURNS VARCHAR;"
    program, diagnostics = parse(tokenize(text)[0])
    assert diagnostics == ()
    (function,) = program.statements
    assert isinstance(function, stmt.CreateFunction) and function.body is None


def test_a_call_is_the_body_written_inline() -> None:
    called = _view_json(
        T + COUNT_CHAR + "CREATE VIEW q AS SELECT COUNT_CHAR(extra, 'c') AS c FROM bid;"
    )
    inline = "LENGTH(extra) - LENGTH(REPLACE(extra, 'c', ''))"
    assert called == _view_json(T + f"CREATE VIEW q AS SELECT {inline} AS c FROM bid;")


def test_arguments_and_result_are_cast_to_the_declared_types() -> None:
    function = "CREATE FUNCTION half(x DOUBLE) RETURNS BIGINT AS x / 2;\n"
    called = _view_json(T + function + "CREATE VIEW q AS SELECT half(price) AS h FROM bid;")
    inline = "CAST(CAST(price AS DOUBLE) / 2 AS BIGINT)"
    assert called == _view_json(T + f"CREATE VIEW q AS SELECT {inline} AS h FROM bid;")


def test_names_are_case_insensitive_and_a_body_calls_earlier_functions() -> None:
    program = (
        T
        + COUNT_CHAR
        + "CREATE FUNCTION Count_Cs(s VARCHAR) RETURNS INT AS count_char(s, 'c');\n"
        + "CREATE VIEW q AS SELECT COUNT_cs(extra) AS c FROM bid;"
    )
    inline = "LENGTH(extra) - LENGTH(REPLACE(extra, 'c', ''))"
    assert _view_json(program) == _view_json(T + f"CREATE VIEW q AS SELECT {inline} AS c FROM bid;")


def test_the_result_is_null_only_where_an_argument_can_be() -> None:
    function = "CREATE FUNCTION plus1(x BIGINT) RETURNS BIGINT NOT NULL AS COALESCE(x, 0) + 1;\n"
    program = T + function + "CREATE VIEW q AS SELECT plus1(price) AS p, plus1(7) AS s FROM bid;"
    columns = compile_program(program).catalog.relations[-1].columns
    assert [c.nullable for c in columns] == [False, False]


ERRORS = [
    (
        "rust_function",
        "«CREATE FUNCTION re_extract(s VARCHAR, p VARCHAR, grp INTEGER) RETURNS VARCHAR»;\n"
        "CREATE VIEW q AS SELECT re_extract(extra, 'a', 1) AS r FROM bid;",
        "SQL401",
    ),
    ("caller_column", "CREATE FUNCTION f(x INT) RETURNS INT AS x + «price»;", "SQL202"),
    ("unknown_name", "CREATE FUNCTION f(x INT) RETURNS INT AS «y»;", "SQL202"),
    ("aggregate", "CREATE FUNCTION f(x INT) RETURNS BIGINT AS «SUM(x)»;", "SQL213"),
    (
        "subquery",
        "CREATE FUNCTION f(x BIGINT) RETURNS BIGINT AS x + «(SELECT MAX(price) FROM bid)»;",
        "SQL218",
    ),
    (
        "window",
        "CREATE FUNCTION f(x BIGINT) RETURNS BIGINT AS «ROW_NUMBER() OVER (ORDER BY x)»;",
        "SQL213",
    ),
    ("body_type", "CREATE FUNCTION f(x INT) RETURNS DATE AS «x > 1»;", "SQL206"),
    ("not_null_body", "CREATE FUNCTION f(x INT) RETURNS INT NOT NULL AS «x + 1»;", "SQL206"),
    (
        "duplicate",
        "CREATE FUNCTION f(x INT) RETURNS INT AS x;\nCREATE FUNCTION «F»(y INT) RETURNS INT AS y;",
        "SQL218",
    ),
    ("built_in", "CREATE FUNCTION «upper»(x VARCHAR) RETURNS VARCHAR AS x;", "SQL218"),
    ("duplicate_parameter", "CREATE FUNCTION f(x INT, «X» INT) RETURNS INT AS x;", "SQL218"),
    ("recursion", "CREATE FUNCTION f(x INT) RETURNS INT AS «f»(x);", "SQL207"),
    (
        "defined_later",
        "CREATE VIEW q AS SELECT «g»(price) AS p FROM bid;\n"
        "CREATE FUNCTION g(x INT) RETURNS INT AS x;",
        "SQL207",
    ),
    (
        "arity",
        "CREATE FUNCTION f(x INT) RETURNS INT AS x;\n"
        "CREATE VIEW q AS SELECT «f(price, price)» AS p FROM bid;",
        "SQL207",
    ),
    (
        "argument_type",
        "CREATE FUNCTION f(x DATE) RETURNS DATE AS x;\n"
        "CREATE VIEW q AS SELECT f(«TRUE») AS p FROM bid;",
        "SQL206",
    ),
    (
        "calls_of_a_function_with_a_syntax_error_are_silent",
        "CREATE FUNCTION f(x INT) RETURNS INT AS x «)»1;\n"
        "CREATE VIEW q AS SELECT f(price) AS p FROM bid;",
        "SQL101",
    ),
    (
        "calls_of_a_failed_function_are_silent",
        "CREATE FUNCTION f(x INT) RETURNS INT AS «nope»;\n"
        "CREATE VIEW q AS SELECT f(price) AS p FROM bid;",
        "SQL202",
    ),
]


@pytest.mark.parametrize(("name", "program", "code"), ERRORS, ids=[e[0] for e in ERRORS])
def test_each_mistake_is_one_error_at_its_span(name: str, program: str, code: str) -> None:
    text, spans = marked(T + program)
    errors = [d for d in compile_program(text).diagnostics if d.severity is Severity.ERROR]
    assert [(d.code, d.span) for d in errors] == [(code, spans[0])]


def test_messages_name_the_function_and_its_signature() -> None:
    code, message = the_error(
        T + COUNT_CHAR + "CREATE VIEW q AS SELECT COUNT_CHAR(extra) AS c FROM bid;"
    )
    assert code == "SQL207"
    assert message == (
        "COUNT_CHAR expects 2 arguments, got 1: COUNT_CHAR(s VARCHAR, c VARCHAR) RETURNS INTEGER"
    )
    code, message = the_error(
        T + "CREATE FUNCTION re_extract(s VARCHAR) RETURNS VARCHAR;\n"
        "CREATE VIEW q AS SELECT re_extract(extra) AS r FROM bid;"
    )
    assert code == "SQL401"
    assert message.startswith("Not supported yet: user functions without a SQL body")


def test_editing_a_function_binds_the_views_that_call_it_again() -> None:
    cache = CompileCache()
    program = T + COUNT_CHAR + "CREATE VIEW q AS SELECT COUNT_CHAR(extra, 'c') AS c FROM bid;\n"
    before = compile_program(program, cache)
    edited = program.replace("REPLACE(S, C, '')", "REPLACE(UPPER(S), C, '')")
    after = compile_program(edited, cache)
    assert after == compile_program(edited)
    assert after.spec != before.spec
    assert cache.last.bind_misses == 2  # the function and the view
    moved = "-- a comment\n" + edited
    assert compile_program(moved, cache) == compile_program(moved)
    assert cache.last.bind_misses == 1  # the table, whose piece has the comment
