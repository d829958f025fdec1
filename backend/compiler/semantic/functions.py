"""Scalar functions: which exist, how many arguments they take, their result types.

Functions the dialect has but Weir does not compile yet (aggregates, window
functions, time bucketing, ...) are listed so the user gets "not supported yet"
(SQL401) rather than "unknown function" (SQL207).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from backend.compiler.diagnostics import Code, Diagnostic, error
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import time_formats, types
from backend.compiler.semantic.types import SqlType
from backend.compiler.source import Span


@dataclass(frozen=True, slots=True)
class Arity:
    minimum: int
    maximum: int | None  # None: any number

    def accepts(self, count: int) -> bool:
        return count >= self.minimum and (self.maximum is None or count <= self.maximum)

    def describe(self) -> str:
        if self.maximum == self.minimum:
            return f"{self.minimum} argument{'s' * (self.minimum != 1)}"
        if self.maximum is None:
            return f"at least {self.minimum} argument{'s' * (self.minimum != 1)}"
        return f"{self.minimum} to {self.maximum} arguments"


# Functions of one number whose value is a DOUBLE, as Java's Math computes them (Calcite
# calls it; Feldera's docs list the same): out of their domain they are NaN, as ASIN(2).
# fmt: off
DOUBLE_FUNCTIONS = (
    "sin", "cos", "tan", "cot", "asin", "acos", "atan", "sinh", "cosh", "tanh", "degrees",
    "radians", "cbrt", "sec", "csc", "asinh", "acosh", "atanh", "sech", "csch", "coth",
)
# fmt: on
# Functions of a DATE or TIMESTAMP: DAYNAME and MONTHNAME (MySQL's, in Calcite's
# library) name the day or month in English ('Monday', 'January'); LAST_DAY is the
# DATE of the last day of the month.
DATE_FUNCTIONS = {"dayname": types.VARCHAR, "monthname": types.VARCHAR, "last_day": types.DATE}
# PARSE_DATE, PARSE_TIMESTAMP and PARSE_TIME, and the type each reads.
PARSED_TYPES = {
    "parse_date": types.DATE,
    "parse_timestamp": types.TIMESTAMP,
    "parse_time": types.TIME,
}

# Arrays (Feldera's, docs/dialect.md): ARRAY[x, ...] (the `array` function), a[i] (ITEM(a,
# i): the i-th element, from 1; NULL past the end) and the functions of arrays.
ARRAY_FUNCTIONS: dict[str, Arity] = {
    "array": Arity(1, None),
    "item": Arity(2, 2),
    "cardinality": Arity(1, 1),
    "array_length": Arity(1, 1),
    "array_size": Arity(1, 1),
    "array_contains": Arity(2, 2),
    "array_position": Arity(2, 2),
    "array_remove": Arity(2, 2),
    "array_append": Arity(2, 2),
    "array_insert": Arity(3, 3),
    "array_prepend": Arity(2, 2),
    "array_compact": Arity(1, 1),
    "array_distinct": Arity(1, 1),
    "array_reverse": Arity(1, 1),
    "sort_array": Arity(1, 2),
    "array_max": Arity(1, 1),
    "array_min": Arity(1, 1),
    "element": Arity(1, 1),
    "array_concat": Arity(1, None),
    "array_except": Arity(2, 2),
    "array_intersect": Arity(2, 2),
    "array_union": Arity(2, 2),
    "arrays_overlap": Arity(2, 2),
    "array_repeat": Arity(2, 2),
    "array_to_string": Arity(2, 3),
    "array_join": Arity(2, 3),
    "split": Arity(1, 2),
    "sequence": Arity(2, 2),
}
# Maps (Feldera's): MAP[k, v, ...] (the `map` function), m[k] (ITEM: NULL where k is no
# key), CARDINALITY (in ARRAY_FUNCTIONS) and these.
MAP_FUNCTIONS: dict[str, Arity] = {
    "map": Arity(2, None),
    "map_concat": Arity(2, None),
    "map_contains_key": Arity(2, 2),
    "map_keys": Arity(1, 1),
    "map_values": Arity(1, 1),
}
# Functions of an array and a lambda (`x -> ...`): expressions.py binds the lambda.
LAMBDA_FUNCTIONS: dict[str, Arity] = {"transform": Arity(2, 2), "array_exists": Arity(2, 2)}
# Array functions by what they give: the array's own type, one of its elements, or
# (of arrays of a common element type) an array of that type.
SAME_ARRAY = {"array_compact", "array_distinct", "array_reverse", "sort_array"}
ARRAY_ELEMENT = {"array_max", "array_min", "element"}
ARRAYS_COMBINED = {"array_concat", "array_except", "array_intersect", "array_union"}

# Functions of bytes (Feldera's binary.md). The string functions below also take bytes
# (a VARBINARY first argument, or either of POSITION's): those calls are of their bytes
# form, named `binary_<name>` in the plan, with these results.
BYTES_FUNCTIONS: dict[str, SqlType] = {
    "to_hex": types.VARCHAR,  # lower-case hex digits, two a byte
    "to_int": types.INTEGER,  # the first four bytes, big-endian
    "bin2utf8": types.VARCHAR,  # the bytes read as UTF-8 (NULL where they are not)
}
BYTES_FORMS: dict[str, tuple[SqlType, frozenset[int]]] = {  # result, integer arguments
    "concat": (types.VARBINARY, frozenset()),
    "octet_length": (types.INTEGER, frozenset()),
    "position": (types.INTEGER, frozenset({2})),
    "substring": (types.VARBINARY, frozenset({1, 2})),
    "overlay": (types.VARBINARY, frozenset({2, 3})),
    "left": (types.VARBINARY, frozenset({1})),
    "right": (types.VARBINARY, frozenset({1})),
    "md5": (types.VARCHAR, frozenset()),
    **dict.fromkeys(("sha1", "sha256", "sha512"), (types.VARCHAR, frozenset())),
}

SCALAR_FUNCTIONS: dict[str, Arity] = {
    **ARRAY_FUNCTIONS,
    **dict.fromkeys(BYTES_FUNCTIONS, Arity(1, 1)),
    **MAP_FUNCTIONS,
    **LAMBDA_FUNCTIONS,
    "upper": Arity(1, 1),
    "lower": Arity(1, 1),
    "abs": Arity(1, 1),
    "coalesce": Arity(1, None),
    "ifnull": Arity(2, 2),  # COALESCE of two: Feldera's and MySQL's IFNULL, Oracle's NVL
    "nvl": Arity(2, 2),
    "concat": Arity(1, None),
    **{name: Arity(1, 1) for name in ("floor", "ceil", "ceiling", "sqrt", "exp", "ln", "log10")},
    "sign": Arity(1, 1),
    **{name: Arity(1, 1) for name in (*DOUBLE_FUNCTIONS, "is_inf", "is_nan")},
    "atan2": Arity(2, 2),  # ATAN2(y, x)
    "log": Arity(1, 2),  # LOG(x [, base]): of base e when not given
    "pi": Arity(0, 0),  # PI() as well as the bare word PI (NILADIC_CONSTANTS)
    "round": Arity(1, 2),
    "bround": Arity(1, 2),  # ROUND with a half to the even neighbour (Feldera's)
    # TRUNCATE(x [, n]) (TRUNC too, as DuckDB and PostgreSQL spell it): x cut toward
    # zero to n decimal places (n < 0: to tens, hundreds, ...), of x's type.
    "truncate": Arity(1, 2),
    "trunc": Arity(1, 2),
    "power": Arity(2, 2),
    "mod": Arity(2, 2),
    **{
        name: Arity(1, 1)
        for name in (
            "char_length",
            "character_length",
            "length",
            "len",
            "initcap",
            "initcap_spaces",
        )
    },
    "substring": Arity(2, 3),
    "substr": Arity(2, 3),
    **{name: Arity(1, 2) for name in ("trim", "ltrim", "rtrim")},
    "replace": Arity(3, 3),
    "position": Arity(2, 3),  # POSITION(x IN y [FROM start])
    **{name: Arity(2, 2) for name in ("left", "right", "repeat")},
    **{name: Arity(2, 3) for name in ("lpad", "rpad")},
    "reverse": Arity(1, 1),
    "concat_ws": Arity(2, None),
    **{name: Arity(1, 1) for name in ("md5", "sha1", "sha256", "sha512")},
    "regexp_replace": Arity(2, 3),
    "rlike": Arity(2, 2),
    # REGEXP_EXTRACT(s, pattern[, group]) (Flink's): the group (0, the whole match, by
    # default) of the first match; NULL where the pattern does not match.
    "regexp_extract": Arity(2, 3),
    # SPLIT_INDEX(s, separator, i) (Flink's): the i-th piece of s (from 0) split at
    # every separator; NULL where there is none.
    "split_index": Arity(3, 3),
    # SPLIT_PART(s, delimiter, n) (Feldera's, PostgreSQL's): the n-th part of s split at
    # every delimiter, from 1; n < 0 counts from the end; '' when there is no such part.
    "split_part": Arity(3, 3),
    # FORMAT_DATE / FORMAT_TIMESTAMP(format, value): strftime's specifiers
    # (semantic/time_formats.py), as Feldera, BigQuery and DuckDB have them.
    **{name: Arity(2, 2) for name in ("format_date", "format_timestamp")},
    # PARSE_DATE / PARSE_TIMESTAMP / PARSE_TIME(format, text), Feldera's: the text read
    # as the format says; NULL where it does not read so.
    **{name: Arity(2, 2) for name in PARSED_TYPES},
    # ASCII(s): the code point of s's first character (0 for ''); CHR(n): the character
    # of code point n ('' for none, as Feldera has it); OCTET_LENGTH(s): s's bytes in
    # UTF-8; OVERLAY(s PLACING r FROM n [FOR m]), as Feldera has it: s with m characters
    # (r's length when absent, 0 when below 0) from the n-th replaced by r; s when n < 1.
    **{name: Arity(1, 1) for name in ("ascii", "chr", "octet_length")},
    "overlay": Arity(3, 4),
    **{name: Arity(1, 1) for name in DATE_FUNCTIONS},
    "if": Arity(3, 3),
    "nullif": Arity(2, 2),
    "greatest": Arity(1, None),
    "least": Arity(1, None),
    "greatest_ignore_nulls": Arity(1, None),
    "least_ignore_nulls": Arity(1, None),
}
# Spellings of one function: the plan uses the name on the right.
CANONICAL = {
    "ceiling": "ceil",
    "character_length": "char_length",
    "length": "char_length",
    "len": "char_length",  # as Calcite's and Feldera's LEN
    "substr": "substring",
    "datediff": "timestampdiff",  # as Calcite (for PostgreSQL) and Feldera have it
    "dateadd": "timestampadd",  # as Feldera has it (and Calcite for MS SQL Server)
}

# fmt: off
AGGREGATE_FUNCTIONS = frozenset((
    "count", "sum", "avg", "min", "max", "stddev", "stddev_pop", "stddev_samp", "var_pop",
    "var_samp", "variance", "every", "some", "any_value", "array_agg", "string_agg", "listagg",
    "bool_and", "bool_or", "arg_max", "arg_min", "bit_and", "bit_or", "bit_xor",
    "percentile_cont", "percentile_disc", "logical_and", "logical_or", "countif", "mode",
    "covar_pop", "covar_samp", "regr_count", "regr_sxx", "regr_syy",
))
# fmt: on

# fmt: off
NOT_YET_FUNCTIONS = frozenset((
    "row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile", "lag", "lead",
    "first_value", "last_value", "nth_value",
    "now", "current_timestamp", "current_date",
    "current_time", "localtimestamp", "localtime", "snapshot",
    "search_key", "to_changelog", "from_changelog", "descriptor",
    "split", "gunzip",
))
# GROUPING(k, ...) (GROUPING_ID is the same, as in Calcite): which of the keys the
# group's grouping set leaves out, as bits (semantic/grouping.py).
GROUPING_FUNCTIONS = frozenset(("grouping", "grouping_id", "group_id"))
# fmt: on

# Bare words that SQL treats as functions without parentheses.
NILADIC_FUNCTIONS = frozenset(
    ["current_timestamp", "current_date", "current_time", "localtimestamp", "localtime"]
)
# Bare words that are constant functions, unless a column has the name: PI, as in
# Calcite and Feldera.
NILADIC_CONSTANTS = frozenset(["pi"])


def type_scalar_call(
    name: str, args: tuple[plan.Expr, ...], span: Span, diagnostics: list[Diagnostic]
) -> plan.Expr | None:
    """Type-check a call of one of SCALAR_FUNCTIONS whose arity is already checked."""
    if name in ("upper", "lower"):
        (arg,) = args
        if not _is_text(arg.type):
            _mismatch(diagnostics, f"{name.upper()} expects a VARCHAR argument", arg)
            return None
        return plan.Call(name, args, types.VARCHAR, arg.nullable, span)
    if name == "abs":
        (arg,) = args
        if types.negation_type(arg.type) is None:
            _mismatch(diagnostics, "ABS expects a numeric or interval argument", arg)
            return None
        return plan.Call(name, args, arg.type, arg.nullable, span)
    if name in ("coalesce", "ifnull", "nvl"):
        return _coalesce(args, span, diagnostics)
    canonical = CANONICAL.get(name, name)
    if canonical in BYTES_FORMS and any(types.is_binary(arg.type) for arg in args):
        result, integers = BYTES_FORMS[canonical]
        return _typed_arguments("binary_" + canonical, args, span, diagnostics, integers, result)
    if name == "concat":
        return concat(args, span, diagnostics)
    if name == "concat_ws":
        return _concat_ws(args, span, diagnostics)
    return _TYPED[name](canonical, args, span, diagnostics)


def _coalesce(
    args: tuple[plan.Expr, ...], span: Span, diagnostics: list[Diagnostic]
) -> plan.Expr | None:
    result: SqlType = args[0].type
    for arg in args[1:]:
        common = types.common_type(result, arg.type)
        if common is None:
            diagnostics.append(
                error(
                    Code.TYPE_MISMATCH,
                    f"COALESCE arguments have no common type: {result} and {arg.type}",
                    arg.span,
                )
            )
            return None
        result = common
    nullable = all(arg.nullable for arg in args)
    return plan.Call("coalesce", args, result, nullable, span)


def concat(
    args: tuple[plan.Expr, ...], span: Span, diagnostics: list[Diagnostic]
) -> plan.Expr | None:
    """CONCAT(...) and `||`: NULL if any argument is NULL (as in Spark).

    Non-string arguments are cast to VARCHAR explicitly, as Calcite's own
    `'An order for ' || units` example expects; bytes join bytes only.
    """
    if any(types.is_binary(arg.type) for arg in args):
        return type_scalar_call("concat", args, span, diagnostics)
    nullable = any(arg.nullable for arg in args)
    return plan.Call("concat", _as_text(args), types.VARCHAR, nullable, span)


def _as_text(args: tuple[plan.Expr, ...]) -> tuple[plan.Expr, ...]:
    return tuple(
        arg
        if _is_text(arg.type)
        else plan.Cast(arg, types.VARCHAR, arg.nullable, arg.span)  # every type casts to text
        for arg in args
    )


def _concat_ws(
    args: tuple[plan.Expr, ...], span: Span, diagnostics: list[Diagnostic]
) -> plan.Expr | None:
    """CONCAT_WS(separator, value, ...): the values joined by the separator, a NULL one
    as '' (as in Feldera: `CONCAT_WS(',', 'a', NULL, 'b')` is 'a,,b'), NULL only when
    the separator is; values of other types as text."""
    separator, *values = args
    if not _is_text(separator.type):
        _mismatch(diagnostics, "CONCAT_WS expects a VARCHAR separator", separator)
        return None
    text = _as_text(tuple(values))
    return plan.Call("concat_ws", (separator, *text), types.VARCHAR, separator.nullable, span)


def _mismatch(diagnostics: list[Diagnostic], message: str, arg: plan.Expr) -> None:
    diagnostics.append(error(Code.TYPE_MISMATCH, f"{message}, found {arg.type}", arg.span))


Typing = Callable[[str, tuple[plan.Expr, ...], Span, list[Diagnostic]], "plan.Expr | None"]


def _numeric(result: SqlType | None) -> Typing:
    """Numeric arguments; the result is `result`, or the first argument's type. Text
    where a DOUBLE function (SIN, ATANH, ...) takes a number is cast to one, as in
    Feldera (`ATANH('0.12')`)."""

    def typed(
        name: str, args: tuple[plan.Expr, ...], span: Span, diagnostics: list[Diagnostic]
    ) -> plan.Expr | None:
        if result == types.DOUBLE:
            args = tuple(
                plan.Cast(arg, types.DOUBLE, arg.nullable, arg.span)
                if types.is_string(arg.type)
                else arg
                for arg in args
            )
        for arg in args:
            if not (types.is_numeric(arg.type) or types.is_null(arg.type)):
                _mismatch(diagnostics, f"{name.upper()} expects numeric arguments", arg)
                return None
        nullable = any(arg.nullable for arg in args)
        return plan.Call(name, args, result or args[0].type, nullable, span)

    return typed


def _to_scale(
    name: str, args: tuple[plan.Expr, ...], span: Span, diagnostics: list[Diagnostic]
) -> plan.Expr | None:
    """ROUND / TRUNCATE(x [, n]): n, the decimal places, an integer (a constant or not:
    `ROUND(x, g)`, as in Feldera)."""
    if len(args) == 2 and not (types.is_integer(args[1].type) or types.is_null(args[1].type)):
        message = f"{name.upper()}'s second argument must be an integer"
        _mismatch(diagnostics, message, args[1])
        return None
    name = "truncate" if name == "trunc" else name
    return _numeric(None)(name, args, span, diagnostics)


def _mod(
    name: str, args: tuple[plan.Expr, ...], span: Span, diagnostics: list[Diagnostic]
) -> plan.Expr | None:
    result = types.arithmetic_type("%", args[0].type, args[1].type)
    if result is None:
        wrong = next((a for a in args if not types.is_numeric(a.type)), args[1])
        _mismatch(diagnostics, "MOD expects numeric arguments", wrong)
        return None
    return plan.Call(name, args, result, args[0].nullable or args[1].nullable, span)


def _is_text(sql_type: SqlType) -> bool:
    """A string, or NULL (which any string argument takes)."""
    return types.is_string(sql_type) or types.is_null(sql_type)


def _strings(result: SqlType, integers: frozenset[int] = frozenset()) -> Typing:
    """String arguments (integers at the positions `integers`, from 0); a `result`. A
    number where a string goes is its text, as in Feldera (`LEFT(-12, 2)` is '-1')."""

    def typed(
        name: str, args: tuple[plan.Expr, ...], span: Span, diagnostics: list[Diagnostic]
    ) -> plan.Expr | None:
        args = tuple(
            plan.Cast(arg, types.VARCHAR, arg.nullable, arg.span)
            if index not in integers and types.is_numeric(arg.type)
            else arg
            for index, arg in enumerate(args)
        )
        return _typed_arguments(name, args, span, diagnostics, integers, result)

    return typed


def _typed_arguments(
    name: str,
    args: tuple[plan.Expr, ...],
    span: Span,
    diagnostics: list[Diagnostic],
    integers: frozenset[int],
    result: SqlType,
) -> plan.Expr | None:
    """A call of `name` with integers at the positions `integers` and strings elsewhere
    (bytes, for a `binary_` form), or None after reporting the first that is not."""
    of_bytes = name.startswith("binary_")
    text, want_text = (
        (types.is_binary, "a VARBINARY") if of_bytes else (types.is_string, "a VARCHAR")
    )
    for index, arg in enumerate(args):
        want_integer = index in integers
        ok = types.is_integer(arg.type) if want_integer else text(arg.type)
        if not (ok or types.is_null(arg.type)):
            kind = "an integer" if want_integer else want_text
            shown = name.removeprefix("binary_").upper()
            _mismatch(diagnostics, f"{shown} expects {kind} as argument {index + 1}", arg)
            return None
    nullable = any(arg.nullable for arg in args)
    return plan.Call(name, args, result, nullable, span)


def _bytes_function(
    name: str, args: tuple[plan.Expr, ...], span: Span, diagnostics: list[Diagnostic]
) -> plan.Expr | None:
    """TO_HEX, TO_INT and BIN2UTF8 of a VARBINARY (BIN2UTF8 is NULL for bytes that are no
    UTF-8)."""
    (arg,) = args
    if not (types.is_binary(arg.type) or types.is_null(arg.type)):
        _mismatch(diagnostics, f"{name.upper()} expects a VARBINARY argument", arg)
        return None
    nullable = arg.nullable or name == "bin2utf8"
    return plan.Call(name, args, BYTES_FUNCTIONS[name], nullable, span)


def _same_type(nullable_result: bool, ignoring_nulls: bool = False) -> Typing:
    """Arguments of one common type, which is the result's (NULLIF, GREATEST, LEAST).
    The result is NULL where an argument is, or (`ignoring_nulls`) where all are."""

    def typed(
        name: str, args: tuple[plan.Expr, ...], span: Span, diagnostics: list[Diagnostic]
    ) -> plan.Expr | None:
        result = _common_type(args, f"{name.upper()} arguments need a common type", diagnostics)
        if result is None:
            return None
        nullable = nullable_result or (all if ignoring_nulls else any)(a.nullable for a in args)
        return plan.Call(name, args, result, nullable, span)

    return typed


def _array_function(
    name: str, args: tuple[plan.Expr, ...], span: Span, diagnostics: list[Diagnostic]
) -> plan.Expr | None:
    """ARRAY_FUNCTIONS: the array first (but for ARRAY[...] and ARRAY_REPEAT, which make
    one of their element, and SPLIT, one of the parts of a string). An element added to
    or looked for in an array, and arrays combined, are cast to a common element type:
    ARRAY_APPEND(ARRAY[1, 2], 3.5) is a DECIMAL array."""
    if name in ("array", "array_repeat"):
        return _new_array(name, args, span, diagnostics)
    if name in ("item", "cardinality") and types.is_map(args[0].type):
        return _map_function(name, args, span, diagnostics)
    if name == "sequence":  # SEQUENCE(start, end): the integers from start to end
        common = _common_type(args, "SEQUENCE's start and end need a common type", diagnostics)
        if common is None:
            return None
        if not (types.is_integer(common) or types.is_null(common)):
            _mismatch(diagnostics, "SEQUENCE counts from one integer to another", args[0])
            return None
        nullable = any(arg.nullable for arg in args)
        integers = types.array_of(types.INTEGER if types.is_null(common) else common)
        return plan.Call(name, args, integers, nullable, span)
    if name == "split":  # SPLIT(s[, delimiter]): a VARCHAR ARRAY
        for text in args:
            if not _is_text(text.type):
                _mismatch(diagnostics, "SPLIT splits a string by a string", text)
                return None
        nullable = any(arg.nullable for arg in args)
        return plan.Call(name, args, types.array_of(types.VARCHAR), nullable, span)
    array = args[0]
    if not types.is_array(array.type):
        _mismatch(diagnostics, f"{name.upper()} expects an array", array)
        return None
    element = array.type.element
    assert element is not None
    nullable = any(arg.nullable for arg in args)
    if name in ("cardinality", "array_length", "array_size"):
        return plan.Call("cardinality", args, types.INTEGER, nullable, span)
    if name == "item":
        if not types.is_integer(args[1].type):
            _mismatch(diagnostics, "An array's index must be an integer", args[1])
            return None
        return plan.Call(name, args, element, True, span)
    if name in SAME_ARRAY:
        if len(args) == 2 and not (
            isinstance(args[1], plan.Literal) and args[1].type == types.BOOLEAN
        ):
            _mismatch(diagnostics, "SORT_ARRAY's order must be TRUE or FALSE", args[1])
            return None
        return plan.Call(name, args, array.type, array.nullable, span)
    if name in ARRAY_ELEMENT:
        return plan.Call(name, args, element, True, span)
    if name in ("array_to_string", "array_join"):
        if not types.is_string(element):
            _mismatch(diagnostics, f"{name.upper()} joins an array of strings", array)
            return None
        for text in args[1:]:
            if not _is_text(text.type):
                _mismatch(diagnostics, f"{name.upper()} joins with a string", text)
                return None
        return plan.Call("array_to_string", args, types.VARCHAR, nullable, span)
    if name in ARRAYS_COMBINED or name == "arrays_overlap":
        return _arrays_combined(name, args, span, diagnostics)
    if name == "array_insert":  # ARRAY_INSERT(a, pos, x): a with x at pos
        if not types.is_integer(args[1].type) and not types.is_null(args[1].type):
            _mismatch(diagnostics, "ARRAY_INSERT's position must be an integer", args[1])
            return None
        added = _array_and_element("array_append", array, args[2], span, diagnostics)
        if added is None:
            return None
        assert isinstance(added, plan.Call)
        position = args[1] if types.is_integer(args[1].type) else _as_type(args[1], types.INTEGER)
        inserted = (added.args[0], position, added.args[1])
        return plan.Call(name, inserted, added.type, array.nullable or args[1].nullable, span)
    return _array_and_element(name, array, args[1], span, diagnostics)


def _map_function(
    name: str, args: tuple[plan.Expr, ...], span: Span, diagnostics: list[Diagnostic]
) -> plan.Expr | None:
    """MAP_FUNCTIONS, and m[k] and CARDINALITY(m): the map first (but for MAP[...]). A
    key looked up is cast to the map's key type, and maps combined to a common type."""
    if name == "map":
        return _new_map(args, span, diagnostics)
    mapping = args[0]
    if not types.is_map(mapping.type):
        _mismatch(diagnostics, f"{name.upper()} expects a MAP", mapping)
        return None
    key, value = mapping.type.key, mapping.type.element
    assert key is not None and value is not None
    nullable = any(arg.nullable for arg in args)
    if name == "cardinality":
        return plan.Call(name, args, types.INTEGER, nullable, span)
    if name == "map_keys":
        return plan.Call(name, args, types.array_of(key), nullable, span)
    if name == "map_values":
        return plan.Call(name, args, types.array_of(value), nullable, span)
    if name == "map_concat":
        message = "MAP_CONCAT needs MAPs of a common type"
        result = _common_type(args, message, diagnostics, types.is_map)
        if result is None:
            return None
        return plan.Call(name, tuple(_as_type(a, result) for a in args), result, nullable, span)
    if not types.comparable(key, args[1].type):
        _mismatch(diagnostics, f"The MAP's keys are of type {key}", args[1])
        return None
    looked_up = (mapping, _as_type(args[1], key))
    if name == "item":
        return plan.Call(name, looked_up, value, True, span)
    return plan.Call(name, looked_up, types.BOOLEAN, nullable, span)  # map_contains_key


def _new_map(
    args: tuple[plan.Expr, ...], span: Span, diagnostics: list[Diagnostic]
) -> plan.Expr | None:
    """MAP[k1, v1, k2, v2, ...]: keys of a common type (never NULL), values of another."""
    if len(args) % 2:
        _mismatch(diagnostics, "MAP[...] takes keys and values in pairs", args[-1])
        return None
    found: list[SqlType] = []
    for what, items in (("keys", args[0::2]), ("values", args[1::2])):
        common = _common_type(items, f"MAP[...] {what} need a common type", diagnostics)
        if common is None:
            return None
        if types.is_null(common):
            _mismatch(diagnostics, f"MAP[...] needs {what} that are not NULL", items[0])
            return None
        found.append(common)
    key, value = found
    if types.is_map(key):
        _mismatch(diagnostics, "A MAP's keys cannot be MAPs", args[0])
        return None
    for item in args[0::2]:
        if types.is_null(item.type):
            _mismatch(diagnostics, "A MAP's key cannot be NULL", item)
            return None
    cast = tuple(_as_type(arg, key if i % 2 == 0 else value) for i, arg in enumerate(args))
    return plan.Call("map", cast, types.map_of(key, value), False, span)


def _new_array(
    name: str, args: tuple[plan.Expr, ...], span: Span, diagnostics: list[Diagnostic]
) -> plan.Expr | None:
    """ARRAY[x, ...] (of the elements' common type) and ARRAY_REPEAT(x, n)."""
    elements = args if name == "array" else args[:1]
    element = _common_type(elements, "ARRAY[...] elements need a common type", diagnostics)
    if element is None:
        return None
    if types.is_null(element):
        _mismatch(diagnostics, f"{name.upper()} needs an element that is not NULL", args[0])
        return None
    if name == "array":
        return plan.Call(name, args, types.array_of(element), False, span)
    if not types.is_integer(args[1].type):
        _mismatch(diagnostics, "ARRAY_REPEAT's count must be an integer", args[1])
        return None
    return plan.Call(name, args, types.array_of(element), args[1].nullable, span)


def _arrays_combined(
    name: str, args: tuple[plan.Expr, ...], span: Span, diagnostics: list[Diagnostic]
) -> plan.Expr | None:
    """ARRAY_CONCAT, ARRAY_EXCEPT, ARRAY_INTERSECT, ARRAY_UNION and ARRAYS_OVERLAP: arrays
    of a common element type; NULL where any is."""
    message = f"{name.upper()} needs arrays of a common type"
    result = _common_type(args, message, diagnostics, types.is_array)
    if result is None:
        return None
    cast = tuple(_as_type(arg, result) for arg in args)
    if name == "arrays_overlap":  # NULL too where only NULL elements could be common
        return plan.Call(name, cast, types.BOOLEAN, True, span)
    return plan.Call(name, cast, result, any(arg.nullable for arg in args), span)


def _array_and_element(
    name: str, array: plan.Expr, value: plan.Expr, span: Span, diagnostics: list[Diagnostic]
) -> plan.Expr | None:
    """ARRAY_CONTAINS, ARRAY_POSITION and ARRAY_REMOVE (NULL where the value is) and
    ARRAY_APPEND and ARRAY_PREPEND (which add a NULL value to the array)."""
    element = array.type.element
    assert element is not None
    common = types.common_type(element, value.type)
    if common is None:
        _mismatch(diagnostics, f"{name.upper()} needs a value of type {element}", value)
        return None
    args = (_as_type(array, types.array_of(common)), _as_type(value, common))
    if name in ("array_append", "array_prepend"):
        return plan.Call(name, args, types.array_of(common), array.nullable, span)
    nullable = array.nullable or value.nullable
    if name == "array_position":
        return plan.Call(name, args, types.BIGINT, nullable, span)
    if name == "array_remove":
        return plan.Call(name, args, types.array_of(common), nullable, span)
    return plan.Call(name, args, types.BOOLEAN, nullable, span)


def lambda_call(
    name: str, array: plan.Expr, function: plan.Lambda, span: Span, diagnostics: list[Diagnostic]
) -> plan.Expr | None:
    """TRANSFORM(a, x -> e): the array of e of each element (NULL for a NULL array);
    ARRAY_EXISTS(a, x -> c): whether c is TRUE for some element (FALSE for none; NULL
    where it is for none, but NULL for some)."""
    if name == "transform":
        if types.is_null(function.type):
            _mismatch(diagnostics, "TRANSFORM's lambda needs a value that is not NULL", function)
            return None
        result = types.array_of(function.type)
        return plan.Call(name, (array, function), result, array.nullable, span)
    if function.type not in (types.BOOLEAN, types.NULL):
        _mismatch(diagnostics, "ARRAY_EXISTS's lambda must be a condition", function.body)
        return None
    return plan.Call(name, (array, function), types.BOOLEAN, True, span)


def _common_type(
    items: Sequence[plan.Expr],
    message: str,
    diagnostics: list[Diagnostic],
    of_kind: Callable[[SqlType], bool] | None = None,
) -> SqlType | None:
    """The type all `items` widen to; None after reporting `message` at the first item
    that does not (or, after the first, is not `of_kind`)."""
    result: SqlType = items[0].type
    for item in items[1:]:
        fits = of_kind is None or of_kind(item.type)
        common = types.common_type(result, item.type) if fits else None
        if common is None:
            _mismatch(diagnostics, message, item)
            return None
        result = common
    return result


def _as_type(expr: plan.Expr, sql_type: SqlType) -> plan.Expr:
    return expr if expr.type == sql_type else plan.Cast(expr, sql_type, expr.nullable, expr.span)


def _datetime(result: SqlType) -> Typing:
    """One DATE or TIMESTAMP argument; a `result` (DATE_FUNCTIONS)."""

    def typed(
        name: str, args: tuple[plan.Expr, ...], span: Span, diagnostics: list[Diagnostic]
    ) -> plan.Expr | None:
        (arg,) = args
        if not _is_dated(name, arg, diagnostics):
            return None
        return plan.Call(name, args, result, arg.nullable, span)

    return typed


def _is_dated(name: str, arg: plan.Expr, diagnostics: list[Diagnostic]) -> bool:
    """Whether `arg` is a DATE or a TIMESTAMP (or NULL); else reported."""
    dated = arg.type.kind in (types.TypeKind.DATE, types.TypeKind.TIMESTAMP)
    if not (dated or types.is_null(arg.type)):
        _mismatch(diagnostics, f"{name.upper()} expects a DATE or TIMESTAMP", arg)
        return False
    return True


def _regexp_replace(
    name: str, args: tuple[plan.Expr, ...], span: Span, diagnostics: list[Diagnostic]
) -> plan.Expr | None:
    """REGEXP_REPLACE(s, pattern[, replacement]): every match replaced (by '' when no
    replacement is given)."""
    if not _is_pattern(name, args[1], diagnostics):
        return None
    if len(args) == 2:
        args = (*args, plan.Literal("", types.VARCHAR, False, span))
    return _strings(types.VARCHAR)(name, args, span, diagnostics)


def _rlike(
    name: str, args: tuple[plan.Expr, ...], span: Span, diagnostics: list[Diagnostic]
) -> plan.Expr | None:
    """RLIKE(s, pattern): whether the pattern matches somewhere in s (Feldera, Spark);
    NULL for a NULL pattern."""
    if types.is_null(args[1].type):
        return plan.Literal(None, types.BOOLEAN, True, span)
    if not _is_pattern(name, args[1], diagnostics):
        return None
    return _strings(types.BOOLEAN)(name, args, span, diagnostics)


def _regexp_extract(
    name: str, args: tuple[plan.Expr, ...], span: Span, diagnostics: list[Diagnostic]
) -> plan.Expr | None:
    """REGEXP_EXTRACT(s, pattern[, group]): the group, an integer constant from 0 (the
    whole match, when absent) to the pattern's groups, is checked here."""
    if not _is_pattern(name, args[1], diagnostics):
        return None
    groups = re.compile(_literal_text(args[1])).groups
    if len(args) == 2:
        args = (*args, plan.Literal(0, types.INTEGER, False, span))
    group = args[2]
    if not (isinstance(group, plan.Literal) and isinstance(group.value, int)):
        _mismatch(diagnostics, "REGEXP_EXTRACT's group must be an integer constant", group)
        return None
    if not 0 <= group.value <= groups:
        message = f"REGEXP_EXTRACT's pattern has {groups} group{'s' * (groups != 1)}"
        _invalid(diagnostics, f"{message}, not a group {group.value}", group)
        return None
    return _nullable(_strings(types.VARCHAR, frozenset({2}))(name, args, span, diagnostics))


def _split_index(
    name: str, args: tuple[plan.Expr, ...], span: Span, diagnostics: list[Diagnostic]
) -> plan.Expr | None:
    """SPLIT_INDEX(s, separator, i): the separator a string constant, not ''."""
    separator = args[1]
    if not _literal_text(separator):
        message = "SPLIT_INDEX's separator must be a string constant of one character or more"
        _mismatch(diagnostics, message, separator)
        return None
    return _nullable(_strings(types.VARCHAR, frozenset({2}))(name, args, span, diagnostics))


def _nullable(call: plan.Expr | None) -> plan.Expr | None:
    """`call`, NULL for some values that are not (no match, no such piece)."""
    return None if call is None else replace(call, nullable=True)


def _format_datetime(
    name: str, args: tuple[plan.Expr, ...], span: Span, diagnostics: list[Diagnostic]
) -> plan.Expr | None:
    """FORMAT_DATE(format, date) and FORMAT_TIMESTAMP(format, timestamp): the format a
    string constant that time_formats can write; the other type of value is cast."""
    form, value = args
    if not isinstance(form, plan.Literal) or not isinstance(form.value, str):
        _mismatch(diagnostics, f"{name.upper()}'s format must be a string literal", form)
        return None
    target = types.DATE if name == "format_date" else types.TIMESTAMP
    if not _is_dated(name, value, diagnostics):
        return None
    problem = time_formats.format_problem(
        form.value, time_of_day=target == types.TIMESTAMP, function=name.upper()
    )
    if problem is not None:
        _invalid(diagnostics, problem, form)
        return None
    if value.type != target:
        value = plan.Cast(value, target, value.nullable, value.span)
    return plan.Call(name, (form, value), types.VARCHAR, value.nullable, span)


def _parse_datetime(
    name: str, args: tuple[plan.Expr, ...], span: Span, diagnostics: list[Diagnostic]
) -> plan.Expr | None:
    """PARSE_DATE / PARSE_TIMESTAMP / PARSE_TIME(format, text): the format a string
    constant of FORMAT_*'s specifiers; NULL where the text does not read as it says."""
    form, text = args
    if not isinstance(form, plan.Literal) or not isinstance(form.value, str):
        _mismatch(diagnostics, f"{name.upper()}'s format must be a string literal", form)
        return None
    target = PARSED_TYPES[name]
    time_of_day = target != types.DATE
    problem = time_formats.format_problem(
        form.value, time_of_day=time_of_day, function=name.upper()
    )
    if problem is not None:
        _invalid(diagnostics, problem, form)
        return None
    if not _is_text(text.type):
        _mismatch(diagnostics, f"{name.upper()} expects a VARCHAR as argument 2", text)
        return None
    return plan.Call(name, (form, text), target, True, span)


def _literal_text(expr: plan.Expr) -> str:
    """A string literal's text; '' for anything else."""
    return expr.value if isinstance(expr, plan.Literal) and isinstance(expr.value, str) else ""


def _invalid(diagnostics: list[Diagnostic], message: str, arg: plan.Expr) -> None:
    diagnostics.append(error(Code.INVALID_LITERAL, message, arg.span))


def _is_pattern(name: str, pattern: plan.Expr, diagnostics: list[Diagnostic]) -> bool:
    """Whether a regular expression argument is a string literal that compiles (checked
    here: Spark would fail the whole step on a pattern it cannot compile); else reported."""
    shown = name.upper()
    if not isinstance(pattern, plan.Literal) or not isinstance(pattern.value, str):
        _mismatch(diagnostics, f"{shown}'s pattern must be a string literal", pattern)
        return False
    try:
        re.compile(pattern.value)
    except re.error as problem:
        message = f"{shown} pattern {pattern.value!r} is not a regular expression: {problem}"
        _invalid(diagnostics, message, pattern)
        return False
    return True


_TYPED: dict[str, Typing] = {
    **dict.fromkeys(ARRAY_FUNCTIONS, _array_function),
    **dict.fromkeys(MAP_FUNCTIONS, _map_function),
    **{name: _numeric(None) for name in ("floor", "ceil", "ceiling", "sign")},
    **{
        name: _numeric(types.DOUBLE)
        for name in ("sqrt", "exp", "ln", "log", "log10", "power", *DOUBLE_FUNCTIONS, "atan2", "pi")
    },
    **{name: _numeric(types.BOOLEAN) for name in ("is_inf", "is_nan")},
    "round": _to_scale,
    "bround": _to_scale,
    "truncate": _to_scale,
    "trunc": _to_scale,
    "mod": _mod,
    **{
        name: _strings(types.INTEGER)
        for name in ("char_length", "character_length", "length", "len")
    },
    "position": _strings(types.INTEGER, frozenset({2})),
    "initcap": _strings(types.VARCHAR),
    "initcap_spaces": _strings(types.VARCHAR),
    "substring": _strings(types.VARCHAR, frozenset({1, 2})),
    "substr": _strings(types.VARCHAR, frozenset({1, 2})),
    **{name: _strings(types.VARCHAR) for name in ("trim", "ltrim", "rtrim", "replace")},
    **{
        name: _strings(types.VARCHAR, frozenset({1}))
        for name in ("left", "right", "repeat", "lpad", "rpad")
    },
    **{name: _strings(types.VARCHAR) for name in ("reverse", "md5", "sha1", "sha256", "sha512")},
    "regexp_replace": _regexp_replace,
    "rlike": _rlike,
    "regexp_extract": _regexp_extract,
    "split_index": _split_index,
    "split_part": _strings(types.VARCHAR, frozenset({2})),
    "format_date": _format_datetime,
    "format_timestamp": _format_datetime,
    **dict.fromkeys(PARSED_TYPES, _parse_datetime),
    **{name: _strings(types.INTEGER) for name in ("ascii", "octet_length")},
    "chr": _strings(types.VARCHAR, frozenset({0})),
    "overlay": _strings(types.VARCHAR, frozenset({2, 3})),
    **{name: _datetime(result) for name, result in DATE_FUNCTIONS.items()},
    **{name: _bytes_function for name in BYTES_FUNCTIONS},
    "nullif": _same_type(nullable_result=True),
    "greatest": _same_type(nullable_result=False),
    "least": _same_type(nullable_result=False),
    "greatest_ignore_nulls": _same_type(nullable_result=False, ignoring_nulls=True),
    "least_ignore_nulls": _same_type(nullable_result=False, ignoring_nulls=True),
}
