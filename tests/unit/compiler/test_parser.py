from __future__ import annotations

import pytest

from backend.compiler.diagnostics import Code, Diagnostic
from backend.compiler.source import Span
from backend.compiler.syntax import ast
from backend.compiler.syntax import statements as stmt
from backend.compiler.syntax.parser import parse
from backend.compiler.syntax.tokens import tokenize


def parse_text(text: str) -> tuple[stmt.Program, tuple[Diagnostic, ...]]:
    tokens, lexical = tokenize(text)
    program, syntactic = parse(tokens)
    return program, lexical + syntactic


def parse_expr(text: str) -> ast.Expr:
    program, diagnostics = parse_text(f"SELECT {text} FROM t")
    assert diagnostics == ()
    statement = program.statements[0]
    assert isinstance(statement, stmt.QueryStatement)
    select = statement.query.body
    assert isinstance(select, ast.Select)
    item = select.items[0]
    assert isinstance(item, ast.ExprItem)
    return item.expr


def shape(expr: ast.Expr) -> str:
    """A fully parenthesized rendering that shows how an expression grouped."""
    match expr:
        case ast.BinaryOp():
            return f"({shape(expr.left)} {expr.op} {shape(expr.right)})"
        case ast.UnaryOp():
            return f"({expr.op} {shape(expr.operand)})"
        case ast.ColumnRef():
            return ".".join(part.value for part in expr.parts)
        case ast.NumberLiteral():
            return expr.text
        case ast.IsNull():
            return f"({shape(expr.operand)} IS {'NOT ' * expr.negated}NULL)"
        case ast.Between():
            word = "BETWEEN SYMMETRIC" if expr.symmetric else "BETWEEN"
            return f"({shape(expr.operand)} {word} {shape(expr.low)} AND {shape(expr.high)})"
        case ast.InList():
            return f"({shape(expr.operand)} IN {[shape(i) for i in expr.items]})"
        case ast.Like():
            word = "ILIKE" if expr.case_insensitive else "LIKE"
            return f"({shape(expr.operand)} {'NOT ' * expr.negated}{word} {shape(expr.pattern)})"
        case ast.StringLiteral():
            return repr(expr.value)
        case ast.Cast():
            return f"CAST({shape(expr.operand)} AS {' '.join(expr.type.words)})"
    raise AssertionError(expr)


@pytest.mark.parametrize(
    ("text", "grouping"),
    [
        ("1 + 2 * 3", "(1 + (2 * 3))"),
        ("1 - 2 - 3", "((1 - 2) - 3)"),
        ("a OR b AND c", "(a or (b and c))"),
        ("NOT a AND b", "((not a) and b)"),
        ("NOT a = b", "(not (a = b))"),
        ("a = b OR c < d", "((a = b) or (c < d))"),
        ("-a * b", "((- a) * b)"),
        ("a || b = c", "((a || b) = c)"),
        ("a + b || c", "((a + b) || c)"),
        ("a IS NULL AND b IS NOT NULL", "((a IS NULL) and (b IS NOT NULL))"),
        ("a = 1 IS NULL", "((a = 1) IS NULL)"),
        ("a BETWEEN 1 AND 2 AND c", "((a BETWEEN 1 AND 2) and c)"),
        ("a BETWEEN b + 1 AND c * 2", "(a BETWEEN (b + 1) AND (c * 2))"),
        ("a BETWEEN SYMMETRIC 2 AND 1 OR b", "((a BETWEEN SYMMETRIC 2 AND 1) or b)"),
        ("a BETWEEN ASYMMETRIC 1 AND 2", "(a BETWEEN 1 AND 2)"),
        ("a BETWEEN symmetric AND 2", "(a BETWEEN symmetric AND 2)"),  # a column's name
        ("a NOT LIKE 'x' OR b", "((a NOT LIKE 'x') or b)"),
        ("a NOT ILIKE 'x' AND b ILIKE c", "((a NOT ILIKE 'x') and (b ILIKE c))"),
        ("a IN (1, 2) AND b", "((a IN ['1', '2']) and b)"),
        ("(a + b) * c", "((a + b) * c)"),
        ("t.a % 2", "(t.a % 2)"),
        # PostgreSQL's cast shorthand binds tighter than any operator.
        ("-a::BIGINT * b", "((- CAST(a AS bigint)) * b)"),
        ("a::VARCHAR::INT", "CAST(CAST(a AS varchar) AS int)"),
        ("CONVERT(a + b, BIGINT)", "CAST((a + b) AS bigint)"),
        ("(a + b)::DOUBLE || '1'::DATE", "(CAST((a + b) AS double) || CAST('1' AS date))"),
    ],
)
def test_operator_precedence_and_associativity(text: str, grouping: str) -> None:
    assert shape(parse_expr(text)) == grouping


def test_parenthesized_expressions_span_their_parentheses() -> None:
    expr = parse_expr("(a + b) * c")
    assert isinstance(expr, ast.BinaryOp)
    assert expr.left.span == Span(7, 14)
    assert expr.span == Span(7, 18)


def test_typed_and_interval_literals() -> None:
    assert parse_expr("TIMESTAMP '2020-01-01'") == ast.TypedLiteral(
        "timestamp", "2020-01-01", Span(7, 29)
    )
    interval = parse_expr("INTERVAL '1:30' HOURS TO MINUTES")
    assert isinstance(interval, ast.IntervalLiteral)
    assert (interval.value, interval.start_unit, interval.end_unit) == ("1:30", "hour", "minute")


def test_date_and_timestamp_are_still_usable_as_column_names() -> None:
    assert shape(parse_expr("date + timestamp")) == "(date + timestamp)"


def test_end_is_a_column_where_an_expression_starts() -> None:
    # Feldera's issue2003 names a column `end`; a CASE still ends at END.
    assert shape(parse_expr("end")) == "end"
    assert parse_text("SELECT CASE WHEN end > 1 THEN end END FROM t")[1] == ()


def test_a_parenthesized_set_operation_is_a_derived_table() -> None:
    program, diagnostics = parse_text(
        "SELECT * FROM ((SELECT a FROM t) UNION ALL (SELECT b FROM u))"
    )
    assert diagnostics == ()
    select = program.statements[0].query.body  # type: ignore[union-attr]
    assert isinstance(select, ast.Select)
    [derived] = select.from_
    assert isinstance(derived, ast.DerivedTable)
    assert isinstance(derived.query.body, ast.SetOperation)
    # A FROM item in parentheses starting with a derived table is still a join.
    joined, diagnostics = parse_text("SELECT * FROM ((SELECT a FROM t) AS p JOIN u ON p.a = u.b)")
    assert diagnostics == ()
    assert isinstance(joined.statements[0].query.body.from_[0], ast.Join)  # type: ignore[union-attr]


def test_create_table_keeps_constraints_and_properties() -> None:
    program, diagnostics = parse_text(
        "CREATE TABLE t (id INT NOT NULL PRIMARY KEY, ts TIMESTAMP LATENESS INTERVAL '1' HOUR,"
        " PRIMARY KEY (id)) WITH ('append_only' = 'true')"
    )
    assert diagnostics == ()
    (table,) = program.statements
    assert isinstance(table, stmt.CreateTable)
    assert [c.name.value for c in table.columns] == ["id", "ts"]
    assert [type(c).__name__ for c in table.columns[0].constraints] == [
        "NotNullConstraint",
        "PrimaryKeyMark",
    ]
    assert isinstance(table.columns[1].constraints[0], stmt.LatenessConstraint)
    (key,) = table.constraints
    assert isinstance(key, stmt.PrimaryKey)
    assert [c.value for c in key.columns] == ["id"]
    assert key.span == Span(86, 102)
    assert [(p.key, p.value) for p in table.properties] == [("append_only", "true")]


def test_create_view_variants() -> None:
    program, diagnostics = parse_text(
        "CREATE LOCAL VIEW a AS SELECT 1 FROM t;"
        "CREATE MATERIALIZED VIEW b (x) WITH ('emit_final' = 'x') AS SELECT STREAM 1 FROM t;"
    )
    assert diagnostics == ()
    local, materialized = program.statements
    assert isinstance(local, stmt.CreateView) and isinstance(materialized, stmt.CreateView)
    assert local.modifier == "local"
    assert materialized.modifier == "materialized"
    assert [c.value for c in materialized.columns] == ["x"]
    assert isinstance(materialized.query.body, ast.Select) and materialized.query.body.stream


def test_a_string_after_as_is_a_quoted_alias() -> None:
    # Feldera's Nexmark q15-q17 write `CAST(date_time AS DATE) as 'day'`.
    program, diagnostics = parse_text("SELECT a AS 'Day', b AS 'it''s', c AS d FROM t")
    assert diagnostics == ()
    statement = program.statements[0]
    assert isinstance(statement, stmt.QueryStatement)
    select = statement.query.body
    assert isinstance(select, ast.Select)
    aliases = [item.alias for item in select.items if isinstance(item, ast.ExprItem)]
    assert [(a.value, a.quoted) for a in aliases if a] == [
        ("Day", True),
        ("it's", True),
        ("d", False),
    ]
    _, errors = parse_text("SELECT a 'day' FROM t")  # only after AS
    assert [d.code for d in errors] == [Code.UNEXPECTED_TOKEN]


def test_parses_joins_set_operations_and_clauses_for_later_binding() -> None:
    program, diagnostics = parse_text(
        "WITH w AS (SELECT a FROM t) "
        "SELECT DISTINCT x.a, COUNT(*) FROM w x LEFT JOIN u ON x.a = u.a "
        "WHERE x.a > 0 GROUP BY x.a HAVING COUNT(*) > 1 "
        "UNION ALL SELECT a, 1 FROM v ORDER BY 1 DESC LIMIT 5"
    )
    assert diagnostics == ()
    query = program.statements[0]
    assert isinstance(query, stmt.QueryStatement)
    assert len(query.query.with_) == 1
    assert query.query.limit is not None and query.query.order_by
    body = query.query.body
    assert isinstance(body, ast.SetOperation) and body.op == "union" and body.all
    assert isinstance(body.left, ast.Select)
    assert isinstance(body.left.from_[0], ast.Join)
    assert body.left.group_by is not None and body.left.having is not None


def test_minus_is_except_and_still_a_name() -> None:
    """Oracle's and Feldera's MINUS: EXCEPT where a query follows; elsewhere a name."""
    program, diagnostics = parse_text("SELECT a minus FROM t minus MINUS ALL SELECT a FROM u")
    assert diagnostics == ()
    query = program.statements[0]
    assert isinstance(query, stmt.QueryStatement)
    body = query.query.body
    assert isinstance(body, ast.SetOperation) and (body.op, body.all) == ("except", True)
    assert isinstance(body.left, ast.Select)
    [item] = body.left.items
    assert isinstance(item, ast.ExprItem) and item.alias is not None
    assert item.alias.value == "minus"


def test_recovery_reports_the_first_error_of_every_statement() -> None:
    program, diagnostics = parse_text(
        "CREATE TABLE a (x INT,);\nCREATE VIEW v AS SELECT FROM a;\nCREATE TABLE b (y INT);"
    )
    assert [d.code for d in diagnostics] == [Code.UNEXPECTED_TOKEN, Code.UNEXPECTED_TOKEN]
    assert [type(s).__name__ for s in program.statements] == [
        "IncompleteStatement",
        "IncompleteStatement",
        "CreateTable",
    ]


def test_an_abandoned_create_statement_still_declares_its_name() -> None:
    program, _ = parse_text("CREATE TABLE orders (id INT,, x INT)")
    (statement,) = program.statements
    assert isinstance(statement, stmt.IncompleteStatement)
    assert statement.declares is not None and statement.declares.value == "orders"


def test_a_missing_semicolon_before_create_keeps_both_statements() -> None:
    program, diagnostics = parse_text("CREATE TABLE a (x INT)\nCREATE TABLE b (y INT)")
    assert [type(s).__name__ for s in program.statements] == ["CreateTable", "CreateTable"]
    assert [(d.code, d.span) for d in diagnostics] == [(Code.UNEXPECTED_TOKEN, Span(23, 29))]


def test_unexpected_continuation_lists_what_could_follow_and_spots_misspelt_keywords() -> None:
    _, diagnostics = parse_text("SELECT a FORM t")
    (diagnostic,) = diagnostics
    assert diagnostic.message.startswith("Expected ',', FROM, WHERE")
    assert diagnostic.message.endswith("found 't'")
    assert diagnostic.hint == "did you mean 'FROM'?"


def test_end_of_input_is_reported_right_after_the_last_token() -> None:
    _, diagnostics = parse_text("CREATE VIEW v AS SELECT a FROM   \n")
    (diagnostic,) = diagnostics
    assert diagnostic.span == Span(30, 30)
    assert "found end of input" in diagnostic.message


def test_no_syntax_error_is_reported_at_a_token_the_tokenizer_rejected() -> None:
    _, diagnostics = parse_text("SELECT a @ b FROM t; SELECT 'open")
    assert [d.code for d in diagnostics] == [Code.INVALID_CHARACTER, Code.UNTERMINATED]


def test_deep_nesting_is_a_diagnostic_not_a_crash() -> None:
    _, diagnostics = parse_text("SELECT " + "(" * 500 + "1" + ")" * 500 + " FROM t")
    assert [d.code for d in diagnostics] == [Code.TOO_DEEP]


def test_empty_statements_are_ignored() -> None:
    program, diagnostics = parse_text(";;  ; -- nothing\n;")
    assert program.statements == () and diagnostics == ()


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("'foo'\n'bar'", "foobar"),  # strings apart only by a line break are one
        ("'a' -- note\n  'b'\n'c'", "abc"),
        ("E'tab\\there\\x41\\u00e9'", "tab\there" + "Aé"),
        ("e'it''s \\\\'", "it's \\"),
    ],
)
def test_string_literals_of_several_lines_and_escape_strings(text: str, value: str) -> None:
    literal = parse_expr(text)
    assert isinstance(literal, ast.StringLiteral) and literal.value == value


def test_strings_apart_on_one_line_are_two_and_substring_may_give_only_for() -> None:
    _, diagnostics = parse_text("SELECT 'foo' 'bar' AS x;")
    assert [d.code for d in diagnostics] == [Code.UNEXPECTED_TOKEN]
    call = parse_expr("SUBSTRING(s FOR 2)")
    assert isinstance(call, ast.FunctionCall) and shape(call.args[1]) == "1"
    position = parse_expr("POSITION('b' IN s FROM 3)")
    assert isinstance(position, ast.FunctionCall) and len(position.args) == 3
