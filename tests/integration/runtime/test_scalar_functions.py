"""Math and string functions give Calcite's values on Spark (Java's Math: NaN out of a
function's domain), and Feldera's where Calcite leaves a case undefined (CHR of no code
point, OVERLAY from before the start, a floating division by zero)."""

import hashlib
import math

from pyspark.sql import SparkSession

from tests.integration.runtime.replays import changes_of_one_row, contents_after_steps

PROGRAM = """
CREATE TABLE t (f DOUBLE, z DOUBLE, n DOUBLE, i INTEGER, s VARCHAR, e VARCHAR, ns VARCHAR,
    k INTEGER, nk INTEGER);
CREATE VIEW math AS SELECT
    ASIN(f) AS asin_2, ACOS(-f) AS acos_minus_2, COT(i) AS cot_0, CBRT(-8 * f / 2) AS cbrt,
    DEGREES(PI) AS half_turn, RADIANS(180) AS pi, TAN(PI() / 2) AS tan_right_angle,
    ATAN2(z, -1) AS atan2_minus_zero, ATAN2(z, z) AS atan2_zeros,
    ATAN2(i, z) AS atan2_zero_left, ATAN2(i, 1) AS atan2_zero, ATAN2(1, i) AS atan2_up,
    SIN(n) AS sin_null, ATAN2(n, i) AS atan2_null,
    IS_NAN(ASIN(f)) AS nan, IS_NAN(f) AS not_nan, IS_NAN(n) AS nan_null, IS_INF(COT(i)) AS inf,
    IS_INF(i) AS not_inf, IS_INF(n) AS inf_null, SINH(i) AS sinh, COSH(i) AS cosh, TANH(f) AS tanh,
    SEC(i) AS sec_0, CSC(i) AS csc_0, ASINH(f) AS asinh, ACOSH(i) AS acosh_0,
    ATANH(f / 2) AS atanh_1, SECH(i) AS sech_0, CSCH(i) AS csch_0, COTH(i) AS coth_0,
    COTH(f) AS coth, LOG(f * 4, 2) AS log_8_base_2, LOG(f) AS log_e, LOG(n, 2) AS log_null,
    f / i AS over_zero, -f / i AS minus_over_zero, z / i AS zero_over_zero, n / i AS null_over_zero,
    f / 4 AS quarter, f % i AS mod_zero, MOD(f, 1.5) AS mod, CAST(s AS DOUBLE) AS no_number,
    CAST(' 2.5' AS REAL) AS number, CAST('-inf' AS DOUBLE) AS minus_inf,
    CAST(ns AS DOUBLE) AS no_text, i + '1' AS text_plus, '2.5' * f AS text_times
FROM t;
CREATE VIEW strings AS SELECT
    ASCII(s) AS ascii, ASCII(e) AS ascii_empty, ASCII(ns) AS ascii_null,
    CHR(128512) AS chr_emoji, CHR(256) AS chr_256, CHR(0) AS chr_0, CHR(k) AS chr_negative,
    CHR(55296) AS chr_surrogate, CHR(1114112) AS chr_too_big, CHR(nk) AS chr_null,
    OCTET_LENGTH(s) AS octets, OCTET_LENGTH(e) AS octets_empty,
    OVERLAY('Txxxxas' PLACING 'hom' FROM 2 FOR 4) AS thomas,
    OVERLAY('abcdef' PLACING 'XY' FROM 3) AS as_long_as_r,
    OVERLAY('abc' PLACING 'XY' FROM i) AS from_0,
    OVERLAY('abc' PLACING 'XY' FROM 5) AS past_the_end,
    OVERLAY('abcdef' PLACING 'XY' FROM 2 FOR k) AS for_negative,
    OVERLAY('abcdef' PLACING 'XY' FROM 2 FOR 2147483647) AS for_ever,
    OVERLAY(s PLACING 'x' FROM 2 FOR 1) AS code_points,
    OVERLAY('abc' PLACING ns FROM 1) AS placing_null,
    OVERLAY('abc' PLACING 'x' FROM i FOR nk) AS for_null,
    POSITION('b' IN 'abcb' FROM 3) AS position_from, POSITION('b' IN 'abcb' FROM 5) AS after,
    SHA1(e) AS sha1_empty, SHA256(e) AS sha256_empty, SHA512(ns) AS sha512_null,
    SEQUENCE(k, 2) AS from_minus_1, SEQUENCE(2, k) AS backwards, SEQUENCE(nk, 2) AS sequence_null
FROM t;
"""


def test_math_and_string_functions_at_their_edges(spark: SparkSession) -> None:
    row = {"f": 2.0, "z": -0.0, "n": None, "i": 0, "s": "é😀x", "e": "", "ns": None, "k": -1}
    deltas = changes_of_one_row(spark, PROGRAM, row)
    [math_change] = deltas["math"]
    # Spark's JSON writes NaN and the infinities as strings.
    assert math_change["insert"] == {
        "asin_2": "NaN",
        "acos_minus_2": "NaN",
        "cot_0": "Infinity",
        "cbrt": -2.0,
        "half_turn": 180.0,
        "pi": math.pi,
        "tan_right_angle": 1.633123935319537e16,  # Java's: no infinity at pi / 2
        "atan2_minus_zero": -math.pi,  # Java's sign of -0.0, which Spark's own loses
        "atan2_zeros": -math.pi,
        "atan2_zero_left": math.pi,
        "atan2_zero": 0.0,
        "atan2_up": math.pi / 2,
        "sin_null": None,
        "atan2_null": None,
        "nan": True,
        "not_nan": False,
        "nan_null": None,
        "inf": True,
        "not_inf": False,
        "inf_null": None,
        "sinh": 0.0,
        "cosh": 1.0,
        "tanh": math.tanh(2.0),
        "sec_0": 1.0,
        "csc_0": "Infinity",
        "asinh": math.asinh(2.0),
        "acosh_0": "NaN",
        "atanh_1": "Infinity",
        "sech_0": 1.0,
        "csch_0": "Infinity",
        "coth_0": "Infinity",
        "coth": 1 / math.tanh(2.0),
        "log_8_base_2": 3.0,
        "log_e": math.log(2.0),
        "log_null": None,
        # IEEE's, as Feldera has them (Spark's own fail): Infinity of the dividend's sign
        # over 0, NaN for 0 / 0 and a remainder by 0; text that is no number casts to 0.
        "over_zero": "Infinity",
        "minus_over_zero": "-Infinity",
        "zero_over_zero": "NaN",
        "null_over_zero": None,
        "quarter": 0.5,
        "mod_zero": "NaN",
        "mod": 0.5,
        "no_number": 0.0,
        "number": 2.5,
        "minus_inf": "-Infinity",
        "no_text": None,
        "text_plus": 1,  # text with a number is cast to its type, as Calcite coerces it
        "text_times": 5.0,
    }
    [strings] = deltas["strings"]
    assert strings["insert"] == {
        "ascii": 233,  # the code point, not the first byte
        "ascii_empty": 0,
        "ascii_null": None,
        "chr_emoji": "😀",
        "chr_256": "Ā",  # Spark's own CHR is the character of n % 256
        "chr_0": "\x00",
        "chr_negative": "",
        "chr_surrogate": "",
        "chr_too_big": "",
        "chr_null": None,
        "octets": 7,  # 2 + 4 + 1 bytes of UTF-8
        "octets_empty": 0,
        "thomas": "Thomas",
        "as_long_as_r": "abXYef",
        "from_0": "abc",
        "past_the_end": "abcXY",
        "position_from": 4,
        "after": 0,
        "sha1_empty": hashlib.sha1(b"").hexdigest(),
        "sha256_empty": hashlib.sha256(b"").hexdigest(),
        "sha512_null": None,
        "from_minus_1": [-1, 0, 1, 2],
        "backwards": [],  # an end before the start: none (Spark's own counts down)
        "sequence_null": None,
        "for_negative": "aXYbcdef",  # Spark's own takes a negative length as r's
        "for_ever": "aXY",
        "code_points": "éxx",  # the emoji is one character
        "placing_null": None,
        "for_null": None,
    }


EXTRACTS = """
CREATE TABLE t (s VARCHAR, e VARCHAR, i INTEGER, ts TIMESTAMP, d DATE);
CREATE VIEW extracts AS SELECT
    REGEXP_EXTRACT(s, '(&|^)channel_id=([^&]*)', 2) AS channel,
    REGEXP_EXTRACT(s, 'x=[0-9]') AS whole_match, REGEXP_EXTRACT(s, 'z+') AS no_match,
    SPLIT_INDEX('a/b//c', '/', 2) AS empty_piece, SPLIT_INDEX('a/b//c', '/', 3) AS last,
    SPLIT_INDEX('a/b//c', '/', 4) AS past_the_end, SPLIT_INDEX('a/b', '/', i) AS before_0,
    SPLIT_INDEX(e, '/', 0) AS of_empty, SPLIT_INDEX('a.b', '.', 1) AS dot,
    SPLIT_INDEX('a/b/', '/', 2) AS trailing
FROM t;
CREATE VIEW formats AS SELECT
    FORMAT_DATE('%Y-%m-%d', ts) AS day, FORMAT_DATE('yyyy-MM-dd', d) AS not_specifiers,
    FORMAT_DATE('%a %d %b %Y, day %j', d) AS leap_day, FORMAT_DATE('%A %B %y', d) AS names,
    FORMAT_TIMESTAMP('%H:%M:%S %p', ts) AS clock,
    FORMAT_TIMESTAMP('%I o''clock, 100%%', ts) AS quoted, FORMAT_TIMESTAMP('%F %T', d) AS midnight,
    FORMAT_TIMESTAMP('%R', CAST(NULL AS TIMESTAMP)) AS of_null,
    PARSE_DATE('%d/%m/%Y', '29/02/2024') AS parsed_day, PARSE_DATE('%Y-%m-%d', s) AS no_day,
    PARSE_TIMESTAMP('%Y-%m-%d %H:%M:%S', CAST(ts AS VARCHAR)) AS parsed_timestamp,
    PARSE_TIME('%H:%M', '10:10') AS parsed_time, PARSE_TIME('%H:%M', '25:10') AS no_time,
    PARSE_DATE(' %Y-%m-%d', '   2020-10-01') AS spaced_day
FROM t;
"""


def test_regexp_extract_split_index_and_strftime_formats(spark: SparkSession) -> None:
    """Flink's REGEXP_EXTRACT and SPLIT_INDEX (NULL where there is nothing to give, not
    Spark's ''), and strftime's formats as Feldera and DuckDB write them."""
    row = {"s": "ch=7&channel_id=abc&x=1", "e": "", "i": -1, "ts": "2023-03-05 14:07:09",
           "d": "2024-02-29"}  # fmt: skip
    deltas = changes_of_one_row(spark, EXTRACTS, row)
    [extracts] = deltas["extracts"]
    assert extracts["insert"] == {
        "channel": "abc",
        "whole_match": "x=1",
        "no_match": None,
        "empty_piece": "",
        "last": "c",
        "past_the_end": None,
        "before_0": None,
        "of_empty": None,
        "dot": "b",  # the separator is text, not a regular expression
        "trailing": "",
    }
    [formats] = deltas["formats"]
    assert formats["insert"] == {
        "day": "2023-03-05",
        "not_specifiers": "yyyy-MM-dd",  # only % starts a specifier
        "leap_day": "Thu 29 Feb 2024, day 060",
        "names": "Thursday February 24",
        "clock": "14:07:09 PM",
        "quoted": "02 o'clock, 100%",
        "midnight": "2024-02-29 00:00:00",
        "of_null": None,
        # Feldera's PARSE_*, the inverse of FORMAT_*: NULL where the text does not read.
        "parsed_day": "2024-02-29",
        "no_day": None,
        "parsed_timestamp": "2023-03-05 14:07:09",
        "parsed_time": "10:10:00",
        "no_time": None,
        "spaced_day": "2020-10-01",  # a space in the format matches a run of them
    }


CASTS = """
CREATE TABLE t (s VARCHAR, short VARCHAR, b BOOLEAN, nb BOOLEAN, d DATE, i2 INT2, f8 FLOAT8,
    r REAL);
CREATE VIEW casts AS SELECT
    CAST(s AS VARCHAR(5)) AS varchar_5, CAST(short AS VARCHAR(5)) AS varchar_short,
    CAST(s AS CHAR(7)) AS char_7, CAST(short AS CHARACTER(4)) AS char_padded,
    CAST(s AS CHARACTER VARYING(3)) AS varying_3, CAST(s AS VARCHAR) AS whole,
    CAST(b AS VARCHAR) AS true_text, CAST(NOT b AS VARCHAR(3)) AS false_cut,
    CAST(nb AS VARCHAR) AS null_text, CONCAT(b, '!') AS concat_bool,
    TIMESTAMP_TRUNC(d, MONTH) AS ts_month, DATE_TRUNC(d, MONTH) AS date_month,
    i2 + 1 AS smallint_plus, f8 / 4 AS double_quarter, INITCAP('h@pP√ fOO_bar 2nd') AS words,
    r = -57681.18 AS real_equal, r > -57681.18 AS real_greater, d > '2020-06-20' AS date_text,
    CAST(CAST(d AS VARCHAR) AS DATE) AS text_date, CAST(s AS DATE) AS no_date,
    CAST('2020-13-45' AS DATE) AS impossible_date, CAST(short AS TIMESTAMP) AS no_timestamp,
    CAST('2020-06-21 10:11:12' AS TIMESTAMP) AS text_timestamp,
    CAST(TIMESTAMP '2020-01-02 03:04:05.5' AS TIME) AS time_of_day,
    CAST(CAST(d AS TIMESTAMP) AS TIME) AS midnight, CAST(' 7:08:09' AS TIME) AS text_time,
    CAST('25:00:00' AS TIME) AS no_time,
    SPLIT_PART('a|b|c|', '|', 2) AS part_2, SPLIT_PART('a|b|c|', '|', -2) AS part_minus_2,
    SPLIT_PART('a|b|c|', '|', 5) AS part_5, SPLIT_PART(s, '-', 0) AS part_0,
    SPLIT_PART(s, '', 1) AS part_whole, SPLIT_PART(s, '-', CAST(NULL AS INTEGER)) AS part_null
FROM t;
"""


def test_casts_to_char_and_varchar_lengths_and_of_booleans(spark: SparkSession) -> None:
    """CAST to CHAR(n) pads or cuts to n, to VARCHAR(n) cuts; a BOOLEAN as text is TRUE or
    FALSE (Calcite, Feldera); TIMESTAMP_TRUNC of a DATE is a TIMESTAMP. A number literal
    compared with a REAL is a REAL, a string literal compared with a DATE a DATE. Text
    that is no DATE, TIMESTAMP or TIME casts to NULL, as in Feldera, and the step goes
    on; a TIME is written 'HH:MM:SS[.ffffff]', whatever it was cast from.
    SPLIT_PART as Feldera documents it."""
    row = {"s": "variable-length", "short": "ab", "b": True, "nb": None, "d": "2020-06-21",
           "i2": 7, "f8": 1.0, "r": -57681.18}  # fmt: skip
    deltas = changes_of_one_row(spark, CASTS, row)
    [casts] = deltas["casts"]
    assert casts["insert"] == {
        "varchar_5": "varia",
        "varchar_short": "ab",
        "char_7": "variabl",
        "char_padded": "ab  ",
        "varying_3": "var",
        "whole": "variable-length",
        "true_text": "TRUE",
        "false_cut": "FAL",
        "null_text": None,
        "concat_bool": "TRUE!",
        "ts_month": "2020-06-01 00:00:00",
        "date_month": "2020-06-01",
        "smallint_plus": 8,
        "double_quarter": 0.25,
        "words": "H@Pp√ Foo_Bar 2nd",  # a word: letters and digits (Calcite, Feldera)
        "real_equal": True,
        "real_greater": False,
        "date_text": True,
        "text_date": "2020-06-21",
        "no_date": None,
        "impossible_date": None,
        "no_timestamp": None,
        "text_timestamp": "2020-06-21 10:11:12",
        "time_of_day": "03:04:05.500",  # whole milliseconds: three digits (Feldera)
        "midnight": "00:00:00",
        "text_time": "07:08:09",
        "no_time": None,
        "part_2": "b",
        "part_minus_2": "c",
        "part_5": "",
        "part_0": "",
        "part_whole": "variable-length",
        "part_null": None,
    }


IMPLICIT = """
CREATE TABLE t (s VARCHAR, n INT, d DECIMAL(6,2), r REAL, b BOOLEAN);
CREATE VIEW implicit AS SELECT
    ATANH(s) AS atanh_text, LEFT(n, 2) AS left_int, LEN(d) AS len_decimal,
    SUBSTRING(n FROM 2) AS substring_int, REGEXP_REPLACE(n, '1', 'x') AS replaced_int,
    n RLIKE '^-' AS rlike_int, SPLIT_PART(d, '.', 1) AS part_decimal,
    CAST(d AS BOOLEAN) AS decimal_bool, CAST(r - r AS BOOLEAN) AS zero_bool,
    CAST(b AS DOUBLE) AS bool_double, CASE r WHEN -57681.18 THEN 0 ELSE 1 END AS real_case,
    CASE s WHEN '0.12' THEN 'text' END AS text_case, BROUND(d, 1) AS bround_decimal,
    BROUND(CAST(0.25 AS DECIMAL(3,2)), 1) AS bround_half, BROUND(n, 1) AS bround_int
FROM t;
"""


def test_numbers_as_text_text_as_numbers_and_numbers_as_booleans(spark: SparkSession) -> None:
    """Feldera's implicit casts: a number where a string function takes text is its text,
    text where a DOUBLE function takes a number is one; a number is TRUE when not 0. A
    simple CASE compares a number literal with a REAL as a REAL, as `=` does."""
    row = {"s": "0.12", "n": -12, "d": "-1111.52", "r": -57681.18, "b": True}
    [change] = changes_of_one_row(spark, IMPLICIT, row)["implicit"]
    assert change["insert"] == {
        "atanh_text": math.atanh(0.12),
        "left_int": "-1",
        "len_decimal": 8,
        "substring_int": "12",
        "replaced_int": "-x2",
        "rlike_int": True,
        "part_decimal": "-1111",
        "decimal_bool": True,
        "zero_bool": False,
        "bool_double": 1.0,
        "real_case": 0,
        "text_case": "text",
        "bround_decimal": "-1111.50",
        "bround_half": "0.20",  # to the even neighbour (ROUND gives 0.30)
        "bround_int": -12,
    }


QUOTIENTS = """
CREATE TABLE t (a BIGINT, b BIGINT, i INTEGER, j INTEGER, s TINYINT);
CREATE VIEW quotients AS SELECT a / b AS big, a / 2 AS big_half, i / j AS cut, s / j AS tiny
FROM t;
"""


def test_whole_numbers_divide_exactly_cut_toward_zero(spark: SparkSession) -> None:
    row = {"a": 9007199254740993, "b": 1, "i": -7, "j": 2, "s": 7}
    [change] = changes_of_one_row(spark, QUOTIENTS, row)["quotients"]
    # 2^53 + 1 has no DOUBLE: the quotient of two BIGINTs is not taken through one.
    assert change["insert"] == {
        "big": 9007199254740993,
        "big_half": 4503599627370496,
        "cut": -3,
        "tiny": 3,
    }


EPOCH_MILLISECONDS = """
CREATE TABLE t (ts TIMESTAMP, n BIGINT, x DOUBLE);
CREATE VIEW epoch AS SELECT CAST(ts AS BIGINT) AS ms, CAST(ts AS DOUBLE) AS ms_double,
    CAST(n AS TIMESTAMP) AS back, CAST(x AS TIMESTAMP) AS before_1970 FROM t;
"""


def test_a_timestamp_casts_to_and_from_milliseconds_since_1970(spark: SparkSession) -> None:
    row = {"ts": "2020-06-21 14:00:00.5", "n": 1592748000500, "x": -1.5}
    [change] = changes_of_one_row(spark, EPOCH_MILLISECONDS, row)["epoch"]
    # Feldera's casts: a number of milliseconds since 1970-01-01 (a fraction floored).
    assert change["insert"] == {
        "ms": 1592748000500,
        "ms_double": 1592748000500.0,
        "back": "2020-06-21 14:00:00.5",
        "before_1970": "1969-12-31 23:59:59.998",
    }


EXTREMES = """
CREATE TABLE t (a INTEGER, b INTEGER);
CREATE VIEW extremes AS SELECT GREATEST(a, b, 3) AS g, LEAST(a, 3) AS l,
    GREATEST_IGNORE_NULLS(a, b, 3) AS gi, LEAST_IGNORE_NULLS(a, b) AS li, IFNULL(b, 7) AS i,
    NVL(b, a) AS n FROM t;
"""


def test_greatest_and_least_are_null_where_an_argument_is(spark: SparkSession) -> None:
    [change] = changes_of_one_row(spark, EXTREMES, {"a": 5, "b": None})["extremes"]
    # Calcite's and Feldera's; the _IGNORE_NULLS spellings leave NULLs out.
    assert change["insert"] == {"g": None, "l": 3, "gi": 5, "li": 5, "i": 7, "n": 5}


SPELLINGS = """
CREATE TABLE t (a INTEGER, b VARCHAR);
CREATE VIEW spelled AS SELECT CASE a WHEN 1, 2 THEN 'low' WHEN 3 THEN 'three' ELSE 'high' END AS c,
    DATE_TRUNC('2020-01-10', MONTH) AS month_start, TIME_TRUNC('12:34:56.78', MINUTE) AS minute,
    CAST('2020-01-10 10:00:00' AS DATETIME) AS dt, CAST(a AS FLOAT64) AS f,
    INITCAP_SPACES('h@pP fOO') AS spaced FROM t;
CREATE VIEW counted AS SELECT COUNT(a, b) AS both_present, COUNT(*) AS n FROM t;
CREATE VIEW lateral_aliases AS SELECT a AS x, x * 2 AS y, COUNT(*) AS n FROM t
    GROUP BY a HAVING n >= 1 AND x > 2;
"""


def test_feldera_s_spellings_of_case_truncation_types_count_and_aliases(
    spark: SparkSession,
) -> None:
    rows = [{"a": 2, "b": "x"}, {"a": 5, "b": None}, {"a": None, "b": "y"}, {"a": 3, "b": "z"}]
    after = contents_after_steps(spark, SPELLINGS, [{"t": [{"insert": r} for r in rows]}])
    # CASE a WHEN 1, 2: either value (Calcite's); Feldera's documented truncations.
    assert sorted(r["c"] for r in after[0]["spelled"]) == ["high", "high", "low", "three"]
    assert {(r["month_start"], r["minute"], r["dt"], r["spaced"]) for r in after[0]["spelled"]} == {
        ("2020-01-01", "12:34:00", "2020-01-10 10:00:00", "H@pp Foo")
    }
    # COUNT(a, b): the rows where neither is NULL.
    assert after[0]["counted"] == [{"both_present": 2, "n": 4}]
    # An alias in the items after it and in HAVING (Feldera's lateral aliases).
    assert sorted(r["x"] for r in after[0]["lateral_aliases"]) == [3, 5]
    assert {r["y"] - 2 * r["x"] for r in after[0]["lateral_aliases"]} == {0}


def test_round_and_truncate_to_a_column_s_number_of_places(spark: SparkSession) -> None:
    """ROUND / BROUND / TRUNCATE(x, g) with g a column: Spark takes only constant places."""
    program = """
        CREATE TABLE t (d DECIMAL(8, 3), f DOUBLE, i INTEGER, b BIGINT, g INTEGER);
        CREATE VIEW v AS SELECT ROUND(d, g) AS rd, TRUNCATE(d, g) AS td, BROUND(d, g) AS bd,
            ROUND(f, g) AS rf, TRUNCATE(f, g) AS tf, ROUND(i, g) AS ri, TRUNCATE(b, g) AS tb
        FROM t;"""
    found = {}
    for g in (None, -6, -2, 0, 1, 2, 5):
        row = {"d": -1234.565, "f": -1234.565, "i": -1255, "b": 987654321987, "g": g}
        [change] = changes_of_one_row(spark, program, row)["v"]
        found[g] = tuple(change["insert"].values())
    assert found == {
        None: (None,) * 7,
        -6: ("0.000", "0.000", "0.000", 0.0, 0.0, 0, 987654000000),
        -2: ("-1200.000", "-1200.000", "-1200.000", -1200.0, -1200.0, -1300, 987654321900),
        0: ("-1235.000", "-1234.000", "-1235.000", -1235.0, -1234.0, -1255, 987654321987),
        1: ("-1234.600", "-1234.500", "-1234.600", -1234.6, -1234.5, -1255, 987654321987),
        # Half to the even neighbour (BROUND): -1234.565 is -1234.56.
        2: ("-1234.570", "-1234.560", "-1234.560", -1234.57, -1234.56, -1255, 987654321987),
        5: ("-1234.565", "-1234.565", "-1234.565", -1234.565, -1234.565, -1255, 987654321987),
    }


def test_similar_to_matches_whole_strings_with_sql_and_regex_operators(
    spark: SparkSession,
) -> None:
    program = """
        CREATE TABLE t (s VARCHAR);
        CREATE VIEW v AS SELECT s, s SIMILAR TO '%(b|d)%' AS bd, s NOT SIMILAR TO 'a_c' AS not_abc,
            s SIMILAR TO 'a.c' AS dot, s SIMILAR TO '[0-9]{2}#%' ESCAPE '#' AS pct,
            s SIMILAR TO '(ab)+' AS rep FROM t;"""
    found = {}
    for s in ("abc", "a.c", "xdx", "12%", "ababab", "a\nb", None):
        [change] = changes_of_one_row(spark, program, {"s": s})["v"]
        row = change["insert"]
        found[s] = (row["bd"], row["not_abc"], row["dot"], row["pct"], row["rep"])
    assert found == {
        "abc": (True, False, False, False, False),
        "a.c": (False, False, True, False, False),  # `.` stands for itself
        "xdx": (True, True, False, False, False),
        "12%": (False, True, False, True, False),
        "ababab": (True, True, False, False, True),
        "a\nb": (True, True, False, False, False),  # `%` spans lines
        None: (None,) * 5,
    }
