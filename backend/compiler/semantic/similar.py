"""`s SIMILAR TO pattern [ESCAPE 'c']` (the SQL standard's, Calcite's and PostgreSQL's):
a LIKE pattern with regular expression operators, matched against the whole string.

`%` is any text and `_` any character, as in LIKE; `|`, `*`, `+`, `?`, `{m,n}`, `(...)`
and `[...]` are as in regular expressions; every other character stands for itself
(`.` too). The escape character that ESCAPE gives makes the character after it stand
for itself; without ESCAPE no character escapes, as for LIKE (the SQL standard's).
The pattern becomes a Java regular expression for RLIKE, anchored at both ends.
"""

from __future__ import annotations

OPERATORS = "|*+?{}()"


def similar_to_regex(pattern: str, escape: str | None = None) -> str:
    r"""The regular expression that matches what `pattern` does.

    >>> similar_to_regex("%(b|d)%")
    '(?s)^(?:.*(b|d).*)$'
    >>> similar_to_regex("a_c.[0-9]{2}")
    '(?s)^(?:a.c\\.[0-9]{2})$'
    >>> similar_to_regex("100#%", "#"), similar_to_regex("a#")
    ('(?s)^(?:100\\%)$', '(?s)^(?:a\\#)$')
    """
    parts: list[str] = []
    index, in_class = 0, False
    while index < len(pattern):
        char = pattern[index]
        if char == escape:
            if index + 1 == len(pattern):
                raise ValueError(f"it ends with the escape character {escape!r}")
            parts.append(_itself(pattern[index + 1]))
            index += 2
            continue
        if in_class:
            in_class = char != "]"
            parts.append(char if char not in "[&\\" else "\\" + char)
        elif char == "%":
            parts.append(".*")
        elif char == "_":
            parts.append(".")
        elif char == "[":
            in_class = True
            parts.append(char)
        elif char in OPERATORS:
            parts.append(char)
        else:
            parts.append(_itself(char))
        index += 1
    if in_class:
        raise ValueError("a '[' is not closed")
    return "(?s)^(?:" + "".join(parts) + ")$"


def _itself(char: str) -> str:
    """`char` standing for itself in a Java regular expression."""
    return char if char.isalnum() else "\\" + char
