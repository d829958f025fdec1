"""Parsing queries: WITH, set operations, SELECT, FROM items and joins, VALUES."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Literal

from backend.compiler.source import Span
from backend.compiler.syntax import ast
from backend.compiler.syntax import expressions as expr_parser
from backend.compiler.syntax.cursor import Cursor, ParseAbort
from backend.compiler.syntax.tokens import Token, TokenKind

_QUERY_START = ("select", "with", "values")
_SET_OPERATIONS: dict[str, Literal["union", "intersect", "except"]] = {
    "union": "union",
    "intersect": "intersect",
    "except": "except",
    "minus": "except",  # Oracle's and Feldera's name for EXCEPT
}
_OUTER_JOINS: dict[str, Literal["left", "right", "full"]] = {
    "left": "left",
    "right": "right",
    "full": "full",
}
_JOIN_START = ("join", "inner", "left", "right", "full", "cross", "natural", "asof", "outer")


def parse_query(c: Cursor) -> ast.Query:
    c.enter()
    start = c.current.start
    with_: tuple[ast.CommonTableExpr, ...] = ()
    with_span = None
    if c.at_word("with"):
        with_, with_span = _with(c)
    body = _set_expression(c)
    order_by: tuple[ast.OrderItem, ...] = ()
    order_by_span = None
    order_start = c.current.start
    if c.accept_words("order", "by"):
        order_by = expr_parser.parse_order_items(c)
        order_by_span = Span(order_start, c.previous_end)
    limit = _limit(c)
    c.leave()
    return ast.Query(
        with_, with_span, body, order_by, order_by_span, limit, Span(start, c.previous_end)
    )


def _with(c: Cursor) -> tuple[tuple[ast.CommonTableExpr, ...], Span]:
    start = c.expect_word("with").start
    # RECURSIVE, unless it is the name of the first WITH query (`WITH recursive AS ...`).
    recursive = c.at_word("recursive") and c.peek().value not in ("as", "(")
    if recursive:
        c.advance()
    ctes = []
    while True:
        name = c.expect_identifier("a name for the WITH query")
        columns = identifier_list(c) if c.at_symbol("(") else ()
        c.expect_word("as")
        c.expect_symbol("(")
        query = parse_query(c)
        c.expect_symbol(")")
        ctes.append(
            ast.CommonTableExpr(
                name, columns, query, Span(name.span.start, c.previous_end), recursive
            )
        )
        if not c.accept_symbol(","):
            return tuple(ctes), Span(start, c.previous_end)


def _set_expression(c: Cursor) -> ast.QueryBody:
    left = _set_term(c)
    while c.at_word("union", "except") or _at_minus(c):
        left = _set_operation(c, left, _set_term)
    return left


def _set_term(c: Cursor) -> ast.QueryBody:
    left = _set_primary(c)
    while c.at_word("intersect"):
        left = _set_operation(c, left, _set_primary)
    return left


def _set_operation(
    c: Cursor, left: ast.QueryBody, operand: Callable[[Cursor], ast.QueryBody]
) -> ast.SetOperation:
    op_token = c.advance()
    op = _SET_OPERATIONS[op_token.value]
    all_ = c.accept_word("all") is not None
    if not all_:
        c.accept_word("distinct")
    op_span = Span(op_token.start, c.previous_end)
    right = operand(c)
    return ast.SetOperation(op, all_, left, right, op_span, left.span.to(right.span))


def _set_primary(c: Cursor) -> ast.QueryBody:
    if c.at_word("select"):
        return _select(c)
    if c.at_word("values"):
        return _values(c)
    if c.at_symbol("("):
        start = c.advance().start
        inner = parse_query(c)
        c.expect_symbol(")")
        return ast.Query(
            inner.with_,
            inner.with_span,
            inner.body,
            inner.order_by,
            inner.order_by_span,
            inner.limit,
            Span(start, c.previous_end),
        )
    c.fail("SELECT", "VALUES", "'('")


def _values(c: Cursor) -> ast.Values:
    start = c.expect_word("values").start
    rows = []
    while True:
        if c.accept_symbol("("):
            rows.append(expr_parser.parse_expr_list(c))
            c.expect_symbol(")")
        else:
            rows.append((expr_parser.parse_expr(c),))
        if not c.accept_symbol(","):
            return ast.Values(tuple(rows), Span(start, c.previous_end))


def _offset_rows(c: Cursor) -> ast.Expr:
    """OFFSET's number of rows, and its optional ROWS or ROW."""
    offset = expr_parser.parse_expr(c)
    if not c.accept_word("rows"):
        c.accept_word("row")
    return offset


def _limit(c: Cursor) -> ast.Limit | None:
    """`LIMIT n [OFFSET m]`, `OFFSET m [LIMIT n]`, MySQL's `LIMIT m, n` (n rows after
    m), `LIMIT ALL` (none), `[OFFSET m ROWS] FETCH FIRST n ROWS ONLY`."""
    start = c.current.start
    count: ast.Expr | None = None
    offset: ast.Expr | None = None
    if c.accept_word("offset"):
        offset = _offset_rows(c)
    if c.accept_word("limit") and not c.accept_word("all"):  # LIMIT ALL: no limit
        count = expr_parser.parse_expr(c)
        if offset is None and c.accept_symbol(","):  # LIMIT m, n
            offset = count
            count = None if c.accept_word("all") else expr_parser.parse_expr(c)
    if offset is None and c.accept_word("offset"):
        offset = _offset_rows(c)
    if c.accept_word("fetch"):
        if not c.accept_word("first"):
            c.expect_word("next")
        if not c.at_word("row", "rows"):
            count = expr_parser.parse_expr(c)
        else:
            count = ast.NumberLiteral("1", "integer", Span(c.current.start, c.current.start))
        if not c.accept_word("rows"):
            c.expect_word("row")
        c.expect_word("only")
    if c.current.start == start:
        return None
    return ast.Limit(count, offset, Span(start, c.previous_end))


# ---------------------------------------------------------------- SELECT


def _select(c: Cursor) -> ast.Select:
    start = c.expect_word("select").start
    stream = c.accept_word("stream") is not None
    distinct = None
    if token := c.accept_word("distinct"):
        distinct = token.span
    else:
        c.accept_word("all")
    items = [_select_item(c)]
    while c.accept_symbol(","):
        items.append(_select_item(c))
    from_: list[ast.FromItem] = []
    _check_glued_from(c, items[-1])
    if c.accept_word("from"):
        from_.append(_from_item(c))
        while c.accept_symbol(","):
            from_.append(_from_item(c))
    where = expr_parser.parse_expr(c) if c.accept_word("where") else None
    group_by = _group_by(c)
    having = _clause(c, ("having",), lambda c: (expr_parser.parse_expr(c),))
    windows: list[ast.NamedWindow] = []
    windows_span = None
    window_start = c.current.start
    if c.accept_word("window"):
        while True:
            name = c.expect_identifier("a window name")
            c.expect_word("as")
            spec = expr_parser.parse_window_spec(c)
            windows.append(ast.NamedWindow(name, spec, name.span.to(spec.span)))
            if not c.accept_symbol(","):
                break
        windows_span = Span(window_start, c.previous_end)
    qualify = expr_parser.parse_expr(c) if c.accept_word("qualify") else None
    return ast.Select(
        stream,
        distinct,
        tuple(items),
        tuple(from_),
        where,
        group_by,
        having,
        tuple(windows),
        windows_span,
        qualify,
        Span(start, c.previous_end),
    )


def _check_glued_from(c: Cursor, last: ast.SelectItem) -> None:
    """`SELECT a, b FROMt`: the last item's alias is FROM and a name run together, and
    the query has no FROM (SQLstream's spec writes `qty FROMTradeStream`)."""
    alias = last.alias if isinstance(last, ast.ExprItem) else None
    if alias is None or alias.quoted or c.at_word("from") or c.tokens[c.pos - 2].is_word("as"):
        return
    written = c.tokens[c.pos - 1].text
    # Written in capitals, as keywords are: `1 fromage` may well be an alias.
    if written.startswith("FROM") and written[4:5].isalpha():
        c.report(f"Expected FROM, found '{written}'", alias.span, f"FROM {written[4:]}?")
        raise ParseAbort


def _group_by(c: Cursor) -> ast.Clause | None:
    """`GROUP BY [ALL | DISTINCT] item, ...` (ALL is the default: every grouping set as
    written, repeats too)."""
    start = c.current.start
    if c.accept_words("group", "by") is None:
        return None
    distinct = c.accept_word("distinct") is not None
    if not distinct:
        c.accept_word("all")
    items = list(_keys(_group_by_item(c)))  # `GROUP BY (a, b)` is `GROUP BY a, b`
    while c.accept_symbol(","):
        items.extend(_keys(_group_by_item(c)))
    return ast.Clause(tuple(items), Span(start, c.previous_end), distinct)


def _group_by_item(c: Cursor) -> ast.Expr:
    """An expression, or GROUPING SETS (...), ROLLUP (...) or CUBE (...) as its sets;
    `()` is the one empty set (GROUP BY () is the grand total, as without GROUP BY)."""
    start = c.current.start
    if c.at_symbol("(") and c.peek().is_symbol(")"):
        return ast.GroupingSets(tuple(_grouping_sets(c)), Span(start, c.previous_end))
    if c.at_word("grouping") and c.peek().is_word("sets"):
        c.advance()
        c.advance()
        c.expect_symbol("(")
        sets = _grouping_sets(c)
        while c.accept_symbol(","):
            sets += _grouping_sets(c)
        c.expect_symbol(")")
        return ast.GroupingSets(tuple(sets), Span(start, c.previous_end))
    if c.at_word("rollup", "cube") and c.peek().is_symbol("("):
        kind = c.advance().value
        c.expect_symbol("(")
        # An element is a key or a composite of keys, `ROLLUP((a, b), c)`, kept together.
        elements = [_keys(item) for item in expr_parser.parse_expr_list(c)]
        c.expect_symbol(")")
        if kind == "rollup":  # (a, b, c), (a, b), (a), ()
            chosen = [elements[:n] for n in range(len(elements), -1, -1)]
        else:  # every subset, the larger ones first
            subsets = [
                [elements[i] for i in range(len(elements)) if mask >> (len(elements) - 1 - i) & 1]
                for mask in range(2 ** len(elements) - 1, -1, -1)
            ]
            chosen = sorted(subsets, key=len, reverse=True)
        sets = [tuple(key for element in each for key in element) for each in chosen]
        return ast.GroupingSets(tuple(sets), Span(start, c.previous_end))
    return expr_parser.parse_expr(c)


def _grouping_sets(c: Cursor) -> list[tuple[ast.Expr, ...]]:
    """An element of GROUPING SETS: `(a, b)`, `()` or `a`, one set; or a GROUPING SETS,
    ROLLUP or CUBE inside it, its sets."""
    if c.at_symbol("(") and c.peek().is_symbol(")"):
        c.advance()
        c.advance()
        return [()]
    item = _group_by_item(c)
    if isinstance(item, ast.GroupingSets):
        return list(item.sets)
    return [_keys(item)]


def _keys(item: ast.Expr) -> tuple[ast.Expr, ...]:
    """The keys of a composite `(a, b)`, or the one key."""
    return item.items if isinstance(item, ast.RowConstructor) else (item,)


def _clause(
    c: Cursor, words: tuple[str, ...], parse: Callable[[Cursor], tuple[ast.Expr, ...]]
) -> ast.Clause | None:
    start = c.current.start
    if c.accept_words(*words) is None:
        return None
    exprs = parse(c)
    return ast.Clause(exprs, Span(start, c.previous_end))


def _select_item(c: Cursor) -> ast.SelectItem:
    start = c.current.start
    if c.accept_symbol("*"):
        return ast.StarItem(None, Span(start, c.previous_end), _excluded(c))
    if c.at_identifier() and c.peek().is_symbol(".") and c.peek(2).is_symbol("*"):
        qualifier = c.expect_identifier()
        c.advance()
        c.advance()
        return ast.StarItem(qualifier, Span(start, c.previous_end), _excluded(c))
    expr = expr_parser.parse_expr(c)
    alias = _alias(c)
    return ast.ExprItem(expr, alias, Span(start, c.previous_end))


def _excluded(c: Cursor) -> tuple[ast.ColumnRef, ...]:
    """`EXCLUDE (a, t.b, ...)` or `EXCEPT (...)` after a `*`: the columns it leaves out
    (not EXCEPT (SELECT ...), a set operation)."""
    if not (c.at_word("exclude", "except") and c.peek().is_symbol("(")):
        return ()
    if c.peek(2).is_word("select") or c.peek(2).is_word("values"):
        return ()
    c.advance()
    c.advance()
    columns = [expr_parser.parse_column_ref(c)]
    while c.accept_symbol(","):
        columns.append(expr_parser.parse_column_ref(c))
    c.expect_symbol(")")
    return tuple(columns)


def _alias(c: Cursor) -> ast.Identifier | None:
    if c.accept_word("as"):
        if c.current.kind is TokenKind.STRING:
            # `AS 'day'`, as MySQL and Feldera's Nexmark queries write it: a quoted name.
            token = c.advance()
            return ast.Identifier(token.value, True, token.span)
        if c.current.kind is TokenKind.WORD and _ends_an_item(c.peek()):
            # `AS exists`: after AS a keyword that ends the item is its name (Calcite's).
            token = c.advance()
            return ast.Identifier(token.value, False, token.span)
        return c.expect_identifier("an alias")
    if c.at_identifier() and not _at_minus(c):
        return c.expect_identifier()
    return None


def _at_minus(c: Cursor) -> bool:
    """At MINUS as a set operation (`... MINUS SELECT ...`), not an alias named minus."""
    following = c.peek()
    words = ("select", "all", "distinct", "values")
    starts = following.is_symbol("(") or any(following.is_word(w) for w in words)
    return c.at_word("minus") and starts


def _ends_an_item(token: Token) -> bool:
    """Whether `token` can follow a select item or a FROM item, ending it."""
    if token.kind is TokenKind.EOF:
        return True
    if token.kind is TokenKind.SYMBOL:
        return token.value in (",", ")", ";")
    return token.kind is TokenKind.WORD and token.value in ITEM_ENDS


# Clauses that follow a select item or a FROM item.
ITEM_ENDS = frozenset(("from", "where", "group", "having", "order", "limit", "union"))


def identifier_list(c: Cursor) -> tuple[ast.Identifier, ...]:
    """`(a, b, ...)`: column names in a column list, USING, or after an alias."""
    c.expect_symbol("(")
    names = [c.expect_identifier("a column name")]
    while c.accept_symbol(","):
        names.append(c.expect_identifier("a column name"))
    c.expect_symbol(")")
    return tuple(names)


# ---------------------------------------------------------------- FROM


def _from_item(c: Cursor) -> ast.FromItem:
    c.enter()
    left = _table_primary(c)
    while c.at_word(*_JOIN_START):
        left = _join(c, left)
    c.leave()
    return left


def _join(c: Cursor, left: ast.FromItem) -> ast.Join:
    keyword_start = c.current.start
    if c.at_word("cross", "outer") and c.peek().is_word("apply"):
        return _apply(c, left)
    natural = c.accept_word("natural") is not None
    # ASOF before or after the kind: `ASOF LEFT JOIN` (DuckDB), `LEFT ASOF JOIN` (Feldera).
    asof = not natural and c.accept_word("asof") is not None
    kind: Literal["inner", "left", "right", "full", "cross"] = "inner"
    if c.accept_word("cross"):
        kind = "cross"
    elif c.at_word("left", "right", "full"):
        kind = _OUTER_JOINS[c.advance().value]
        c.accept_word("outer")
    else:
        c.accept_word("inner")
    asof = asof or (not natural and c.accept_word("asof") is not None)
    c.expect_word("join")
    keyword_span = Span(keyword_start, c.previous_end)
    if asof and kind not in ("inner", "left"):
        c.report(f"ASOF JOIN is INNER or LEFT, not {kind.upper()}", keyword_span)
        raise ParseAbort
    right = _table_primary(c)
    match_condition = None
    if asof:
        c.expect_word("match_condition")
        match_condition = expr_parser.parse_expr(c)
    condition = None
    using: tuple[ast.Identifier, ...] = ()
    if kind != "cross" and not natural:
        if c.accept_word("on"):
            condition = expr_parser.parse_expr(c)
        elif c.accept_word("using"):
            using = identifier_list(c)
        elif not asof:  # an ASOF JOIN without ON searches the whole right side
            c.fail("ON", "USING")
    span = left.span.to(Span(keyword_start, c.previous_end))
    return ast.Join(
        kind, natural, left, right, condition, using, keyword_span, span, match_condition
    )


def _apply(c: Cursor, left: ast.FromItem) -> ast.Join:
    """Feldera's (and SQL Server's) `a CROSS APPLY x`, `a CROSS JOIN LATERAL x`, and
    `a OUTER APPLY x`, `a LEFT JOIN LATERAL x ON TRUE`."""
    outer = c.advance().value == "outer"
    c.advance()
    keyword_span = Span(c.tokens[c.pos - 2].start, c.previous_end)
    right = _table_primary(c)
    if isinstance(right, ast.DerivedTable | ast.TableFunction):
        right = replace(right, lateral=True)
    condition = ast.BooleanLiteral(True, keyword_span) if outer else None
    span = left.span.to(Span(keyword_span.start, c.previous_end))
    kind: Literal["left", "cross"] = "left" if outer else "cross"
    return ast.Join(kind, False, left, right, condition, (), keyword_span, span)


def _table_primary(c: Cursor) -> ast.FromItem:
    start = c.current.start
    lateral = c.accept_word("lateral") is not None
    if c.at_symbol("("):
        following = c.peek()
        if (
            following.kind is TokenKind.WORD and following.value in _QUERY_START
        ) or _parenthesized_set_operation(c):
            c.advance()
            query = parse_query(c)
            c.expect_symbol(")")
            if _at_pivot(c):
                derived = ast.DerivedTable(query, lateral, None, (), Span(start, c.previous_end))
                return _pivoted(c, derived, start)
            alias, columns = _correlation(c)
            return ast.DerivedTable(query, lateral, alias, columns, Span(start, c.previous_end))
        c.advance()
        inner = _from_item(c)
        c.expect_symbol(")")
        return inner
    if c.accept_word("table"):  # Calcite's TABLE(TUMBLE(...))
        c.expect_symbol("(")
        call = expr_parser.parse_function_call(c)
        c.expect_symbol(")")
        return _table_function(c, call, lateral, start)
    if c.at_identifier() and c.peek().is_symbol("("):
        return _table_function(c, expr_parser.parse_function_call(c), lateral, start)
    name = c.expect_identifier("a table, stream or view name")
    over = expr_parser.parse_over(c) if c.accept_word("over") else None
    as_of = None
    if c.accept_words("for", "system_time", "as", "of"):
        as_of = expr_parser.parse_expr(c)
    if _at_pivot(c):
        table = ast.TableRef(name, None, (), over, as_of, Span(start, c.previous_end))
        return _pivoted(c, table, start)
    alias, columns = _correlation(c)
    return ast.TableRef(name, alias, columns, over, as_of, Span(start, c.previous_end))


def _at_pivot(c: Cursor) -> bool:
    """At `PIVOT (agg(...` or `UNPIVOT [INCLUDE | EXCLUDE NULLS] (` (not an alias named
    pivot or unpivot with its column list)."""
    if c.at_word("unpivot"):
        return (
            c.peek().is_word("include")
            or c.peek().is_word("exclude")
            or (c.peek().is_symbol("(") and _group_holds(c, 1, lambda t: t.is_word("for")))
        )
    return (
        c.at_word("pivot")
        and c.peek().is_symbol("(")
        and c.peek(2).kind in (TokenKind.WORD, TokenKind.QUOTED)
        and c.peek(3).is_symbol("(")
    )


def _group_holds(c: Cursor, at: int, wanted: Callable[[Token], bool]) -> bool:
    """Whether the parentheses opening `at` tokens after the cursor hold, at their own
    depth, a token that is `wanted`."""
    depth = 0
    for token in c.tokens[c.pos + at :]:
        if token.is_symbol("("):
            depth += 1
        elif token.is_symbol(")"):
            depth -= 1
            if depth == 0:
                return False
        elif depth == 1 and wanted(token):
            return True
        if token.kind is TokenKind.EOF:
            return False
    return False


def _pivoted(c: Cursor, source: ast.FromItem, start: int) -> ast.FromItem:
    """`source PIVOT (...)` or `source UNPIVOT (...)`, as often as written (a PIVOT of a
    PIVOT), then the alias of the last."""
    while _at_pivot(c):
        rotate = _unpivot if c.at_word("unpivot") else _pivot
        source = rotate(c, source, start)
    assert isinstance(source, ast.Pivot | ast.Unpivot)
    alias, columns = _correlation(c)
    return replace(source, alias=alias, column_aliases=columns, span=Span(start, c.previous_end))


def _pivot(c: Cursor, source: ast.FromItem, start: int) -> ast.Pivot:
    """`PIVOT (agg(x) [AS a], ... FOR col | (col, ...) IN (value [AS v], ...))`."""
    keyword_span = c.advance().span
    c.expect_symbol("(")
    measures = [_select_item(c)]
    while c.accept_symbol(","):
        measures.append(_select_item(c))
    c.expect_word("for")
    axes = _column_refs(c)
    c.expect_word("in")
    c.expect_symbol("(")
    values = []
    if not c.at_symbol(")"):
        values.append(_pivot_value(c))
        while c.accept_symbol(","):
            values.append(_pivot_value(c))
    c.expect_symbol(")")
    c.expect_symbol(")")
    span = Span(start, c.previous_end)
    items = tuple(item for item in measures if isinstance(item, ast.ExprItem))
    if len(items) != len(measures):
        c.report("Expected an aggregate call, not *, in PIVOT", span)
        raise ParseAbort
    return ast.Pivot(source, items, axes, tuple(values), None, (), keyword_span, span)


def _unpivot(c: Cursor, source: ast.FromItem, start: int) -> ast.Unpivot:
    """`UNPIVOT [INCLUDE | EXCLUDE NULLS] (m | (m, ...) FOR a | (a, ...) IN (col [AS
    label] | (col, ...) [AS (label, ...)], ...))`."""
    keyword_span = c.advance().span
    include_nulls = False
    if c.accept_word("include"):
        c.expect_word("nulls")
        include_nulls = True
    elif c.accept_word("exclude"):
        c.expect_word("nulls")
    c.expect_symbol("(")
    measures = _names(c)
    c.expect_word("for")
    axes = _names(c)
    c.expect_word("in")
    c.expect_symbol("(")
    items = [_unpivot_item(c)]
    while c.accept_symbol(","):
        items.append(_unpivot_item(c))
    c.expect_symbol(")")
    c.expect_symbol(")")
    span = Span(start, c.previous_end)
    return ast.Unpivot(
        source, include_nulls, measures, axes, tuple(items), None, (), keyword_span, span
    )


def _unpivot_item(c: Cursor) -> ast.UnpivotItem:
    start = c.current.start
    columns = _column_refs(c)
    labels: tuple[ast.Expr, ...] = ()
    if c.accept_word("as"):
        if c.accept_symbol("("):
            parts = [expr_parser.parse_expr(c)]
            while c.accept_symbol(","):
                parts.append(expr_parser.parse_expr(c))
            c.expect_symbol(")")
            labels = tuple(parts)
        else:
            labels = (expr_parser.parse_expr(c),)
    return ast.UnpivotItem(columns, labels, Span(start, c.previous_end))


def _column_refs(c: Cursor) -> tuple[ast.ColumnRef, ...]:
    """`col` or `(col, ...)`."""
    if not c.accept_symbol("("):
        return (expr_parser.parse_column_ref(c),)
    refs = [expr_parser.parse_column_ref(c)]
    while c.accept_symbol(","):
        refs.append(expr_parser.parse_column_ref(c))
    c.expect_symbol(")")
    return tuple(refs)


def _names(c: Cursor) -> tuple[ast.Identifier, ...]:
    """`name` or `(name, ...)`."""
    if c.at_symbol("("):
        return identifier_list(c)
    return (c.expect_identifier("a column name"),)


def _pivot_value(c: Cursor) -> ast.PivotValue:
    """`expr [AS name]` or `(expr, ...) [AS name]`: without a name, the value is named by
    its text as written (its parts joined by `_`), as Calcite names it."""
    start, first_token = c.current.start, c.pos
    # a tuple of values: a comma in the parentheses
    tuple_ = c.at_symbol("(") and _group_holds(c, 0, lambda t: t.is_symbol(","))
    if tuple_:
        c.advance()
    exprs, texts = [], []
    while True:
        first = c.pos
        exprs.append(expr_parser.parse_expr(c))
        texts.append(_written(c.tokens[first : c.pos]))
        if not (tuple_ and c.accept_symbol(",")):
            break
    if tuple_:
        c.expect_symbol(")")
    written = _written(c.tokens[first_token : c.pos])
    alias = _alias(c)
    name = alias.value if alias is not None else "_".join(texts)
    return ast.PivotValue(tuple(exprs), name, written, Span(start, c.previous_end))


def _written(tokens: tuple[Token, ...]) -> str:
    """The text of `tokens`, one space wherever the source had space between two."""
    text = ""
    for before, token in zip((None, *tokens), tokens, strict=False):
        if before is not None and token.start > before.end:
            text += " "
        text += token.text
    return text


def _parenthesized_set_operation(c: Cursor) -> bool:
    """Whether `(` opens a query whose first operand is in parentheses too: `FROM ((SELECT
    ...) UNION ALL (SELECT ...))`, not a FROM item in parentheses (`FROM ((SELECT ...) AS
    a JOIN b ON ...)`): what follows the inner parentheses tells."""
    if not c.peek().is_symbol("("):
        return False
    depth = 0
    for token in c.tokens[c.pos + 1 :]:
        if token.is_symbol("("):
            depth += 1
        elif token.is_symbol(")"):
            depth -= 1
        elif depth == 0:
            return token.kind is TokenKind.WORD and token.value in _SET_OPERATIONS
        if token.kind is TokenKind.EOF:
            return False
    return False


def _table_function(c: Cursor, call: ast.Expr, lateral: bool, start: int) -> ast.TableFunction:
    if not isinstance(call, ast.FunctionCall):  # EXTRACT(...) or FLOOR(x TO unit)
        c.report("Expected a table function call", call.span)
        raise ParseAbort
    unnest = call.name.value.lower() == "unnest"
    ordinality = unnest and c.accept_words("with", "ordinality") is not None
    alias, columns = _correlation(c)
    span = Span(start, c.previous_end)
    return ast.TableFunction(call, lateral, alias, columns, span, ordinality)


def _correlation(c: Cursor) -> tuple[ast.Identifier | None, tuple[ast.Identifier, ...]]:
    alias = _alias(c)
    columns = identifier_list(c) if alias is not None and c.at_symbol("(") else ()
    return alias, columns
