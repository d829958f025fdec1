"""EXTRACT's units and the functions that are EXTRACT of one unit (YEAR(ts), ...)."""

from __future__ import annotations

import pytest

from backend.compiler import compile_program
from tests.unit.compiler.compiled import errors_of

DDL = "CREATE TABLE t (ts TIMESTAMP, d DATE NOT NULL, tm TIME, s VARCHAR);\n"


def _errors(sql: str) -> list[tuple[str, str]]:
    return errors_of(DDL + sql)


def _columns(sql: str) -> list[tuple[str, str, bool]]:
    result = compile_program(DDL + sql)
    assert not result.has_errors, result.diagnostics_json()
    [view] = [r for r in result.to_json()["catalog"]["relations"] if r["name"] == "v"]
    return [(c["name"], c["type"], c["nullable"]) for c in view["columns"]]


def test_every_unit_of_extract_and_its_function_is_a_bigint() -> None:
    sql = (
        "CREATE VIEW v AS SELECT EXTRACT(QUARTER FROM ts) AS q, EXTRACT(WEEK FROM d) AS w, "
        "EXTRACT(DOW FROM d) AS dow, EXTRACT(DOY FROM ts) AS doy, YEAR(d) AS y, "
        "QUARTER(ts) AS q2, MONTH(d) AS m, WEEK(ts) AS w2, DAYOFMONTH(d) AS dm, "
        "DAYOFWEEK(ts) AS dw, DAYOFYEAR(d) AS dy, HOUR(tm) AS h, MINUTE(ts) AS mi, "
        "SECOND(tm) AS sec, EXTRACT(EPOCH FROM d) AS e, EXTRACT(MILLISECOND FROM tm) AS ms, "
        "EXTRACT(MICROSECOND FROM ts) AS us FROM t;"
    )
    columns = _columns(sql)
    assert {type_ for _, type_, _ in columns} == {"BIGINT"}
    nullable = {name: is_nullable for name, _, is_nullable in columns}
    assert nullable["y"] is False and nullable["dm"] is False, "d is NOT NULL"
    assert nullable["q"] is True and nullable["h"] is True


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        ("SELECT EXTRACT(DOW FROM tm) FROM t", "Cannot EXTRACT DOW from TIME"),
        ("SELECT YEAR(s) FROM t", "Cannot YEAR from VARCHAR"),
        ("SELECT EXTRACT(FORTNIGHT FROM ts) FROM t", "Cannot EXTRACT FORTNIGHT"),
        ("SELECT EXTRACT(EPOCH FROM tm) FROM t", "Cannot EXTRACT EPOCH from TIME"),
        ("SELECT DATE_PART(FORTNIGHT, ts) FROM t", "DATE_PART expects a unit and a value"),
        ("SELECT DATE_PART('hour') FROM t", "DATE_PART expects a unit and a value"),
        ("SELECT DATE_PART(DOW, tm) FROM t", "Cannot DATE_PART DOW from TIME"),
        ("SELECT YEAR(ts, d) FROM t", "YEAR expects 1 argument"),
        ("SELECT MONTH(*) FROM t", "MONTH expects 1 argument"),
    ],
)
def test_a_unit_its_argument_cannot_have_is_an_error(sql: str, message: str) -> None:
    errors = _errors(f"CREATE VIEW v AS {sql};")
    assert len(errors) == 1 and message in errors[0][1], errors


def test_timestampadd_keeps_a_date_for_whole_days_and_timestampdiff_is_an_integer() -> None:
    columns = _columns(
        "CREATE VIEW v AS SELECT TIMESTAMPADD(DAY, 1, d) AS a, TIMESTAMPADD(HOUR, 1, d) AS b, "
        "TIMESTAMPADD(quarter, x, ts) AS c, TIMESTAMPDIFF(SECOND, d, ts) AS e, "
        "TIMESTAMPDIFF(YEAR, d, d) AS f FROM (SELECT ts, d, 2 AS x FROM t);"
    )
    assert columns == [
        ("a", "DATE", False),
        ("b", "TIMESTAMP", False),
        ("c", "TIMESTAMP", True),
        ("e", "INTEGER", True),
        ("f", "INTEGER", False),
    ]


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        ("SELECT TIMESTAMPADD('HOUR', 1, ts) FROM t", "expects a time unit first"),
        ("SELECT TIMESTAMPADD(FORTNIGHT, 1, ts) FROM t", "expects a time unit first"),
        ("SELECT TIMESTAMPADD(HOUR, 1.5, ts) FROM t", "adds an integer number of units"),
        ("SELECT TIMESTAMPADD(DAY, 1, tm) FROM t", "expects a TIMESTAMP or DATE, found TIME"),
        ("SELECT TIMESTAMPDIFF(DAY, ts, s) FROM t", "expects TIMESTAMP or DATE values"),
        ("SELECT TIMESTAMPDIFF(DAY, ts) FROM t", "TIMESTAMPDIFF expects 3 arguments"),
    ],
)
def test_wrong_timestamp_arithmetic_is_an_error(sql: str, message: str) -> None:
    errors = _errors(f"CREATE VIEW v AS {sql};")
    assert len(errors) == 1 and message in errors[0][1], errors


def test_date_trunc_is_floor_whichever_order_the_unit_comes_in() -> None:
    floor = compile_program(DDL + "CREATE VIEW v AS SELECT FLOOR(ts TO HOUR) AS h FROM t;")
    spellings = ("DATE_TRUNC('hour', ts)", "TIMESTAMP_TRUNC(ts, HOUR)", "date_trunc(ts, hours)")
    for spelling in spellings:
        result = compile_program(DDL + f"CREATE VIEW v AS SELECT {spelling} AS h FROM t;")
        assert not result.has_errors, result.diagnostics_json()
        [view] = result.to_json()["plan"]["views"]
        [floored] = floor.to_json()["plan"]["views"]
        assert _without_spans(view["query"]) == _without_spans(floored["query"])
    assert _columns("CREATE VIEW v AS SELECT DATE_TRUNC(d, MONTH) AS m FROM t;") == [
        ("m", "DATE", False)
    ]


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        ("SELECT DATE_TRUNC('fortnight', ts) FROM t", "Unknown time unit FORTNIGHT"),
        ("SELECT DATE_TRUNC(ts) FROM t", "DATE_TRUNC expects a unit and a value"),
        ("SELECT TIMESTAMP_TRUNC(ts, 'x' || 'y') FROM t", "TIMESTAMP_TRUNC expects a unit"),
        ("SELECT DATE_TRUNC('hour', s) FROM t", "expects a TIMESTAMP or DATE, found VARCHAR"),
    ],
)
def test_a_truncation_without_a_unit_or_a_time_is_an_error(sql: str, message: str) -> None:
    errors = _errors(f"CREATE VIEW v AS {sql};")
    assert len(errors) == 1 and message in errors[0][1], errors


def _without_spans(node: object) -> object:
    if isinstance(node, dict):
        return {k: _without_spans(v) for k, v in node.items() if k != "span"}
    if isinstance(node, list):
        return [_without_spans(v) for v in node]
    return node


def test_dayname_monthname_and_last_day_of_a_date_or_timestamp() -> None:
    columns = _columns(
        "CREATE VIEW v AS SELECT DAYNAME(d) AS dn, MONTHNAME(ts) AS mn, LAST_DAY(d) AS l, "
        "LAST_DAY(ts) AS lt FROM t;"
    )
    assert columns == [
        ("dn", "VARCHAR", False),
        ("mn", "VARCHAR", True),
        ("l", "DATE", False),
        ("lt", "DATE", True),
    ]
    assert _errors("CREATE VIEW v AS SELECT DAYNAME(tm) FROM t;") == [
        ("SQL206", "DAYNAME expects a DATE or TIMESTAMP, found TIME")
    ]
    assert _errors("CREATE VIEW v AS SELECT LAST_DAY(s) FROM t;") == [
        ("SQL206", "LAST_DAY expects a DATE or TIMESTAMP, found VARCHAR")
    ]


@pytest.mark.parametrize(
    ("other", "standard"),
    [
        ("DATEDIFF(DAY, d, ts)", "TIMESTAMPDIFF(DAY, d, ts)"),
        ("DATEADD(HOUR, 2, ts)", "TIMESTAMPADD(HOUR, 2, ts)"),
    ],
)
def test_datediff_and_dateadd_are_timestampdiff_and_timestampadd(other: str, standard: str) -> None:
    diff = compile_program(DDL + f"CREATE VIEW v AS SELECT {standard} AS n FROM t;")
    [expected] = diff.to_json()["plan"]["views"]
    result = compile_program(DDL + f"CREATE VIEW v AS SELECT {other} AS n FROM t;")
    assert not result.has_errors, result.diagnostics_json()
    [view] = result.to_json()["plan"]["views"]
    assert _without_spans(view["query"]) == _without_spans(expected["query"])


def test_datediff_names_its_mistakes() -> None:
    errors = _errors("CREATE VIEW v AS SELECT DATEDIFF(FORTNIGHT, d, ts) FROM t;")
    assert len(errors) == 1 and errors[0][1].startswith("DATEDIFF expects a time unit"), errors


def test_date_part_names_its_unit_and_a_dates_time_units_are_its_midnights() -> None:
    result = compile_program(
        DDL + "CREATE VIEW v AS SELECT DATE_PART(HOUR, ts) AS a, DATE_PART('dow', d) AS b, "
        "EXTRACT(HOUR FROM d) AS c, MINUTE(d) AS e FROM t;"
    )
    assert not result.has_errors, result.diagnostics_json()
    exprs = result.to_json()["plan"]["views"][0]["query"]["exprs"]
    functions = [e["function"] for e in exprs]
    assert functions == ["extract_hour", "extract_dow", "extract_hour", "extract_minute"]
    # A DATE's time units are those of its midnight, TIMESTAMP, as Feldera's: 0.
    assert [e["args"][0]["kind"] for e in exprs] == ["column", "column", "cast", "cast"]


def test_a_difference_of_times_in_units_is_an_interval() -> None:
    # (t1 - t2) unit, as Calcite and Feldera write it: not an alias named after the unit.
    assert _columns(
        "CREATE VIEW v AS SELECT (d - d) DAY AS a, (ts - ts) HOUR TO SECOND AS b, "
        "(d - d) MONTH AS c, (ts - ts) YEAR TO MONTH AS e, (d - d) YEAR FROM t;"
    ) == [
        # Of those units (Feldera's types): they decide how the interval is written.
        ("a", "INTERVAL DAY", False),
        ("b", "INTERVAL HOUR TO SECOND", True),
        ("c", "INTERVAL MONTH", False),
        ("e", "INTERVAL YEAR TO MONTH", True),
        ("EXPR$4", "INTERVAL YEAR", False),
    ]
    assert _errors("CREATE VIEW v AS SELECT (d - ts) DAY FROM t;") == [
        (
            "SQL206",
            "(t1 - t2) DAY expects two DATEs or two TIMESTAMPs, or two TIMEs, found DATE and "
            "TIMESTAMP",
        )
    ]
    assert _errors("CREATE VIEW v AS SELECT (d - d) YEAR TO DAY FROM t;") == [
        ("SQL209", "Invalid interval qualifier YEAR TO DAY")
    ]
    # A single unit's interval casts to an integer: its number of units.
    assert _columns(
        "CREATE VIEW v AS SELECT CAST((d - d) MONTH AS BIGINT) AS m, "
        "CAST((ts - ts) SECOND AS INTEGER) AS s FROM t;"
    ) == [("m", "BIGINT", False), ("s", "INTEGER", True)]
    # An interval's text casts to an interval of units; a column cannot be one.
    assert _columns("CREATE VIEW v AS SELECT CAST(s AS INTERVAL HOUR TO MINUTE) AS i FROM t;") == [
        ("i", "INTERVAL HOUR TO MINUTE", True)
    ]
    assert _errors("CREATE VIEW v AS SELECT CAST(s AS INTERVAL MINUTE TO HOUR) FROM t;") == [
        ("SQL209", "Invalid interval qualifier MINUTE TO HOUR")
    ]
    # INTERVAL amount unit: that many units, a number or its text (Feldera's).
    assert _columns(
        "CREATE VIEW v AS SELECT d - INTERVAL s MONTH AS m, ts + INTERVAL -CHAR_LENGTH(s) SECOND "
        "AS s FROM t;"
    ) == [("m", "DATE", True), ("s", "TIMESTAMP", True)]
    assert _errors("CREATE VIEW v AS SELECT INTERVAL d DAY FROM t;") == [
        ("SQL206", "INTERVAL ... DAY expects a number or its text, found DATE")
    ]
    assert _errors("CREATE VIEW v AS SELECT CAST((d - d) DAY TO HOUR AS BIGINT) FROM t;") == [
        ("SQL206", "Cannot cast INTERVAL DAY TO HOUR to BIGINT")
    ]


def test_feldera_s_truncations_of_text_and_other_type_names() -> None:
    # DATE_TRUNC('2020-01-10', MONTH): the text is a DATE (TIME_TRUNC's a TIME, ...).
    assert _columns(
        "CREATE VIEW v AS SELECT DATE_TRUNC('2020-01-10', MONTH) AS m, "
        "TIME_TRUNC('12:34:56.78', MINUTE) AS mi, "
        "TIMESTAMP_TRUNC('2020-01-10 10:00:00', MONTH) AS tm, DATE_TRUNC('hour', ts) AS h, "
        "CAST(s AS DATETIME) AS dt, CAST(s AS FLOAT64) AS f, CAST(s AS INT64) AS i, "
        "CAST(s AS NUMBER(5, 1)) AS n FROM t;"
    ) == [
        ("m", "DATE", False),
        ("mi", "TIME", False),
        ("tm", "TIMESTAMP", False),
        ("h", "TIMESTAMP", True),
        ("dt", "TIMESTAMP", True),
        ("f", "DOUBLE", True),
        ("i", "BIGINT", True),
        ("n", "DECIMAL(5,1)", True),
    ]
