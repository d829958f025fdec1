"""The tokenizer: program text to tokens, never raising.

Unquoted words are lower-cased (SQL identifiers and keywords are case-insensitive);
"quoted" identifiers keep their case. A character that cannot start a token, an
unterminated string, quoted identifier or comment becomes a diagnostic plus an
ERROR token: the parser stays silent at ERROR tokens, so the user sees one
message per mistake.
"""

from __future__ import annotations

import re
from enum import Enum
from typing import NamedTuple

from backend.compiler.diagnostics import Code, Diagnostic, error
from backend.compiler.source import Span


class TokenKind(Enum):
    WORD = "word"  # keyword or unquoted identifier, value lower-cased
    QUOTED = "quoted identifier"  # "Name", value unescaped and case kept
    STRING = "string"  # 'text', value unescaped
    INTEGER = "integer"
    DECIMAL = "decimal"  # 1.5, .5, 1.
    FLOAT = "float"  # 1e3, 1.5E-2
    SYMBOL = "symbol"
    ERROR = "error"  # already reported by the tokenizer
    EOF = "end of input"


class Token(NamedTuple):
    """One token. A NamedTuple rather than a dataclass: there is one per word of
    the program and it is created on every keystroke, so creation speed matters."""

    kind: TokenKind
    value: str
    text: str  # the source text, for messages
    start: int
    end: int

    @property
    def span(self) -> Span:
        return Span(self.start, self.end)

    def is_word(self, word: str) -> bool:
        return self.kind is TokenKind.WORD and self.value == word

    def is_symbol(self, symbol: str) -> bool:
        return self.kind is TokenKind.SYMBOL and self.value == symbol


# Words that can never be an unquoted identifier: they would make the grammar
# ambiguous (an alias after a FROM item or a select item, a column in an
# expression). Everything else (DATE, KEY, LATENESS, TIMESTAMP, ...) is a keyword
# only where the grammar expects it.
# fmt: off
RESERVED = frozenset((
    "all", "and", "as", "asof", "between", "by", "case", "cast", "create", "cross", "distinct",
    "else", "end", "escape", "except", "exists", "false", "fetch", "for", "from", "full", "group",
    "having", "in", "inner", "insert", "intersect", "into", "is", "join", "lateral", "left",
    "like", "limit", "match_condition", "natural", "not", "null", "offset", "on", "or", "order",
    "outer", "qualify", "right", "select", "stream", "table", "then", "true", "union", "using",
    "values", "when", "where", "window", "with",
))
# fmt: on

# One match per token: leading whitespace is part of the match, so the loop in
# `tokenize` runs once per token, not once per token and once per gap.
_TOKEN = re.compile(
    r"""
    [\s\ufeff]*
    (?:
      (?P<word>[^\W\d][\w$]*)
    | (?P<number>(?:\d+(?P<dot>\.\d*)?|(?P<lead_dot>\.\d+))(?P<exponent>[eE][+-]?\d+)?)
    | (?P<string>'[^']*(?:''[^']*)*(?P<string_end>')?)
    | (?P<quoted>"[^"]*(?:""[^"]*)*(?P<quoted_end>")?)
    | (?P<line_comment>--[^\r\n]*)
    | (?P<block_comment>/\*(?:.*?\*/|.*))
    # after comments and numbers (-- /* .5); `::` is PostgreSQL's cast
    | (?P<symbol><=>|<>|!=|<=|>=|=>|\|\||::|[-+*/%=<>(),.;\[\]?])
    | (?P<end>\Z)
    | (?P<invalid>.)
    )
    """,
    re.VERBOSE | re.DOTALL,
)


# What can hide a `;` from the tokenizer (strings, quoted identifiers, comments:
# the same patterns as in `_TOKEN`), or a `;`. No other token contains any of
# ' " -- /* ;, so the `;` found here are exactly the tokenizer's `;` tokens.
_HIDING_OR_SEMICOLON = re.compile(
    r"""'[^']*(?:''[^']*)*'?|"[^"]*(?:""[^"]*)*"?|--[^\r\n]*|/\*(?:.*?\*/|.*)|;""", re.DOTALL
)


def semicolon_ends(text: str) -> list[int]:
    """The offset just after each `;` token of `text`, without tokenizing it.

    >>> semicolon_ends("a; 'b;' -- c;\\nd;")
    [2, 16]
    """
    return [match.end() for match in _HIDING_OR_SEMICOLON.finditer(text) if match.group() == ";"]


def tokenize(
    text: str, start: int = 0, end: int | None = None
) -> tuple[tuple[Token, ...], tuple[Diagnostic, ...]]:
    """Split `text[start:end]` into tokens ending with one EOF token; offsets are `text`'s.

    >>> [t.value for t in tokenize("SELECT \\"Id\\", 'it''s' -- hi")[0]]
    ['select', 'Id', ',', "it's", '']
    >>> [(t.value, t.start) for t in tokenize("a; b", 2)[0]]
    [('b', 3), ('', 4)]
    >>> [t.value for t in tokenize("'foo'\\n  'bar' 'baz'")[0]]
    ['foobar', 'baz', '']
    """
    tokens: list[Token] = []
    diagnostics: list[Diagnostic] = []
    append = tokens.append
    for match in _TOKEN.finditer(text, start, len(text) if end is None else end):
        kind = match.lastgroup
        assert kind is not None, "the pattern always matches one named alternative"
        start, end = match.span(kind)
        raw = match.group(kind)
        if kind == "word":
            append(Token(TokenKind.WORD, raw.lower(), raw, start, end))
        elif kind == "symbol":
            append(Token(TokenKind.SYMBOL, raw, raw, start, end))
        elif kind == "number":
            append(Token(_number_kind(match), raw, raw, start, end))
        elif kind == "string":
            token = _quoted_token(match, "string_end", TokenKind.STRING, diagnostics)
            previous = tokens[-1] if tokens else None
            if (
                token.kind is TokenKind.STRING
                and previous is not None
                and previous.kind is TokenKind.STRING
                and "\n" in text[previous.end : token.start]
            ):  # 'foo'<newline>'bar' is 'foobar', as SQL (and Feldera) have it
                value = previous.value + token.value
                merged = text[previous.start : token.end]
                token = Token(TokenKind.STRING, value, merged, previous.start, token.end)
                tokens.pop()
            append(token)
        elif kind == "quoted":
            append(_quoted_token(match, "quoted_end", TokenKind.QUOTED, diagnostics))
        elif kind == "block_comment" and (len(raw) < 4 or not raw.endswith("*/")):
            message = "Unterminated comment: '/*' without '*/'"
            diagnostics.append(error(Code.UNTERMINATED, message, Span(start, start + 2)))
            append(Token(TokenKind.ERROR, raw, raw, start, end))
        elif kind == "invalid":
            message = f"Invalid character {raw!r}"
            diagnostics.append(error(Code.INVALID_CHARACTER, message, Span(start, end)))
            append(Token(TokenKind.ERROR, raw, raw, start, end))
        elif kind == "end":
            break
    eof_at = tokens[-1].end if tokens else start
    tokens.append(Token(TokenKind.EOF, "", "", eof_at, eof_at))
    return tuple(tokens), tuple(diagnostics)


def _number_kind(match: re.Match[str]) -> TokenKind:
    if match.group("exponent"):
        return TokenKind.FLOAT
    if match.group("dot") or match.group("lead_dot"):
        return TokenKind.DECIMAL
    return TokenKind.INTEGER


def _quoted_token(
    match: re.Match[str], end_group: str, kind: TokenKind, diagnostics: list[Diagnostic]
) -> Token:
    group = "string" if kind is TokenKind.STRING else "quoted"
    raw = match.group(group)
    start, end = match.span(group)
    quote = raw[0]
    if match.group(end_group) is None:
        what = "string" if kind is TokenKind.STRING else "quoted identifier"
        diagnostics.append(
            error(
                Code.UNTERMINATED,
                f"Unterminated {what}: {quote} without a closing {quote}",
                Span(start, start + 1),
            )
        )
        return Token(TokenKind.ERROR, raw, raw, start, end)
    value = raw[1:-1].replace(quote * 2, quote)
    if kind is TokenKind.QUOTED and not value:
        diagnostics.append(
            error(
                Code.EMPTY_IDENTIFIER, 'A quoted identifier cannot be empty: ""', Span(start, end)
            )
        )
        return Token(TokenKind.ERROR, raw, raw, start, end)
    return Token(kind, value, raw, start, end)
