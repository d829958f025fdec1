from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from backend.compiler.diagnostics import Code
from backend.compiler.source import Span
from backend.compiler.syntax.tokens import Token, TokenKind, semicolon_ends, tokenize


def kinds_and_values(text: str) -> list[tuple[TokenKind, str]]:
    tokens, _ = tokenize(text)
    return [(token.kind, token.value) for token in tokens]


def test_unquoted_words_are_lower_cased_and_quoted_identifiers_keep_case() -> None:
    assert kinds_and_values('SeLeCt "MixedCase" x_1$') == [
        (TokenKind.WORD, "select"),
        (TokenKind.QUOTED, "MixedCase"),
        (TokenKind.WORD, "x_1$"),
        (TokenKind.EOF, ""),
    ]


def test_doubled_quotes_escape_themselves() -> None:
    assert kinds_and_values("'it''s' \"a\"\"b\" ''") == [
        (TokenKind.STRING, "it's"),
        (TokenKind.QUOTED, 'a"b'),
        (TokenKind.STRING, ""),
        (TokenKind.EOF, ""),
    ]


def test_numbers_are_integer_decimal_or_float() -> None:
    assert kinds_and_values("42 1.5 .5 7. 1e3 2.5E-2") == [
        (TokenKind.INTEGER, "42"),
        (TokenKind.DECIMAL, "1.5"),
        (TokenKind.DECIMAL, ".5"),
        (TokenKind.DECIMAL, "7."),
        (TokenKind.FLOAT, "1e3"),
        (TokenKind.FLOAT, "2.5E-2"),
        (TokenKind.EOF, ""),
    ]


def test_operators_take_the_longest_match() -> None:
    operators = ["<>", "!=", "<=", ">=", "||", "<", ">", "=", "+", "-", "*", "/", "%", "(", ")"]
    values = [value for _, value in kinds_and_values(" ".join(operators))]
    assert values[:-1] == operators


def test_comments_and_whitespace_produce_no_tokens() -> None:
    tokens, diagnostics = tokenize("a -- to the end\n/* block\n comment */ b\t\u00a0\ufeffc")
    assert [t.value for t in tokens] == ["a", "b", "c", ""]
    assert diagnostics == ()


def test_tokens_carry_exact_offsets_and_source_text() -> None:
    tokens, _ = tokenize("  SELECT  Foo")
    assert tokens[0] == Token(TokenKind.WORD, "select", "SELECT", 2, 8)
    assert tokens[1].span == Span(10, 13)
    assert tokens[1].text == "Foo"


def test_eof_sits_right_after_the_last_token() -> None:
    tokens, _ = tokenize("a   -- trailing comment\n\n")
    assert tokens[-1].kind is TokenKind.EOF
    assert tokens[-1].span == Span(1, 1)


def test_an_invalid_character_is_a_diagnostic_and_an_error_token() -> None:
    tokens, diagnostics = tokenize("a @ b")
    assert [t.kind for t in tokens] == [
        TokenKind.WORD,
        TokenKind.ERROR,
        TokenKind.WORD,
        TokenKind.EOF,
    ]
    assert [(d.code, d.span) for d in diagnostics] == [(Code.INVALID_CHARACTER, Span(2, 3))]


def test_unterminated_string_points_at_its_opening_quote() -> None:
    tokens, diagnostics = tokenize("x 'abc\ndef")
    assert tokens[1].kind is TokenKind.ERROR
    assert tokens[1].span == Span(2, 10)  # the token runs to the end
    assert [(d.code, d.span) for d in diagnostics] == [(Code.UNTERMINATED, Span(2, 3))]


def test_unterminated_quoted_identifier_and_comment_are_reported() -> None:
    _, diagnostics = tokenize('"abc')
    assert [(d.code, d.span) for d in diagnostics] == [(Code.UNTERMINATED, Span(0, 1))]
    _, diagnostics = tokenize("a /* b")
    assert [(d.code, d.span) for d in diagnostics] == [(Code.UNTERMINATED, Span(2, 4))]
    _, diagnostics = tokenize("/*/")
    assert [d.code for d in diagnostics] == [Code.UNTERMINATED]


def test_empty_quoted_identifier_is_an_error() -> None:
    tokens, diagnostics = tokenize('""')
    assert tokens[0].kind is TokenKind.ERROR
    assert [(d.code, d.span) for d in diagnostics] == [(Code.EMPTY_IDENTIFIER, Span(0, 2))]


def test_unicode_letters_form_identifiers() -> None:
    assert kinds_and_values("Café_Crème")[0] == (TokenKind.WORD, "café_crème")


LEXICAL_FRAGMENTS = [
    ";", "'", "''", '"', '""', "--", "/*", "*/", "-", "/", "*", "\n", "\r", " ", "a", "1",
    "1e-", "1.", ".5", "e", "é", "@", "\ufeff",
]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(LEXICAL_FRAGMENTS) | st.text(max_size=3), max_size=40).map("".join))
def test_semicolon_ends_are_the_ends_of_the_semicolon_tokens(text: str) -> None:
    tokens, _ = tokenize(text)
    semicolons = [t.end for t in tokens if t.kind is TokenKind.SYMBOL and t.value == ";"]
    assert semicolon_ends(text) == semicolons


def test_a_piece_of_text_is_tokenized_in_place() -> None:
    text = "a; 'b'"
    tokens, _ = tokenize(text, 2)
    assert [(t.value, t.start, t.end) for t in tokens] == [("b", 3, 6), ("", 6, 6)]
    assert tokenize(text, 2, 2)[0] == (Token(TokenKind.EOF, "", "", 2, 2),)
