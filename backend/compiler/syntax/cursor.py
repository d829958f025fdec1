"""A cursor over the token stream shared by the parser modules.

A syntax error records one SQL101 diagnostic and raises `ParseAbort`; the
statement loop in `parser.py` catches it and skips to the next statement, so the
exception never leaves the parser. Errors at ERROR tokens are not recorded again:
the tokenizer already explained them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn

from backend.compiler.diagnostics import Code, Diagnostic, error
from backend.compiler.source import Span
from backend.compiler.suggest import Budget
from backend.compiler.syntax.ast import Identifier
from backend.compiler.syntax.tokens import RESERVED, Token, TokenKind

# Python's recursion limit is 1000 frames and one nesting level of the grammar
# costs a handful of them, so deeper programs get a diagnostic instead of a crash.
MAX_NESTING = 100


class ParseAbort(Exception):
    """Internal: unwinds to the statement loop after a syntax error was recorded."""


class Cursor:
    def __init__(
        self, tokens: tuple[Token, ...], suggestions: Budget | None = None, origin: int = 0
    ) -> None:
        self.tokens = tokens
        # Where the text before the first token ends: the end of the previous `;`
        # when a piece of a program is parsed on its own (compiler/cache.py).
        self.origin = origin
        # The keyword or symbol each token spells (None for names, literals, EOF):
        # one list lookup answers "is the next token FROM?" on the hot paths.
        self.keys: list[str | None] = [
            token.value if token.kind in (TokenKind.WORD, TokenKind.SYMBOL) else None
            for token in tokens
        ]
        self.pos = 0
        # What the optional clauses tried at `expected_at` wanted (FROM, WHERE, ...):
        # when a statement ends early, they say what could have come next.
        self.expected_at = -1
        self.expected: list[str] = []
        self.diagnostics: list[Diagnostic] = []
        self.suggestions = Budget() if suggestions is None else suggestions
        self.nesting = 0
        # Set by CREATE statements once their name is parsed, so that a statement
        # abandoned later still declares its relation (see IncompleteStatement).
        self.declared: Identifier | None = None
        self.declared_function: Identifier | None = None  # a CREATE FUNCTION's name

    # ------------------------------------------------------------ looking

    @property
    def current(self) -> Token:
        return self.tokens[self.pos]

    def peek(self, ahead: int = 1) -> Token:
        return self.tokens[min(self.pos + ahead, len(self.tokens) - 1)]

    @property
    def previous_end(self) -> int:
        return self.tokens[self.pos - 1].end if self.pos else self.origin

    def at_word(self, *words: str) -> bool:
        return self.keys[self.pos] in words

    def at_symbol(self, *symbols: str) -> bool:
        return self.keys[self.pos] in symbols

    def at_eof(self) -> bool:
        return self.tokens[self.pos].kind is TokenKind.EOF

    def at_identifier(self) -> bool:
        return is_identifier(self.tokens[self.pos])

    # ------------------------------------------------------------ consuming

    def advance(self) -> Token:
        token = self.tokens[self.pos]
        if token.kind is not TokenKind.EOF:
            self.pos += 1
        return token

    def accept_word(self, word: str) -> Token | None:
        if self.keys[self.pos] == word:
            self.pos += 1
            return self.tokens[self.pos - 1]
        self._note(word.upper())
        return None

    def accept_words(self, *words: str) -> Span | None:
        """Consume a sequence of words (`GROUP BY`) if all of them are next."""
        keys = self.keys
        for offset, word in enumerate(words):
            if self.pos + offset >= len(keys) or keys[self.pos + offset] != word:
                self._note(" ".join(words).upper())
                return None
        start = self.current.start
        for _ in words:
            self.advance()
        return Span(start, self.previous_end)

    def accept_symbol(self, symbol: str) -> Token | None:
        if self.keys[self.pos] == symbol:
            self.pos += 1
            return self.tokens[self.pos - 1]
        self._note(f"'{symbol}'")
        return None

    def _note(self, alternative: str) -> None:
        if self.expected_at != self.pos:
            self.expected_at = self.pos
            self.expected = []
        self.expected.append(alternative)

    def alternatives_here(self) -> list[str]:
        """The optional keywords and symbols tried at the current token, in order."""
        if self.expected_at != self.pos:
            return []
        return list(dict.fromkeys(self.expected))

    def expect_word(self, word: str) -> Token:
        if self.at_word(word):
            return self.advance()
        self.fail(word.upper())

    def expect_symbol(self, symbol: str) -> Token:
        if self.at_symbol(symbol):
            return self.advance()
        self.fail(f"'{symbol}'")

    def expect_identifier(self, what: str = "an identifier") -> Identifier:
        token = self.current
        if is_identifier(token):
            self.advance()
            return Identifier(token.value, token.kind is TokenKind.QUOTED, token.span)
        self.fail(what)

    def expect_string(self, what: str = "a string literal") -> Token:
        if self.current.kind is TokenKind.STRING:
            return self.advance()
        self.fail(what)

    def expect_integer(self, what: str = "an integer") -> int:
        if self.current.kind is TokenKind.INTEGER:
            digits = self.advance().value.lstrip("0") or "0"
            # Anything this long is out of range for every use; the caller says so.
            return int(digits) if len(digits) <= 18 else 10**18
        self.fail(what)

    # ------------------------------------------------------------ errors

    def fail(self, *expected: str) -> NoReturn:
        """Report that one of `expected` should come next, then abandon the statement."""
        self.report(f"Expected {one_of(expected)}, found {describe(self.current)}")
        raise ParseAbort

    def report(self, message: str, span: Span | None = None, hint: str | None = None) -> None:
        token = self.current
        if token.kind is TokenKind.ERROR and span is None:
            return
        diagnostic = error(Code.UNEXPECTED_TOKEN, message, span or token.span, hint=hint)
        self.diagnostics.append(diagnostic)

    def enter(self) -> None:
        """Count one level of grammar nesting; give up past MAX_NESTING."""
        self.nesting += 1
        if self.nesting > MAX_NESTING:
            self.diagnostics.append(
                error(
                    Code.TOO_DEEP,
                    f"Nesting deeper than {MAX_NESTING} levels is not supported",
                    self.current.span,
                )
            )
            raise ParseAbort

    def leave(self) -> None:
        self.nesting -= 1


def is_identifier(token: Token) -> bool:
    if token.kind is TokenKind.QUOTED:
        return True
    return token.kind is TokenKind.WORD and token.value not in RESERVED


def describe(token: Token) -> str:
    """How a token is named in a message: `keyword FROM`, `identifier 'x'`, ..."""
    kind = token.kind
    if kind is TokenKind.EOF:
        return "end of input"
    if kind is TokenKind.WORD:
        if token.value in RESERVED:
            return f"keyword {token.value.upper()}"
        return f"'{token.text}'"
    if kind is TokenKind.QUOTED:
        return f"identifier {token.text}"
    if kind is TokenKind.STRING:
        text = token.text if len(token.text) <= 30 else token.text[:27] + "...'"
        return f"string {text}"
    if kind in (TokenKind.INTEGER, TokenKind.DECIMAL, TokenKind.FLOAT):
        return f"number {token.text}"
    return f"'{token.text}'"


def one_of(expected: Sequence[str], limit: int = 7) -> str:
    """`A`, `A or B`, `A, B or C`; long lists keep their first and last items."""
    items = list(expected)
    if len(items) > limit:
        items = [*items[: limit - 2], "...", items[-1]]
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " or " + items[-1]
