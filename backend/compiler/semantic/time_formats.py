"""FORMAT_DATE and FORMAT_TIMESTAMP's formats: strftime's `%` specifiers, as Feldera
(Rust's chrono), Calcite's BigQuery functions and DuckDB spell them; every other
character stands for itself.

The runner formats with Spark's `date_format`, whose patterns are Java's
DateTimeFormatter's (`java_pattern`): a specifier Spark cannot write as strftime does
is refused when the program compiles (`format_problem`).
"""

from __future__ import annotations

# Each specifier: the Java pattern that writes the same, and whether it needs a time of day.
SPECIFIERS: dict[str, tuple[str, bool]] = {
    "Y": ("yyyy", False),  # the year, at least 4 digits
    "y": ("yy", False),  # its last 2 digits
    "m": ("MM", False),  # the month, 01-12
    "b": ("MMM", False),  # Jan
    "h": ("MMM", False),
    "B": ("MMMM", False),  # January
    "d": ("dd", False),  # the day of the month, 01-31
    "j": ("DDD", False),  # the day of the year, 001-366
    "a": ("EEE", False),  # Mon
    "A": ("EEEE", False),  # Monday
    "F": ("yyyy-MM-dd", False),
    "D": ("MM/dd/yy", False),
    "H": ("HH", True),  # the hour, 00-23
    "I": ("hh", True),  # 01-12
    "p": ("a", True),  # AM or PM
    "M": ("mm", True),  # the minute
    "S": ("ss", True),  # the second
    "T": ("HH:mm:ss", True),
    "R": ("HH:mm", True),
}
LITERALS = {"%": "%", "n": "\n", "t": "\t"}


def _pieces(text: str) -> list[tuple[str, str]]:
    """`text` as ("%", specifier) and ("", literal character) pieces; a `%` at the end
    is the piece ("%", "")."""
    pieces, index = [], 0
    while index < len(text):
        if text[index] == "%":
            pieces.append(("%", text[index + 1 : index + 2]))
            index += 2
        else:
            pieces.append(("", text[index]))
            index += 1
    return pieces


def format_problem(text: str, *, time_of_day: bool, function: str) -> str | None:
    """Why `text` is not a format `function` can write (`time_of_day`: its value has one).

    >>> format_problem("%Y-%m-%d %H:%M", time_of_day=True, function="FORMAT_TIMESTAMP")
    >>> format_problem("%d %H", time_of_day=False, function="FORMAT_DATE")
    "FORMAT_DATE's format '%d %H' has %H, a time of day: a DATE has none (FORMAT_TIMESTAMP has)"
    >>> format_problem("%Q", time_of_day=True, function="FORMAT_TIMESTAMP")[:50]
    "FORMAT_TIMESTAMP's format '%Q' has %Q, not one of "
    """
    for kind, piece in _pieces(text):
        if kind != "%" or piece in LITERALS:
            continue
        if piece not in SPECIFIERS:
            known = " ".join(f"%{s}" for s in [*SPECIFIERS, *LITERALS])
            return f"{function}'s format {text!r} has %{piece}, not one of {known}"
        if SPECIFIERS[piece][1] and not time_of_day:
            return (
                f"{function}'s format {text!r} has %{piece}, a time of day: a DATE has none "
                f"({function.replace('DATE', 'TIMESTAMP')} has)"
            )
    return None


def java_pattern(text: str) -> str:
    """The DateTimeFormatter pattern that writes what the strftime format `text` writes
    (one `format_problem` accepts): specifiers translated, the rest quoted.

    >>> java_pattern("%Y-%m-%d at %H o'clock, 100%%")
    "yyyy'-'MM'-'dd' at 'HH' o''clock, 100%'"
    """
    out: list[str] = []
    quoted: list[str] = []

    def close_quote() -> None:
        if quoted:
            out.append("'" + "".join(quoted).replace("'", "''") + "'")
            quoted.clear()

    for kind, piece in _pieces(text):
        if kind == "%" and piece in SPECIFIERS:
            close_quote()
            out.append(SPECIFIERS[piece][0])
        else:
            quoted.append(LITERALS.get(piece, piece) if kind == "%" else piece)
    close_quote()
    return "".join(out)
