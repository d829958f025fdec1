"""Parsing expressions and type names.

Operator precedence follows PostgreSQL, lowest first:

    OR < AND < NOT < IS < comparisons < BETWEEN IN LIKE < || < + - < * / % < unary - < ::

Binary operators are left-associative and parsed with precedence climbing, so a
long `a + b + c ...` chain costs no recursion.
"""

from __future__ import annotations

import decimal
import re
from dataclasses import replace
from typing import Literal

from backend.compiler.source import Span
from backend.compiler.syntax import ast
from backend.compiler.syntax import queries as query_parser
from backend.compiler.syntax.cursor import Cursor, ParseAbort, is_identifier
from backend.compiler.syntax.tokens import Token, TokenKind

OR, AND, NOT, IS, COMPARISON, MEMBERSHIP, CONCAT, ADDITIVE, MULTIPLICATIVE, UNARY = range(1, 11)

_SYMBOL_PRECEDENCE = {
    "=": COMPARISON,
    "<>": COMPARISON,
    "!=": COMPARISON,
    "<": COMPARISON,
    "<=": COMPARISON,
    ">": COMPARISON,
    ">=": COMPARISON,
    "<=>": COMPARISON,  # IS NOT DISTINCT FROM (Feldera, Spark, MySQL)
    "||": CONCAT,
    "+": ADDITIVE,
    "-": ADDITIVE,
    "*": MULTIPLICATIVE,
    "/": MULTIPLICATIVE,
    "%": MULTIPLICATIVE,
}
_WORD_PRECEDENCE = {
    "or": OR,
    "and": AND,
    "is": IS,
    "between": MEMBERSHIP,
    "in": MEMBERSHIP,
    "like": MEMBERSHIP,
    "ilike": MEMBERSHIP,
    "rlike": MEMBERSHIP,  # x RLIKE pattern is RLIKE(x, pattern) (Feldera, Spark)
    "similar": MEMBERSHIP,  # only as SIMILAR TO, see _infix
    "not": MEMBERSHIP,  # only as NOT BETWEEN / NOT IN / NOT [I|R]LIKE / NOT SIMILAR, see _infix
}

INTERVAL_UNITS = {
    "year": "year",
    "years": "year",
    "month": "month",
    "months": "month",
    "day": "day",
    "days": "day",
    "hour": "hour",
    "hours": "hour",
    "minute": "minute",
    "minutes": "minute",
    "second": "second",
    "seconds": "second",
}
_UNITS_EXPECTED = "an interval unit (YEAR, MONTH, DAY, HOUR, MINUTE or SECOND)"
# Units an interval literal may count in that are a number of another unit (Calcite's
# INTERVAL '2' WEEK, INTERVAL '1' QUARTER).
MULTIPLE_UNITS = {
    "week": ("day", 7),
    "weeks": ("day", 7),
    "quarter": ("month", 3),
    "quarters": ("month", 3),
}
_QUERY_START = ("select", "with", "values")
_TYPED_LITERALS: dict[str, Literal["timestamp", "date", "time", "uuid", "binary"]] = {
    "timestamp": "timestamp",
    "date": "date",
    "time": "time",
    "uuid": "uuid",
}


def parse_expr(c: Cursor, min_precedence: int = OR) -> ast.Expr:
    """Parse an expression whose operators all bind at least as tight as `min_precedence`."""
    c.enter()
    left = _prefix(c)
    while True:
        combined = _infix(c, left, min_precedence)
        if combined is None:
            break
        left = combined
    c.leave()
    return left


def parse_expr_list(c: Cursor) -> tuple[ast.Expr, ...]:
    items = [parse_expr(c)]
    while c.accept_symbol(","):
        items.append(parse_expr(c))
    return tuple(items)


# ---------------------------------------------------------------- operators


def _prefix(c: Cursor) -> ast.Expr:
    start = c.current.start
    if c.accept_word("not"):
        operand = parse_expr(c, NOT + 1)
        return ast.UnaryOp("not", operand, Span(start, operand.span.end))
    if c.at_symbol("-", "+"):
        op: Literal["-", "+"] = "-" if c.advance().value == "-" else "+"
        operand = parse_expr(c, UNARY)
        return ast.UnaryOp(op, operand, Span(start, operand.span.end))
    return _cast_shorthand(c, _primary(c))


def _cast_shorthand(c: Cursor, operand: ast.Expr) -> ast.Expr:
    """PostgreSQL's `x::type` (Feldera's too): CAST(x AS type), binding tighter than
    any operator (`-x::INT` is `-(x::INT)`); `x::A::B` casts twice. Not offered in the
    lists of what could follow an expression (syntax errors): it is a shorthand. So is
    `a[i]`, an array's i-th element, which binds as tightly."""
    while c.current.is_symbol("::") or c.current.is_symbol("["):
        if c.accept_symbol("["):  # a[i]: Calcite's ITEM operator, the i-th element
            index = _from_offset(parse_expr(c))
            c.expect_symbol("]")
            span = Span(operand.span.start, c.previous_end)
            item = ast.Identifier("item", False, Span(operand.span.end, c.previous_end))
            operand = ast.FunctionCall(item, (operand, index), False, False, None, None, span)
            continue
        c.advance()
        type_name = parse_type_name(c)
        operand = ast.Cast(operand, type_name, Span(operand.span.start, c.previous_end))
    return operand


def _from_offset(index: ast.Expr) -> ast.Expr:
    """`a[SAFE_OFFSET(i)]` (BigQuery's, in Feldera) counts from 0, NULL outside the array:
    `a[i + 1]`."""
    if (
        isinstance(index, ast.FunctionCall)
        and index.name.value == "safe_offset"
        and len(index.args) == 1
        and not index.star
    ):
        one = ast.NumberLiteral("1", "integer", index.name.span)
        return ast.BinaryOp("+", index.args[0], one, index.name.span, index.span)
    return index


def _infix(c: Cursor, left: ast.Expr, min_precedence: int) -> ast.Expr | None:
    token = c.current
    if token.kind is TokenKind.SYMBOL:
        precedence = _SYMBOL_PRECEDENCE.get(token.value)
    elif token.kind is TokenKind.WORD:
        precedence = _WORD_PRECEDENCE.get(token.value)
        following = c.peek()
        if token.value == "not" and not (
            following.kind is TokenKind.WORD
            and following.value in ("between", "in", "like", "ilike", "rlike", "similar")
        ):
            return None  # a NOT here starts no infix operator: let the caller decide
        if token.value == "similar" and not following.is_word("to"):
            return None  # a name (an alias), not SIMILAR TO
    else:
        return None
    if token.value in PERIOD_PREDICATES and _is_period(left) and min_precedence <= COMPARISON:
        return _period_predicate(c, left)
    if precedence is None or precedence < min_precedence:
        return None
    if precedence == IS:
        return _is(c, left)
    if precedence == MEMBERSHIP:
        return _membership(c, left)
    c.advance()
    if precedence == COMPARISON and _at_quantified_subquery(c):
        return _quantified(c, left, token.value)
    right = parse_expr(c, precedence + 1)
    if token.value == "<=>":
        return ast.IsDistinctFrom(left, right, True, left.span.to(right.span))
    return ast.BinaryOp(token.value, left, right, token.span, left.span.to(right.span))


PERIOD_PREDICATES = ("contains", "overlaps", "equals", "precedes", "succeeds", "immediately")


def _is_period(expr: ast.Expr) -> bool:
    return isinstance(expr, ast.RowConstructor) and len(expr.items) == 2


def _period_predicate(c: Cursor, period: ast.Expr) -> ast.PeriodPredicate:
    """`(start, end) CONTAINS x`, `... OVERLAPS (start, end)`, ... (Feldera's)."""
    assert isinstance(period, ast.RowConstructor)
    op = c.advance().value
    if op == "immediately":
        if not c.at_word("precedes", "succeeds"):
            c.fail("PRECEDES", "SUCCEEDS")
        op += " " + c.advance().value
    other = parse_expr(c, COMPARISON + 1)
    if op != "contains" and not _is_period(other):
        c.fail(f"a period (start, end) after {op.upper()}")
    return ast.PeriodPredicate(op, period, other, period.span.to(other.span))


def _at_quantified_subquery(c: Cursor) -> bool:
    return (
        c.at_word("all", "any", "some")
        and c.peek().is_symbol("(")
        and c.peek(2).kind is TokenKind.WORD
        and c.peek(2).value in _QUERY_START
    )


def _quantified(c: Cursor, left: ast.Expr, op: str) -> ast.QuantifiedComparison:
    """The rest of `x op ALL (SELECT ...)` / `x op ANY | SOME (SELECT ...)`."""
    quantifier: Literal["all", "any"] = "all" if c.advance().value == "all" else "any"
    c.expect_symbol("(")
    query = query_parser.parse_query(c)
    c.expect_symbol(")")
    op = "<>" if op == "!=" else op
    span = Span(left.span.start, c.previous_end)
    return ast.QuantifiedComparison(left, op, quantifier, query, span)


def _is(c: Cursor, left: ast.Expr) -> ast.Expr:
    c.expect_word("is")
    negated = c.accept_word("not") is not None
    if c.accept_word("null"):
        return ast.IsNull(left, negated, Span(left.span.start, c.previous_end))
    for word in ("true", "false", "unknown"):
        if c.accept_word(word):
            return ast.IsBoolean(left, word, negated, Span(left.span.start, c.previous_end))
    if c.accept_word("distinct"):
        c.expect_word("from")
        right = parse_expr(c, COMPARISON + 1)
        return ast.IsDistinctFrom(left, right, negated, left.span.to(right.span))
    c.fail("NULL", "TRUE", "FALSE", "UNKNOWN", "DISTINCT FROM")


def _membership(c: Cursor, left: ast.Expr) -> ast.Expr:
    negated = c.accept_word("not") is not None
    start = left.span.start
    if c.accept_word("between"):
        # SYMMETRIC: either bound may be the lower one; ASYMMETRIC is the default, said.
        symmetric = False
        if c.at_word("symmetric", "asymmetric") and not c.peek().is_word("and"):
            symmetric = c.advance().value == "symmetric"
        low = parse_expr(c, CONCAT)
        c.expect_word("and")
        high = parse_expr(c, CONCAT)
        return ast.Between(left, low, high, negated, Span(start, high.span.end), symmetric)
    rlike = c.accept_word("rlike")
    if rlike is not None:
        pattern = parse_expr(c, CONCAT)
        name = ast.Identifier("rlike", False, rlike.span)
        span = Span(start, c.previous_end)
        call = ast.FunctionCall(name, (left, pattern), False, False, None, None, span)
        return ast.UnaryOp("not", call, span) if negated else call
    for words in (("like",), ("ilike",), ("similar", "to")):
        if c.accept_words(*words):
            pattern = parse_expr(c, CONCAT)
            escape = parse_expr(c, CONCAT) if c.accept_word("escape") else None
            span = Span(start, c.previous_end)
            kind = words[0]
            return ast.Like(
                left, pattern, escape, negated, span, kind == "ilike", kind == "similar"
            )
    c.expect_word("in")
    c.expect_symbol("(")
    if c.at_word(*_QUERY_START):
        query = query_parser.parse_query(c)
        c.expect_symbol(")")
        return ast.InSubquery(left, query, negated, Span(start, c.previous_end))
    items = parse_expr_list(c)
    c.expect_symbol(")")
    return ast.InList(left, items, negated, Span(start, c.previous_end))


# ---------------------------------------------------------------- primaries


def _primary(c: Cursor) -> ast.Expr:
    token = c.current
    kind = token.kind
    if kind is TokenKind.INTEGER:
        return ast.NumberLiteral(c.advance().value, "integer", token.span)
    if kind is TokenKind.DECIMAL:
        return ast.NumberLiteral(c.advance().value, "decimal", token.span)
    if kind is TokenKind.FLOAT:
        return ast.NumberLiteral(c.advance().value, "float", token.span)
    if kind is TokenKind.STRING:
        return ast.StringLiteral(c.advance().value, token.span)
    if token.is_symbol("("):
        return _parenthesized(c)
    if token.is_symbol("?"):
        return ast.Parameter(c.advance().span)
    if kind is TokenKind.WORD:
        special = _keyword_expression(c, token)
        if special is not None:
            return special
    if is_identifier(token):
        if c.peek().is_symbol("("):
            return parse_function_call(c)
        return parse_column_ref(c)
    if token.is_word("end"):
        # A column may be named `end` (a table declares any word): where an expression
        # starts, END cannot close a CASE, so it is the column (as in Feldera).
        c.advance()
        name = ast.Identifier(token.value, False, token.span)
        return ast.ColumnRef((name,), token.span)
    c.fail("an expression")


_ESCAPE = re.compile(
    r"\\(?:([0-7]{1,3})|x([0-9a-fA-F]{1,2})|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|(.))", re.DOTALL
)
_ESCAPED = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def _unescaped(text: str) -> str:
    r"""An escape string's text with its backslash escapes replaced (Feldera's string.md):
    \b \f \n \r \t, octal (\o to \ooo), hex (\xh, \xhh), \uxxxx and \Uxxxxxxxx; a
    backslash before any other character is that character.

    >>> _unescaped(r"a\tb \x41\101\u00e9 \q \\")
    'a\tb AAé q \\'
    """

    def replaced(match: re.Match[str]) -> str:
        octal, hexadecimal, short, long, other = match.groups()
        if other is not None:
            return _ESCAPED.get(other, other)
        code = int(octal, 8) if octal else int(hexadecimal or short or long, 16)
        return chr(code) if code <= 0x10FFFF else ""

    return _ESCAPE.sub(replaced, text)


def _unique(c: Cursor, token: Token) -> ast.Expr:
    """`UNIQUE (query)` (the SQL standard's, Calcite's, Feldera's): whether no two rows of
    the query without NULLs are equal. Written as Calcite rewrites it: NOT EXISTS of the
    query's rows without NULLs grouped, the groups of more than one row."""
    c.advance()
    c.expect_symbol("(")
    query = query_parser.parse_query(c)
    c.expect_symbol(")")
    span = Span(token.start, c.previous_end)
    width = _width(query)
    if width is None:
        c.report("UNIQUE of a query with *: name its columns", span)
        raise ParseAbort
    names = tuple(ast.Identifier(f"unique${i + 1}", True, span) for i in range(width))
    rows = ast.DerivedTable(query, False, ast.Identifier("unique$rows", True, span), names, span)
    refs = tuple(ast.ColumnRef((name,), span) for name in names)
    not_null: ast.Expr | None = None
    for ref in refs:
        part = ast.IsNull(ref, True, span)
        not_null = part if not_null is None else ast.BinaryOp("and", not_null, part, span, span)
    count = ast.FunctionCall(
        ast.Identifier("count", False, span), (), False, True, None, None, span
    )
    several = ast.BinaryOp(">", count, ast.NumberLiteral("1", "integer", span), span, span)
    one = (ast.ExprItem(ast.NumberLiteral("1", "integer", span), None, span),)
    groups = ast.Select(
        False,
        None,
        one,
        (rows,),
        not_null,
        ast.Clause(refs, span),
        ast.Clause((several,), span),
        (),
        None,
        None,
        span,
    )
    repeated = ast.DerivedTable(
        ast.Query((), None, groups, (), None, None, span),
        False,
        ast.Identifier("unique$repeated", True, span),
        (),
        span,
    )
    exists = ast.Select(False, None, one, (repeated,), None, None, None, (), None, None, span)
    found = ast.Exists(ast.Query((), None, exists, (), None, None, span), span)
    return ast.UnaryOp("not", found, span)


def _width(query: ast.QueryBody) -> int | None:
    """The number of columns of a query, by its text; None where `*` hides it."""
    match query:
        case ast.Query():
            return _width(query.body)
        case ast.SetOperation():
            return _width(query.left)
        case ast.Values():
            return len(query.rows[0]) if query.rows else None
        case ast.Select():
            if any(isinstance(item, ast.StarItem) for item in query.items):
                return None
            return len(query.items)
    return None


def _binary_literal(c: Cursor, token: Token) -> ast.TypedLiteral:
    """`x'45F0AB'`, and a literal of parts: `x'AB' 'CD'` (strings after the first part)."""
    c.advance()
    digits = c.advance().value
    while c.current.kind is TokenKind.STRING:
        digits += c.advance().value
    return ast.TypedLiteral("binary", digits, Span(token.start, c.previous_end))


def _keyword_expression(c: Cursor, token: Token) -> ast.Expr | None:
    word = token.value
    following = c.peek()
    if word in ("true", "false"):
        c.advance()
        return ast.BooleanLiteral(word == "true", token.span)
    if word == "null":
        c.advance()
        return ast.NullLiteral(token.span)
    if word == "case":
        return _case(c)
    if word == "cast" or (word in (*SAFE_CASTS, "convert") and following.is_symbol("(")):
        return _cast(c)
    if word == "exists":
        c.advance()
        c.expect_symbol("(")
        query = query_parser.parse_query(c)
        c.expect_symbol(")")
        return ast.Exists(query, Span(token.start, c.previous_end))
    if word == "unique" and following.is_symbol("(") and c.peek(2).value in _QUERY_START:
        return _unique(c, token)
    if word == "x" and following.kind is TokenKind.STRING and following.start == token.end:
        return _binary_literal(c, token)
    if word == "e" and following.kind is TokenKind.STRING and following.start == token.end:
        c.advance()  # E'a\tb': a string with C-like backslash escapes (PostgreSQL's)
        text = _unescaped(c.advance().value)
        return ast.StringLiteral(text, Span(token.start, c.previous_end))
    if word in _TYPED_LITERALS and following.kind is TokenKind.STRING:
        c.advance()
        value = c.advance().value
        return ast.TypedLiteral(_TYPED_LITERALS[word], value, Span(token.start, c.previous_end))
    if word == "interval" and (
        following.kind in (TokenKind.STRING, TokenKind.INTEGER, TokenKind.DECIMAL)
        or following.is_symbol("-")
        or following.is_symbol("+")
        or _at_interval_of(c)
    ):
        return _interval(c)
    if word == "table" and is_identifier(following):
        c.advance()
        name = c.expect_identifier("a table name")
        partition = _partition_by(c) if c.accept_words("partition", "by") else ()
        return ast.TableArg(name, Span(token.start, c.previous_end), partition)
    if word in ("left", "right") and following.is_symbol("("):  # LEFT(s, n), not LEFT JOIN
        return parse_function_call(c)
    if (
        word == "array"
        and following.is_symbol("(")
        and c.peek(2).kind is TokenKind.WORD
        and (c.peek(2).value in _QUERY_START)
    ):
        c.advance()
        subquery = _parenthesized(c)
        assert isinstance(subquery, ast.Subquery)
        return ast.ArraySubquery(subquery.query, Span(token.start, c.previous_end))
    if word == "array" and following.is_symbol("["):  # ARRAY[1, 2, 3]: the `array` function
        c.advance()
        c.advance()
        items = () if c.at_symbol("]") else parse_expr_list(c)
        c.expect_symbol("]")
        name = ast.Identifier("array", False, token.span)
        span = Span(token.start, c.previous_end)
        return ast.FunctionCall(name, items, False, False, None, None, span)
    if word == "map" and following.is_symbol("["):
        c.advance()
        c.advance()
        items = () if c.at_symbol("]") else parse_expr_list(c)
        c.expect_symbol("]")
        return ast.MapConstructor(items, Span(token.start, c.previous_end))
    return None


def _partition_by(c: Cursor) -> tuple[ast.Identifier, ...]:
    """Flink's `TABLE t PARTITION BY k1, k2` (or `(k1, k2)`): column names. Without
    parentheses the list ends before a comma followed by anything but a plain name
    (`DESCRIPTOR(ts)`, a literal, `name =>`), the table function's next argument."""
    if c.accept_symbol("("):
        names = [c.expect_identifier("a column name")]
        while c.accept_symbol(","):
            names.append(c.expect_identifier("a column name"))
        c.expect_symbol(")")
        return tuple(names)
    names = [c.expect_identifier("a column name")]
    while (
        c.at_symbol(",")
        and is_identifier(c.peek())
        and (c.peek(2).is_symbol(",") or c.peek(2).is_symbol(")"))
    ):
        c.advance()
        names.append(c.expect_identifier("a column name"))
    return tuple(names)


def _parenthesized(c: Cursor) -> ast.Expr:
    start = c.expect_symbol("(").start
    if c.at_word(*_QUERY_START):
        query = query_parser.parse_query(c)
        c.expect_symbol(")")
        return ast.Subquery(query, Span(start, c.previous_end))
    inner = parse_expr(c)
    if c.accept_symbol(","):
        items = (inner, *parse_expr_list(c))
        c.expect_symbol(")")
        return ast.RowConstructor(items, Span(start, c.previous_end))
    c.expect_symbol(")")
    # The parentheses belong to the expression's span: `(a + b) * 2` must cover them.
    inner = replace(inner, span=Span(start, c.previous_end))
    if isinstance(inner, ast.BinaryOp) and inner.op == "-" and c.at_word(*INTERVAL_UNITS):
        start_unit = _interval_unit(c)  # (t1 - t2) DAY: an interval, not an alias
        end_unit = _interval_unit(c) if c.accept_word("to") else None
        return ast.DatetimeInterval(inner, start_unit, end_unit, Span(start, c.previous_end))
    return inner


def parse_column_ref(c: Cursor) -> ast.ColumnRef:
    """`col`, `t.col`, ... (not `t.*`: the star is the select list's)."""
    parts = [c.expect_identifier("a column name")]
    while c.at_symbol(".") and not c.peek().is_symbol("*"):
        c.advance()
        parts.append(c.expect_identifier("a column name"))
    return ast.ColumnRef(tuple(parts), parts[0].span.to(parts[-1].span))


def _case(c: Cursor) -> ast.Case:
    start = c.expect_word("case").start
    operand = None if c.at_word("when") else parse_expr(c)
    whens: list[ast.WhenClause] = []
    while c.at_word("when"):
        when_start = c.advance().start
        conditions = [parse_expr(c)]
        while operand is not None and c.accept_symbol(","):  # CASE x WHEN 1, 2 THEN (Calcite's)
            conditions.append(parse_expr(c))
        c.expect_word("then")
        result = parse_expr(c)
        span = Span(when_start, result.span.end)
        whens.extend(ast.WhenClause(condition, result, span) for condition in conditions)
    if not whens:
        c.fail("WHEN")
    else_ = parse_expr(c) if c.accept_word("else") else None
    c.expect_word("end")
    return ast.Case(operand, tuple(whens), else_, Span(start, c.previous_end))


# Feldera's and BigQuery's SAFE_CAST, DuckDB's and Spark's TRY_CAST: NULL for a value
# that does not convert, where CAST fails the step.
SAFE_CASTS = ("safe_cast", "try_cast")


def _cast(c: Cursor) -> ast.Cast:
    """CAST(x AS type), SAFE_CAST / TRY_CAST(x AS type), and CONVERT(x, type) (Feldera's
    other spelling of CAST)."""
    keyword = c.advance()
    c.expect_symbol("(")
    operand = parse_expr(c)
    if keyword.value == "convert":
        c.expect_symbol(",")
    else:
        c.expect_word("as")
    type_name = parse_type_name(c)
    c.expect_symbol(")")
    safe = keyword.value in SAFE_CASTS
    return ast.Cast(operand, type_name, Span(keyword.start, c.previous_end), safe)


def _interval(c: Cursor) -> ast.IntervalLiteral | ast.IntervalOf:
    start = c.expect_word("interval").start
    negative = False
    if c.at_symbol("-", "+"):
        negative = c.advance().value == "-"
    if c.current.kind in (TokenKind.INTEGER, TokenKind.DECIMAL):
        value = c.advance().value  # Spark's INTERVAL 1 HOUR, without quotes
    elif c.current.kind is TokenKind.STRING:
        value = c.advance().value
    else:  # INTERVAL t.n HOUR: that many hours (Feldera's)
        amount = _primary(c)
        if negative:
            amount = ast.UnaryOp("-", amount, Span(start, c.previous_end))
        if c.at_word(*MULTIPLE_UNITS):
            unit, times = MULTIPLE_UNITS[c.advance().value]
            count = ast.NumberLiteral(str(times), "integer", Span(start, c.previous_end))
            amount = ast.BinaryOp("*", amount, count, count.span, Span(start, c.previous_end))
        else:
            unit = _interval_unit(c)
        return ast.IntervalOf(amount, unit, Span(start, c.previous_end))
    if c.at_word(*MULTIPLE_UNITS):  # INTERVAL '2' WEEK: 14 days
        unit, times = MULTIPLE_UNITS[c.advance().value]
        try:
            value = str(decimal.Decimal(value.strip()) * times)
        except decimal.InvalidOperation:
            c.fail(f"a number of {unit}s times {times}")
        return ast.IntervalLiteral(value, negative, unit, None, Span(start, c.previous_end))
    start_unit = _interval_unit(c)
    end_unit = _interval_unit(c) if c.accept_word("to") else None
    return ast.IntervalLiteral(value, negative, start_unit, end_unit, Span(start, c.previous_end))


def _at_interval_of(c: Cursor) -> bool:
    """At `INTERVAL t.n HOUR`, `INTERVAL n HOUR` or `INTERVAL (...) HOUR`, not at a
    column named interval."""
    following, after = c.peek(), c.peek(2)
    if following.is_symbol("("):
        return True
    return is_identifier(following) and (
        after.is_symbol(".")
        or (after.kind is TokenKind.WORD and after.value in {*INTERVAL_UNITS, *MULTIPLE_UNITS})
    )


def _interval_unit(c: Cursor) -> str:
    token = c.current
    if token.kind is TokenKind.WORD and token.value in INTERVAL_UNITS:
        c.advance()
        return INTERVAL_UNITS[token.value]
    c.fail(_UNITS_EXPECTED)


# ---------------------------------------------------------------- function calls


def parse_function_call(c: Cursor) -> ast.Expr:
    if c.at_word("left", "right"):  # reserved words (LEFT JOIN), and functions
        token = c.advance()
        name = ast.Identifier(token.value, False, token.span)
    else:
        name = c.expect_identifier("a function name")
    c.expect_symbol("(")
    lowered = name.value.lower()
    if lowered == "extract" and not name.quoted:
        unit = c.expect_identifier("a date or time field such as HOUR").value
        c.expect_word("from")
        operand = parse_expr(c)
        c.expect_symbol(")")
        return ast.Extract(unit, operand, Span(name.span.start, c.previous_end))
    if lowered in _KEYWORD_ARGUMENTS and not name.quoted:
        name, written = _KEYWORD_ARGUMENTS[lowered](c, name)
        c.expect_symbol(")")
        span = Span(name.span.start, c.previous_end)
        return ast.FunctionCall(name, written, False, False, None, None, span)
    distinct = c.accept_word("distinct") is not None
    if not distinct:
        c.accept_word("all")
    star = False
    args: tuple[ast.Expr, ...] = ()
    if c.at_symbol("*"):
        c.advance()
        star = True
    elif not c.at_symbol(")"):
        args = _arguments(c)
    order_by: tuple[ast.OrderItem, ...] = ()
    # ARRAY_AGG(x IGNORE NULLS ORDER BY y), as Feldera writes it
    ignored_before_order = bool(args) and _null_treatment(c)
    if args and c.at_word("order"):  # an aggregate's order: STRING_AGG(x, ',' ORDER BY y)
        c.advance()
        c.expect_word("by")
        order_by = parse_order_items(c)
    if lowered in ("floor", "ceil", "ceiling") and len(args) == 1 and c.accept_word("to"):
        unit = c.expect_identifier("a time unit such as HOUR").value
        c.expect_symbol(")")
        function: Literal["floor", "ceil"] = "floor" if lowered == "floor" else "ceil"
        return ast.FloorCeil(function, args[0], unit, Span(name.span.start, c.previous_end))
    # LAG(x IGNORE NULLS), as DuckDB and Spark write it
    ignore_nulls = _null_treatment(c) or ignored_before_order
    c.expect_symbol(")")
    if not order_by and c.at_word("within") and c.peek().is_word("group"):
        c.advance()  # LISTAGG(x, ',') WITHIN GROUP (ORDER BY y), as in Calcite and Oracle
        c.advance()
        c.expect_symbol("(")
        c.expect_word("order")
        c.expect_word("by")
        order_by = parse_order_items(c)
        c.expect_symbol(")")
    ignore_nulls = _null_treatment(c) or ignore_nulls  # LAG(x) IGNORE NULLS, as Calcite
    filter_ = None
    if c.at_word("filter") and c.peek().is_symbol("("):
        c.advance()
        c.advance()
        c.expect_word("where")
        filter_ = parse_expr(c)
        c.expect_symbol(")")
    over: ast.WindowSpec | ast.Identifier | None = None
    if c.accept_word("over"):
        over = parse_over(c)
    span = Span(name.span.start, c.previous_end)
    return ast.FunctionCall(name, args, distinct, star, filter_, over, span, order_by, ignore_nulls)


def _null_treatment(c: Cursor) -> bool:
    """Whether `IGNORE NULLS` is next (consumed, as is `RESPECT NULLS`, the default)."""
    if c.at_word("ignore", "respect") and c.peek().is_word("nulls"):
        ignored = c.advance().value == "ignore"
        c.advance()
        return ignored
    return False


def _substring(c: Cursor, name: ast.Identifier) -> tuple[ast.Identifier, tuple[ast.Expr, ...]]:
    """SUBSTRING(s FROM start [FOR length]), SUBSTRING(s FOR length) (from 1), or the
    plain SUBSTRING(s, start[, length])."""
    args = [parse_expr(c)]
    if c.accept_word("from"):
        args.append(parse_expr(c))
        if c.accept_word("for"):
            args.append(parse_expr(c))
    elif c.at_word("for"):
        one = ast.NumberLiteral("1", "integer", c.advance().span)
        args.extend((one, parse_expr(c)))
    elif c.accept_symbol(","):
        args.extend(_arguments(c))
    return name, tuple(args)


def _overlay(c: Cursor, name: ast.Identifier) -> tuple[ast.Identifier, tuple[ast.Expr, ...]]:
    """OVERLAY(s PLACING r FROM start [FOR length]): as overlay(s, r, start[, length])."""
    args = [parse_expr(c)]
    c.expect_word("placing")
    args.append(parse_expr(c))
    c.expect_word("from")
    args.append(parse_expr(c))
    if c.accept_word("for"):
        args.append(parse_expr(c))
    return name, tuple(args)


def _position(c: Cursor, name: ast.Identifier) -> tuple[ast.Identifier, tuple[ast.Expr, ...]]:
    """POSITION(needle IN haystack [FROM start]): the needle binds tighter than IN."""
    needle = parse_expr(c, CONCAT)
    if not c.accept_symbol(","):
        c.expect_word("in")
    haystack = parse_expr(c)
    if c.accept_word("from") or c.accept_symbol(","):
        return name, (needle, haystack, parse_expr(c))
    return name, (needle, haystack)


def _trim(c: Cursor, name: ast.Identifier) -> tuple[ast.Identifier, tuple[ast.Expr, ...]]:
    """TRIM([BOTH | LEADING | TRAILING] [characters] FROM s), or TRIM(s): as trim, ltrim
    or rtrim of (s[, characters])."""
    side = "trim"
    if c.accept_word("leading"):
        side = "ltrim"
    elif c.accept_word("trailing"):
        side = "rtrim"
    else:
        c.accept_word("both")
    characters = None if c.at_word("from") else parse_expr(c)
    if c.accept_word("from"):
        text = parse_expr(c)
    elif characters is not None:
        text, characters = characters, None
    else:
        c.fail("a string")
    args = (text,) if characters is None else (text, characters)
    return ast.Identifier(side, False, name.span), args


_KEYWORD_ARGUMENTS = {
    "substring": _substring,
    "substr": _substring,
    "position": _position,
    "trim": _trim,
    "overlay": _overlay,
}


def _arguments(c: Cursor) -> tuple[ast.Expr, ...]:
    """Function arguments, positional or named (`SIZE => INTERVAL '1' HOUR`)."""
    items = [_argument(c)]
    while c.accept_symbol(","):
        items.append(_argument(c))
    return tuple(items)


def _argument(c: Cursor) -> ast.Expr:
    token = c.current
    arrow, head = c.peek(), c.peek(2)
    if (  # `x -> body`: a lambda (TRANSFORM's, ARRAY_EXISTS')
        is_identifier(token)
        and arrow.is_symbol("-")
        and head.is_symbol(">")
        and arrow.end == head.start
    ):
        param = c.expect_identifier("a lambda's parameter")
        c.advance()
        c.advance()
        body = parse_expr(c)
        return ast.Lambda(param, body, Span(param.span.start, c.previous_end))
    # A parameter's name may be a reserved word too: `OFFSET => INTERVAL '5' MINUTE`.
    if token.kind in (TokenKind.WORD, TokenKind.QUOTED) and c.peek().is_symbol("=>"):
        c.advance()
        c.advance()
        name = ast.Identifier(token.value, token.kind is TokenKind.QUOTED, token.span)
        value = parse_expr(c)
        return ast.NamedArgument(name, value, name.span.to(value.span))
    return parse_expr(c)


def parse_over(c: Cursor) -> ast.WindowSpec | ast.Identifier:
    """What follows OVER: a window name or a parenthesized window specification."""
    if c.at_symbol("("):
        return parse_window_spec(c)
    name = c.expect_identifier("a window name or '('")
    if not c.at_symbol("("):
        return name
    refined = parse_window_spec(c)  # OVER w (RANGE ...): w, refined
    return ast.WindowSpec(
        name, refined.partition_by, refined.order_by, refined.frame, name.span.to(refined.span)
    )


def parse_window_spec(c: Cursor) -> ast.WindowSpec:
    start = c.expect_symbol("(").start
    base = None
    if c.at_identifier() and not c.at_word("partition", "order", "rows", "range"):
        base = c.expect_identifier()
    partition_by: tuple[ast.Expr, ...] = ()
    order_by: tuple[ast.OrderItem, ...] = ()
    # Calcite writes ORDER BY before PARTITION BY; the standard, after. Take either.
    for _ in range(2):
        if not partition_by and c.accept_words("partition", "by"):
            partition_by = parse_expr_list(c)
        elif not order_by and c.accept_words("order", "by"):
            order_by = parse_order_items(c)
    frame = _frame(c) if c.at_word("rows", "range") else None
    c.expect_symbol(")")
    return ast.WindowSpec(base, partition_by, order_by, frame, Span(start, c.previous_end))


def _frame(c: Cursor) -> ast.WindowFrame:
    token = c.advance()
    unit: Literal["rows", "range"] = "rows" if token.value == "rows" else "range"
    if c.accept_word("between"):
        first = _frame_bound(c)
        c.expect_word("and")
        second: ast.FrameBound | None = _frame_bound(c)
    else:
        first, second = _frame_bound(c), None
    return ast.WindowFrame(unit, first, second, Span(token.start, c.previous_end))


def _frame_bound(c: Cursor) -> ast.FrameBound:
    start = c.current.start
    if c.accept_word("unbounded"):
        if c.accept_word("preceding"):
            return ast.FrameBound("unbounded preceding", None, Span(start, c.previous_end))
        c.expect_word("following")
        return ast.FrameBound("unbounded following", None, Span(start, c.previous_end))
    if c.accept_words("current", "row"):
        return ast.FrameBound("current row", None, Span(start, c.previous_end))
    offset = parse_expr(c, CONCAT)
    if c.accept_word("preceding"):
        return ast.FrameBound("preceding", offset, Span(start, c.previous_end))
    c.expect_word("following")
    return ast.FrameBound("following", offset, Span(start, c.previous_end))


def parse_order_items(c: Cursor) -> tuple[ast.OrderItem, ...]:
    items = []
    while True:
        expr = parse_expr(c)
        descending = False
        if c.accept_word("desc"):
            descending = True
        else:
            c.accept_word("asc")
        nulls: Literal["first", "last"] | None = None
        if c.accept_word("nulls"):
            nulls = "first" if c.accept_word("first") else None
            if nulls is None:
                c.expect_word("last")
                nulls = "last"
        items.append(ast.OrderItem(expr, descending, nulls, Span(expr.span.start, c.previous_end)))
        if not c.accept_symbol(","):
            return tuple(items)


# ---------------------------------------------------------------- types


def parse_type_name(c: Cursor) -> ast.TypeName:
    """A type as written; whether it exists is the binder's question (SQL208)."""
    token = c.current
    if token.kind is not TokenKind.WORD:
        c.fail("a type name")
    c.advance()
    words = [token.value]
    first = token.value
    if first == "double" and c.accept_word("precision"):
        words.append("precision")
    elif first in ("character", "char", "binary") and c.accept_word("varying"):
        words.append("varying")
    elif first == "interval":
        words.append(_interval_unit(c))
        if c.accept_word("to"):
            words.extend(("to", _interval_unit(c)))
    params: list[int] = []
    fields: list[ast.FieldDecl] = []
    map_types: tuple[ast.TypeName, ...] = ()
    if first == "map" and c.accept_symbol("<"):  # MAP<VARCHAR, INT>, as Feldera writes it
        key = parse_type_name(c)
        c.expect_symbol(",")
        map_types = (key, parse_type_name(c))
        c.expect_symbol(">")
    elif first == "row" and c.at_symbol("(") and is_identifier(c.peek()):
        c.advance()  # ROW(a INT, b VARCHAR NULL)
        fields.append(field_decl(c))
        while c.accept_symbol(","):
            fields.append(field_decl(c))
        c.expect_symbol(")")
    elif c.accept_symbol("("):
        params.append(c.expect_integer("a type parameter (an integer)"))
        while c.accept_symbol(","):
            params.append(c.expect_integer("a type parameter (an integer)"))
        c.expect_symbol(")")
    if first in ("timestamp", "time") and c.at_word("with", "without") and c.peek().is_word("time"):
        words.append(c.advance().value)
        c.expect_word("time")
        c.expect_word("zone")
        words.extend(("time", "zone"))
    arrays = 0
    while c.accept_word("array"):  # `INT ARRAY`, as Feldera and Calcite write it
        arrays += 1
    span = Span(token.start, c.previous_end)
    return ast.TypeName(tuple(words), tuple(params), span, arrays, tuple(fields), map_types)


def field_decl(c: Cursor, nullable: bool = False) -> ast.FieldDecl:
    """`name TYPE [NULL | NOT NULL]`: a field of a ROW type, NOT NULL unless it says NULL
    (Feldera's), or with `nullable` a CREATE TYPE's, nullable unless NOT NULL."""
    name = c.expect_identifier("a field name")
    type_name = parse_type_name(c)
    if c.accept_word("null"):
        nullable = True
    elif c.accept_word("not"):
        c.expect_word("null")
        nullable = False
    return ast.FieldDecl(name, type_name, nullable)
