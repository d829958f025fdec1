"""String functions beyond the SQL standard's (LEFT, RIGHT, REPEAT, LPAD, RPAD, REVERSE,
CONCAT_WS, MD5, REGEXP_REPLACE) and IF."""

from __future__ import annotations

from typing import Any

from backend.compiler import compile_program
from tests.unit.compiler.compiled import errors_of

DDL = "CREATE TABLE t (s VARCHAR, n INTEGER NOT NULL, m INTEGER, ok BOOLEAN);\n"


def _columns(sql: str) -> dict[str, Any]:
    result = compile_program(DDL + f"CREATE VIEW v AS {sql};")
    assert not result.has_errors, result.diagnostics_json()
    [view] = [r for r in result.to_json()["catalog"]["relations"] if r["name"] == "v"]
    return {c["name"]: (c["type"], c["nullable"]) for c in view["columns"]}


def _errors(sql: str) -> list[tuple[str, str]]:
    return errors_of(DDL + f"CREATE VIEW v AS {sql};")


def test_string_functions_are_varchar_and_null_when_an_argument_is() -> None:
    assert _columns(
        "SELECT LEFT(s, 2) AS a, RIGHT('abc', n) AS b, REPEAT('x', n) AS c, LPAD(s, 4) AS d, "
        "RPAD('ab', n, '*') AS e, REVERSE('ab') AS f, MD5(s) AS g, "
        "REGEXP_REPLACE('abc', 'b+') AS h FROM t"
    ) == {
        "a": ("VARCHAR", True),
        "b": ("VARCHAR", False),
        "c": ("VARCHAR", False),
        "d": ("VARCHAR", True),
        "e": ("VARCHAR", False),
        "f": ("VARCHAR", False),
        "g": ("VARCHAR", True),
        "h": ("VARCHAR", False),
    }


def test_left_and_right_are_functions_before_a_parenthesis_and_joins_otherwise() -> None:
    assert _columns("SELECT LEFT(a.s, 1) AS l FROM t AS a LEFT JOIN t AS b ON a.n = b.n") == {
        "l": ("VARCHAR", True)
    }


def test_concat_ws_is_null_only_when_its_separator_is() -> None:
    assert _columns("SELECT CONCAT_WS('-', s, n, m) AS a, CONCAT_WS(s, 'x') AS b FROM t") == {
        "a": ("VARCHAR", False),
        "b": ("VARCHAR", True),
    }
    assert _errors("SELECT CONCAT_WS(n, s) FROM t") == [
        ("SQL206", "CONCAT_WS expects a VARCHAR separator, found INTEGER")
    ]


def test_regexp_replace_takes_a_literal_pattern_that_compiles() -> None:
    [(code, message)] = _errors("SELECT REGEXP_REPLACE(s, 'a(b', 'x') FROM t")
    assert code == "SQL209" and message.startswith("REGEXP_REPLACE pattern 'a(b'")
    assert _errors("SELECT REGEXP_REPLACE(s, s, 'x') FROM t") == [
        ("SQL206", "REGEXP_REPLACE's pattern must be a string literal, found VARCHAR")
    ]


def test_if_is_a_case_of_one_when() -> None:
    assert _columns("SELECT IF(ok, n, 0) AS a, IF(n > 1, s, 'small') AS b FROM t") == {
        "a": ("INTEGER", False),
        "b": ("VARCHAR", True),
    }
    assert [code for code, _ in _errors("SELECT IF(ok, n, 'x') FROM t")] == ["SQL206"]
    assert [code for code, _ in _errors("SELECT IF(n, 1, 2) FROM t")] == ["SQL206"]
    assert _errors("SELECT IF(ok, 1) FROM t") == [("SQL207", "IF expects 3 arguments, got 2")]


def test_wrong_argument_types_are_reported() -> None:
    assert _errors("SELECT LEFT(s, 'x') FROM t") == [
        ("SQL206", "LEFT expects an integer as argument 2, found VARCHAR")
    ]
    assert _errors("SELECT LPAD(s, 3, ok) FROM t") == [
        ("SQL206", "LPAD expects a VARCHAR as argument 3, found BOOLEAN")
    ]


def test_a_number_where_a_string_goes_is_its_text() -> None:
    # As in Feldera: LEFT(-12, 2) is '-1'.
    assert _query("SELECT LEFT(n, 2) AS l FROM t")["exprs"][0]["args"][0] == {
        "kind": "cast",
        "expr": {"kind": "column", "index": 1, "name": "n", "type": "INTEGER"},
        "type": "VARCHAR",
    }


def test_ascii_chr_and_octet_length() -> None:
    assert _columns("SELECT ASCII(s) AS a, CHR(n) AS c, OCTET_LENGTH('é') AS o FROM t") == {
        "a": ("INTEGER", True),
        "c": ("VARCHAR", False),
        "o": ("INTEGER", False),
    }
    assert _errors("SELECT CHR(s) FROM t") == [
        ("SQL206", "CHR expects an integer as argument 1, found VARCHAR")
    ]
    assert _errors("SELECT ASCII(ok) FROM t") == [
        ("SQL206", "ASCII expects a VARCHAR as argument 1, found BOOLEAN")
    ]


def _overlay_args(sql: str) -> list[Any]:
    result = compile_program(DDL + f"CREATE VIEW v AS {sql};")
    assert not result.has_errors, result.diagnostics_json()
    [view] = result.to_json()["plan"]["views"]
    [call] = view["query"]["exprs"]
    assert call["function"] == "overlay"
    return [arg.get("value", arg["kind"]) for arg in call["args"]]


def test_overlay_is_written_with_placing_from_and_an_optional_for() -> None:
    assert _overlay_args("SELECT OVERLAY(s PLACING 'ab' FROM n) FROM t") == [
        "column",
        "ab",
        "column",
    ]
    assert _overlay_args("SELECT overlay('xyz' placing s || 'c' from 2 for m + 1) FROM t") == [
        "xyz",
        "call",
        2,
        "call",
    ]
    assert _columns("SELECT OVERLAY(s PLACING 'x' FROM 1 FOR n) AS o FROM t") == {
        "o": ("VARCHAR", True)
    }


def test_overlay_without_placing_or_with_a_wrong_type_is_an_error() -> None:
    [(code, message)] = _errors("SELECT OVERLAY(s, 'x', 1) FROM t")
    assert code == "SQL101" and "PLACING" in message, message
    assert _errors("SELECT OVERLAY(s PLACING 'x' FROM 'a') FROM t") == [
        ("SQL206", "OVERLAY expects an integer as argument 3, found VARCHAR")
    ]


def test_rlike_is_a_boolean_of_a_literal_pattern() -> None:
    result = compile_program(
        "CREATE TABLE r (s VARCHAR NOT NULL);\n"
        "CREATE VIEW w AS SELECT RLIKE(s, '^a.*z$') AS m FROM r;"
    )
    assert not result.has_errors, result.diagnostics_json()
    [view] = [x for x in result.to_json()["catalog"]["relations"] if x["name"] == "w"]
    assert [(c["type"], c["nullable"]) for c in view["columns"]] == [("BOOLEAN", False)]


def test_an_rlike_pattern_must_be_a_regular_expression_literal() -> None:
    errors = errors_of("CREATE TABLE r (s VARCHAR);\nCREATE VIEW w AS SELECT RLIKE(s, s) FROM r;")
    assert errors == [("SQL206", "RLIKE's pattern must be a string literal, found VARCHAR")]


def test_regexp_extract_and_split_index_are_nullable_varchar() -> None:
    assert _columns(
        "SELECT REGEXP_EXTRACT('a=1', 'a=(.)', 1) AS a, REGEXP_EXTRACT('abc', 'b') AS b, "
        "SPLIT_INDEX('a/b', '/', n) AS c FROM t"
    ) == {"a": ("VARCHAR", True), "b": ("VARCHAR", True), "c": ("VARCHAR", True)}


def test_regexp_extract_takes_a_literal_pattern_and_one_of_its_groups() -> None:
    assert _errors("SELECT REGEXP_EXTRACT(s, s) FROM t") == [
        ("SQL206", "REGEXP_EXTRACT's pattern must be a string literal, found VARCHAR")
    ]
    assert _errors("SELECT REGEXP_EXTRACT(s, '(a)(b)', 3), REGEXP_EXTRACT(s, 'a', n) FROM t") == [
        ("SQL209", "REGEXP_EXTRACT's pattern has 2 groups, not a group 3"),
        ("SQL206", "REGEXP_EXTRACT's group must be an integer constant, found INTEGER"),
    ]


def test_split_part_is_varchar_null_only_where_an_argument_is() -> None:
    assert _columns("SELECT SPLIT_PART('a|b', '|', 2) AS a, SPLIT_PART(s, s, n) AS b FROM t") == {
        "a": ("VARCHAR", False),
        "b": ("VARCHAR", True),
    }
    assert _errors("SELECT SPLIT_PART(s, '|', s) FROM t") == [
        ("SQL206", "SPLIT_PART expects an integer as argument 3, found VARCHAR")
    ]


def test_split_index_takes_a_separator_constant() -> None:
    message = "SPLIT_INDEX's separator must be a string constant of one character or more"
    assert _errors("SELECT SPLIT_INDEX(s, s, 1), SPLIT_INDEX(s, '', 1) FROM t") == [
        ("SQL206", f"{message}, found VARCHAR"),
        ("SQL206", f"{message}, found VARCHAR"),
    ]
    assert _errors("SELECT SPLIT_INDEX(s, ',', s) FROM t") == [
        ("SQL206", "SPLIT_INDEX expects an integer as argument 3, found VARCHAR")
    ]


def test_len_and_length_are_char_length() -> None:
    result = compile_program(DDL + "CREATE VIEW v AS SELECT LEN(s) AS a, LENGTH(s) AS b FROM t;")
    assert not result.has_errors, result.diagnostics_json()
    exprs = result.to_json()["plan"]["views"][0]["query"]["exprs"]
    assert [(e["function"], e["type"]) for e in exprs] == [("char_length", "INTEGER")] * 2


def _query(sql: str) -> Any:
    result = compile_program(DDL + f"CREATE VIEW v AS {sql};")
    assert not result.has_errors, result.diagnostics_json()
    return result.to_json()["plan"]["views"][0]["query"]


def test_rlike_and_null_safe_equality_are_operators_too() -> None:
    # x [NOT] RLIKE p is [NOT] RLIKE(x, p); x <=> y is x IS NOT DISTINCT FROM y (Feldera).
    assert _query("SELECT s RLIKE 'a.' AS r, s NOT RLIKE 'b' AS n FROM t") == _query(
        "SELECT RLIKE(s, 'a.') AS r, NOT RLIKE(s, 'b') AS n FROM t"
    )
    assert _query("SELECT m <=> n + 1 AS e FROM t") == _query(
        "SELECT m IS NOT DISTINCT FROM n + 1 AS e FROM t"
    )
    assert _columns("SELECT RLIKE(s, NULL) AS a, s RLIKE NULL AS b, m <=> NULL AS c FROM t") == {
        "a": ("BOOLEAN", True),
        "b": ("BOOLEAN", True),
        "c": ("BOOLEAN", False),
    }


def test_parse_functions_read_text_as_their_type_or_null() -> None:
    assert _columns(
        "SELECT PARSE_DATE('%Y-%m-%d', s) AS d, PARSE_TIMESTAMP('%F %T', 'x') AS ts, "
        "PARSE_TIME('%H:%M', s) AS tm FROM t"
    ) == {"d": ("DATE", True), "ts": ("TIMESTAMP", True), "tm": ("TIME", True)}
    assert _errors("SELECT PARSE_DATE(s, s), PARSE_DATE('%H', s), PARSE_TIME('%H', n) FROM t") == [
        ("SQL206", "PARSE_DATE's format must be a string literal, found VARCHAR"),
        (
            "SQL209",
            "PARSE_DATE's format '%H' has %H, a time of day: a DATE has none (PARSE_TIMESTAMP has)",
        ),
        ("SQL206", "PARSE_TIME expects a VARCHAR as argument 2, found INTEGER"),
    ]


def test_text_in_arithmetic_with_a_number_is_cast_to_the_number_s_type() -> None:
    result = compile_program(
        "CREATE TABLE t (i INT, d DECIMAL(6, 2), s VARCHAR);\n"
        "CREATE VIEW v AS SELECT i + '1' AS a, s * d AS b, '2' - 1.5e0 AS c FROM t;"
    )
    assert not result.has_errors, result.diagnostics_json()
    exprs = result.to_json()["plan"]["views"][0]["query"]["exprs"]
    assert exprs[0]["args"][1] == {
        "kind": "cast",
        "expr": {"kind": "literal", "value": "1", "type": "VARCHAR"},
        "type": "INTEGER",
    }
    assert exprs[1]["args"][0]["type"] == "DECIMAL(38,19)"  # the widest DECIMAL
    assert exprs[2]["args"][0]["type"] == "DOUBLE"


def test_similar_to_is_rlike_of_its_pattern_as_a_whole_string_regex() -> None:
    result = compile_program(
        DDL + "CREATE VIEW v AS SELECT s SIMILAR TO '%(b|d).x' AS a, "
        "s NOT SIMILAR TO '1#%' ESCAPE '#' AS b, s similar FROM t;"
    )
    assert not result.has_errors, result.diagnostics_json()
    [view] = result.to_json()["plan"]["views"]
    first, second, _ = view["query"]["exprs"]
    assert first["function"] == "rlike"
    assert first["args"][1]["value"] == "(?s)^(?:.*(b|d)\\.x)$"  # `.` stands for itself
    assert second["function"] == "not"
    assert second["args"][0]["args"][1]["value"] == "(?s)^(?:1\\%)$"
    assert _columns("SELECT s SIMILAR TO NULL AS n FROM t") == {"n": ("BOOLEAN", True)}


def test_wrong_similar_to_patterns_are_errors() -> None:
    assert _errors("SELECT s SIMILAR TO '[ab' AS a FROM t") == [
        ("SQL209", "SIMILAR TO pattern '[ab' is not valid: a '[' is not closed")
    ]
    assert _errors("SELECT s SIMILAR TO s AS a FROM t")[0][1] == (
        "Not supported yet: SIMILAR TO with a pattern or an escape that is not a string literal"
    )
    assert _errors("SELECT s SIMILAR TO 'a' ESCAPE '##' AS a FROM t")[0][0] == "SQL209"
    assert _errors("SELECT n SIMILAR TO 'a' AS a FROM t")[0][1] == (
        "SIMILAR TO expects VARCHAR operands, found INTEGER"
    )
