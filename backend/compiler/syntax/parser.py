"""The parser: tokens to a `Program`, recovering after errors.

Recursive descent; expressions live in `expressions.py`, queries in `queries.py`.
After a syntax error the statement is abandoned (it becomes an
`IncompleteStatement`) and parsing resumes at the next `;` or `CREATE`, so every
statement's first error is reported in one pass.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from backend.compiler.diagnostics import Diagnostic
from backend.compiler.source import Span
from backend.compiler.suggest import Budget, did_you_mean
from backend.compiler.syntax import ast
from backend.compiler.syntax import expressions as expr_parser
from backend.compiler.syntax import queries as query_parser
from backend.compiler.syntax import statements as stmt
from backend.compiler.syntax.cursor import Cursor, ParseAbort, describe, one_of
from backend.compiler.syntax.tokens import Token, TokenKind

_QUERY_START = ("select", "with", "values")
_STATEMENT_EXPECTED = ("CREATE", "INSERT", "LATENESS", "SELECT")


def parse(
    tokens: tuple[Token, ...], suggestions: Budget | None = None, origin: int = 0
) -> tuple[stmt.Program, tuple[Diagnostic, ...]]:
    """Parse a whole program; never raises for any token sequence.

    The compile cache (compiler/cache.py) parses a program in pieces, each ending
    after a `;`: `origin` is where the piece starts, and one `suggestions` budget
    goes from piece to piece as it would through the whole program.
    """
    c = Cursor(tokens, suggestions, origin)
    statements: list[stmt.Statement] = []
    while not c.at_eof():
        if c.accept_symbol(";"):
            continue
        start = c.pos
        c.nesting = 0
        c.declared = None
        c.declared_function = None
        try:
            statement = _statement(c)
        except ParseAbort:
            span = Span(tokens[start].start, max(c.previous_end, tokens[start].end))
            statements.append(stmt.IncompleteStatement(c.declared, span, c.declared_function))
            _skip_to_next_statement(c, start)
            continue
        if c.accept_symbol(";") or c.at_eof():
            statements.append(statement)
        elif c.at_word("create"):
            # Only the ';' is missing: keep the statement, the next one starts here.
            c.report(f"Expected ';' after the statement, found {describe(c.current)}")
            statements.append(statement)
        else:
            _report_unexpected_continuation(c)
            span = Span(tokens[start].start, c.previous_end)
            statements.append(stmt.IncompleteStatement(c.declared, span, c.declared_function))
            _skip_to_next_statement(c, start)
    end = tokens[-1].end if tokens else 0
    return stmt.Program(tuple(statements), Span(0, end)), tuple(c.diagnostics)


def _report_unexpected_continuation(c: Cursor) -> None:
    """A statement that parsed but is followed by something that cannot continue it."""
    alternatives = c.alternatives_here()
    if not alternatives or alternatives[-1] != "';'":
        alternatives.append("';'")
    # `SELECT a FORM t` parses FORM as an alias: a misspelt keyword is the likely cause.
    keywords = [word for word in alternatives if word.isalpha()]
    hint = None
    for token in (c.current, c.tokens[c.pos - 1]):
        written = token.text.upper()
        if token.kind is TokenKind.WORD and (
            hint := did_you_mean(written, keywords, c.suggestions)
        ):
            break
    message = f"Expected {one_of(alternatives)}, found {describe(c.current)}"
    c.report(message, hint=hint)


def _skip_to_next_statement(c: Cursor, start: int) -> None:
    """Skip past the next `;`, or up to the next CREATE (a forgotten `;`)."""
    if c.pos == start:
        c.advance()  # always make progress
    while not c.at_eof():
        if c.accept_symbol(";") or c.at_word("create"):
            return
        c.advance()


def _statement(c: Cursor) -> stmt.Statement:
    if c.at_word("create"):
        return _create(c)
    if c.at_word("insert"):
        return _insert(c)
    if c.at_word("lateness"):
        return _lateness(c)
    if c.current.is_word("drop"):  # parsed to say why it has no place (not suggested)
        return _drop(c)
    if c.current.is_word("declare"):  # parsed to say it is not supported (not suggested)
        start = c.advance().start
        c.expect_word("recursive")
        return _recursive_view(c, start)
    if c.at_word(*_QUERY_START) or c.at_symbol("("):
        query = query_parser.parse_query(c)
        return stmt.QueryStatement(query, query.span)
    c.fail(*_STATEMENT_EXPECTED)


def _create(c: Cursor) -> stmt.Statement:
    start = c.expect_word("create").start
    if c.accept_word("table"):
        return _create_table(c, start)
    if c.at_word("stream") or c.at_word("foreign"):
        foreign = c.accept_word("foreign") is not None
        c.expect_word("stream")
        return _create_stream(c, start, foreign)
    if c.at_word("local", "materialized"):
        modifier: Literal["local", "materialized"] = (
            "local" if c.advance().value == "local" else "materialized"
        )
        c.expect_word("view")
        return _create_view(c, start, modifier)
    if c.accept_word("view"):
        return _create_view(c, start, None)
    if c.current.is_word("recursive"):  # Feldera's older spelling of DECLARE RECURSIVE VIEW
        c.advance()
        return _recursive_view(c, start)
    if c.accept_word("pump"):
        return _create_pump(c, start)
    if c.accept_word("function"):
        return _create_function(c, start)
    if c.accept_word("index"):
        return _create_index(c, start)
    if c.accept_word("type"):
        return _create_type(c, start)
    c.fail(
        "TABLE",
        "STREAM",
        "VIEW",
        "LOCAL VIEW",
        "MATERIALIZED VIEW",
        "PUMP",
        "FUNCTION",
        "TYPE",
        "INDEX",
    )


def _create_index(c: Cursor, start: int) -> stmt.CreateIndex:
    name = c.expect_identifier("an index name")
    c.expect_word("on")
    relation = c.expect_identifier("a view name")
    columns = query_parser.identifier_list(c)
    return stmt.CreateIndex(name, relation, columns, Span(start, c.previous_end))


# ---------------------------------------------------------------- tables and streams


def _relation_name(c: Cursor, what: str) -> ast.Identifier:
    name = c.expect_identifier(f"a {what} name")
    c.declared = name
    return name


def _create_table(c: Cursor, start: int) -> stmt.CreateTable:
    name = _relation_name(c, "table")
    columns, constraints = _table_elements(c)
    properties = _properties(c)
    return stmt.CreateTable(name, columns, constraints, properties, Span(start, c.previous_end))


def _create_stream(c: Cursor, start: int, foreign: bool) -> stmt.CreateStream:
    name = _relation_name(c, "stream")
    columns, constraints = _table_elements(c)
    server = None
    options: tuple[stmt.Property, ...] = ()
    if foreign:
        if c.accept_word("server"):
            server = c.expect_identifier("a server name")
        if c.accept_word("options"):
            options = _options(c)
    properties = _properties(c)
    span = Span(start, c.previous_end)
    return stmt.CreateStream(name, foreign, columns, constraints, properties, span, server, options)


def _options(c: Cursor) -> tuple[stmt.Property, ...]:
    """`OPTIONS (name 'value', ...)`: a foreign stream's connector settings."""
    return _pairs(c, lambda: c.expect_identifier("an option name"), separator=None)


def _table_elements(
    c: Cursor,
) -> tuple[tuple[stmt.ColumnDef, ...], tuple[stmt.TableConstraint, ...]]:
    c.expect_symbol("(")
    columns: list[stmt.ColumnDef] = []
    constraints: list[stmt.TableConstraint] = []
    while True:
        constraint = _table_constraint(c)
        if constraint is not None:
            constraints.append(constraint)
        else:
            columns.append(_column_def(c))
        if not c.accept_symbol(","):
            break
    c.expect_symbol(")")
    return tuple(columns), tuple(constraints)


def _table_constraint(c: Cursor) -> stmt.TableConstraint | None:
    start = c.current.start
    if c.accept_word("constraint"):
        c.expect_identifier("a constraint name")
        if not c.at_word("primary", "foreign"):
            c.fail("PRIMARY KEY", "FOREIGN KEY")
    if c.accept_words("primary", "key"):
        columns = query_parser.identifier_list(c)
        return stmt.PrimaryKey(columns, Span(start, c.previous_end))
    if c.accept_words("foreign", "key"):
        columns = query_parser.identifier_list(c)
        table, referenced = _references(c)
        return stmt.ForeignKey(columns, table, referenced, Span(start, c.previous_end))
    return None


def _references(c: Cursor) -> tuple[ast.Identifier, tuple[ast.Identifier, ...]]:
    """`REFERENCES table [(column, ...)]`: what a foreign key refers to."""
    c.expect_word("references")
    table = c.expect_identifier("a table name")
    referenced = query_parser.identifier_list(c) if c.at_symbol("(") else ()
    return table, referenced


def _column_def(c: Cursor) -> stmt.ColumnDef:
    token = c.current
    # Any word can name a column here, even a reserved one: the Feldera spec's own
    # example declares a column called `when`. Queries must then quote it.
    if token.kind not in (TokenKind.WORD, TokenKind.QUOTED):
        c.fail("a column name", "PRIMARY KEY")
    c.advance()
    name = ast.Identifier(token.value, token.kind is TokenKind.QUOTED, token.span)
    type_name = expr_parser.parse_type_name(c)
    constraints: list[stmt.ColumnConstraint] = []
    while True:
        start = c.current.start
        if span := c.accept_words("not", "null"):
            constraints.append(stmt.NotNullConstraint(span))
        elif null_token := c.accept_word("null"):
            constraints.append(stmt.NullConstraint(null_token.span))
        elif span := c.accept_words("primary", "key"):
            constraints.append(stmt.PrimaryKeyMark(span))
        elif c.accept_word("lateness"):
            expr = expr_parser.parse_expr(c)
            constraints.append(stmt.LatenessConstraint(expr, Span(start, c.previous_end)))
        elif c.accept_word("watermark"):
            expr = expr_parser.parse_expr(c)
            constraints.append(stmt.WatermarkConstraint(expr, Span(start, c.previous_end)))
        elif c.accept_word("default"):
            expr = expr_parser.parse_expr(c)
            constraints.append(stmt.DefaultConstraint(expr, Span(start, c.previous_end)))
        elif c.at_word("foreign", "references"):
            c.accept_words("foreign", "key")
            table, referenced = _references(c)
            constraints.append(stmt.ReferencesMark(table, referenced, Span(start, c.previous_end)))
        elif c.accept_word("interned"):
            pass  # Feldera's hint to store the strings once: nothing to Weir
        else:
            break
    if not c.at_symbol(",", ")"):
        c.fail(
            "NOT NULL",
            "PRIMARY KEY",
            "LATENESS",
            "WATERMARK",
            "DEFAULT",
            "FOREIGN KEY",
            "','",
            "')'",
        )
    return stmt.ColumnDef(
        name, type_name, tuple(constraints), Span(name.span.start, c.previous_end)
    )


def _properties(c: Cursor) -> tuple[stmt.Property, ...]:
    """`WITH ('key' = 'value', ...)`; absent means no properties."""
    if not c.accept_word("with"):
        return ()
    return _pairs(c, lambda: c.expect_string("a property name such as 'append_only'"), "=")


def _pairs(
    c: Cursor, key: Callable[[], Token | ast.Identifier], separator: str | None
) -> tuple[stmt.Property, ...]:
    """`(key [separator] 'value', ...)`: WITH properties and OPTIONS alike."""
    c.expect_symbol("(")
    pairs = []
    while True:
        written = key()
        if separator is not None:
            c.expect_symbol(separator)
        value = c.expect_string("a value (a string)")
        pairs.append(stmt.Property(written.value, value.value, written.span, value.span))
        if not c.accept_symbol(","):
            break
    c.expect_symbol(")")
    return tuple(pairs)


# ---------------------------------------------------------------- views, pumps, DML


def _create_view(
    c: Cursor, start: int, modifier: Literal["local", "materialized"] | None
) -> stmt.CreateView:
    name = _relation_name(c, "view")
    columns: tuple[ast.Identifier, ...] = ()
    columns_span = None
    if c.at_symbol("("):
        columns_start = c.current.start
        columns = query_parser.identifier_list(c)
        columns_span = Span(columns_start, c.previous_end)
    properties = _properties(c)
    c.expect_word("as")
    query = query_parser.parse_query(c)
    span = Span(start, c.previous_end)
    return stmt.CreateView(name, modifier, columns, columns_span, properties, query, span)


def _create_pump(c: Cursor, start: int) -> stmt.CreatePump:
    name = c.expect_identifier("a pump name")  # pumps are not relations: nothing declared
    state: Literal["started", "stopped"] | None = None
    if c.at_word("started", "stopped"):
        state = "started" if c.advance().value == "started" else "stopped"
    c.expect_word("as")
    insert = _insert(c)
    return stmt.CreatePump(name, state, insert, Span(start, c.previous_end))


def _create_function(c: Cursor, start: int) -> stmt.CreateFunction:
    name = c.expect_identifier("a function name")  # functions are not relations
    c.declared_function = name
    c.expect_symbol("(")
    parameters: list[stmt.FunctionParameter] = []
    while not c.at_symbol(")"):
        parameter = c.expect_identifier("a parameter name")
        type_name = expr_parser.parse_type_name(c)
        not_null = c.accept_words("not", "null") is not None
        span = Span(parameter.span.start, c.previous_end)
        parameters.append(stmt.FunctionParameter(parameter, type_name, not_null, span))
        if not c.accept_symbol(","):
            break
    c.expect_symbol(")")
    c.expect_word("returns")
    returns = expr_parser.parse_type_name(c)
    returns_not_null = c.accept_words("not", "null") is not None
    body = expr_parser.parse_expr(c) if c.accept_word("as") else None
    span = Span(start, c.previous_end)
    return stmt.CreateFunction(name, tuple(parameters), returns, returns_not_null, body, span)


def _create_type(c: Cursor, start: int) -> stmt.CreateType:
    name = c.expect_identifier("a type name")  # types are not relations
    c.expect_word("as")
    if not c.at_symbol("("):
        return stmt.CreateType(name, expr_parser.parse_type_name(c), Span(start, c.previous_end))
    fields_start = c.advance().start
    fields = [expr_parser.field_decl(c, nullable=True)]
    while c.accept_symbol(","):
        fields.append(expr_parser.field_decl(c, nullable=True))
    c.expect_symbol(")")
    span = Span(fields_start, c.previous_end)
    row = ast.TypeName(("row",), (), span, fields=tuple(fields))
    return stmt.CreateType(name, row, Span(start, c.previous_end))


def _insert(c: Cursor) -> stmt.Insert:
    start = c.expect_word("insert").start
    if c.current.is_word("expedited"):  # SQLstream's faster INSERT from a client
        c.advance()
    c.expect_word("into")
    target = c.expect_identifier("a table or stream name")
    following = c.peek()
    starts_query = following.kind is TokenKind.WORD and following.value in _QUERY_START
    columns = query_parser.identifier_list(c) if c.at_symbol("(") and not starts_query else ()
    query = query_parser.parse_query(c)
    return stmt.Insert(target, columns, query, Span(start, c.previous_end))


def _drop(c: Cursor) -> stmt.Drop:
    start = c.advance().start
    if c.accept_word("foreign"):
        c.expect_word("stream")
    elif not any(c.accept_word(kind) for kind in ("table", "stream", "view", "pump")):
        c.fail("TABLE", "STREAM", "FOREIGN STREAM", "VIEW", "PUMP")
    c.accept_words("if", "exists")
    name = c.expect_identifier("a name")
    return stmt.Drop(name, Span(start, c.previous_end))


def _recursive_view(c: Cursor, start: int) -> stmt.DeclareRecursiveView:
    """`[DECLARE | CREATE] RECURSIVE VIEW name (column type, ...)`, after RECURSIVE."""
    c.expect_word("view")
    name = c.expect_identifier("a view name")
    c.expect_symbol("(")
    depth = 1
    while depth and not c.at_eof():
        depth += {"(": 1, ")": -1}.get(c.advance().text, 0)
    if depth:
        c.fail("')'")
    return stmt.DeclareRecursiveView(name, Span(start, c.previous_end))


def _lateness(c: Cursor) -> stmt.LatenessStatement:
    start = c.expect_word("lateness").start
    relation = c.expect_identifier("a view name")
    c.expect_symbol(".")
    column = c.expect_identifier("a column name")
    expr = expr_parser.parse_expr(c)
    return stmt.LatenessStatement(relation, column, expr, Span(start, c.previous_end))
