"""EXTRACT's units, YEAR(ts)-style functions, TIMESTAMPADD and TIMESTAMPDIFF give
Calcite's values on Spark."""

from pyspark.sql import SparkSession

from tests.integration.runtime.replays import changes_of_one_row, contents_after_steps

PROGRAM = """
CREATE TABLE t (ts TIMESTAMP, d DATE, tm TIME);
CREATE VIEW parts AS SELECT
    YEAR(ts) AS y, QUARTER(ts) AS q, MONTH(ts) AS m, WEEK(ts) AS w, DAYOFMONTH(ts) AS dm,
    DAYOFWEEK(ts) AS dw, DAYOFYEAR(ts) AS dy, HOUR(ts) AS h, MINUTE(ts) AS mi, SECOND(ts) AS s,
    EXTRACT(WEEK FROM d) AS dw_week, EXTRACT(DOW FROM d) AS d_dow, EXTRACT(DOY FROM d) AS d_doy,
    EXTRACT(QUARTER FROM d) AS d_q, EXTRACT(HOUR FROM tm) AS tm_h, SECOND(tm) AS tm_s,
    EXTRACT(MILLISECOND FROM ts) AS ms, EXTRACT(MICROSECOND FROM ts) AS us,
    EXTRACT(MILLISECOND FROM tm) AS tm_ms, EXTRACT(EPOCH FROM ts) AS epoch,
    EXTRACT(EPOCH FROM d) AS d_epoch, EXTRACT(ISODOW FROM ts) AS isodow,
    EXTRACT(ISODOW FROM d) AS d_isodow, EXTRACT(ISOYEAR FROM ts) AS isoyear,
    EXTRACT(ISOYEAR FROM d) AS d_isoyear, EXTRACT(DECADE FROM ts) AS decade,
    EXTRACT(CENTURY FROM ts) AS century, EXTRACT(CENTURY FROM DATE '2000-12-31') AS c2000,
    EXTRACT(MILLENNIUM FROM ts) AS millennium,
    EXTRACT(MILLENNIUM FROM DATE '2000-01-01') AS m2000,
    EXTRACT(HOUR FROM d) AS d_hour, SECOND(d) AS d_second, DATE_PART(MONTH, ts) AS part_month,
    DATE_PART('doy', d) AS part_doy
FROM t;
"""


def test_date_parts_of_a_timestamp_a_date_and_a_time(spark: SparkSession) -> None:
    # 2024-12-31 is a Tuesday in ISO week 1 of 2025, the 366th day of a leap year;
    # 2023-01-01 is a Sunday in ISO week 52 of 2022.
    row = {"ts": "2024-12-31 10:20:30.123456", "d": "2023-01-01", "tm": "23:59:58.5"}
    deltas = changes_of_one_row(spark, PROGRAM, row)
    [change] = deltas["parts"]
    assert change["insert"] == {
        "y": 2024,
        "q": 4,
        "m": 12,
        "w": 1,
        "dm": 31,
        "dw": 3,  # Sunday is 1
        "dy": 366,
        "h": 10,
        "mi": 20,
        "s": 30,
        "dw_week": 52,
        "d_dow": 1,
        "d_doy": 1,
        "d_q": 1,
        "tm_h": 23,
        "tm_s": 58,
        "ms": 30123,  # the seconds with their fraction, as Calcite's MILLISECOND
        "us": 30123456,
        "tm_ms": 58500,
        "epoch": 1735640430,  # 2024-12-31 00:00:00 is 1,735,603,200 s after 1970
        "d_epoch": 1672531200,
        "isodow": 2,  # Monday is 1
        "d_isodow": 7,
        "isoyear": 2025,
        "d_isoyear": 2022,
        "decade": 202,
        "century": 21,
        "c2000": 20,
        "millennium": 3,
        "m2000": 2,
        "d_hour": 0,  # a DATE's time units are its midnight's, as Feldera's
        "d_second": 0,
        "part_month": 12,
        "part_doy": 1,
    }


ARITHMETIC = """
CREATE TABLE t (ts TIMESTAMP, d DATE, tm TIME);
CREATE VIEW moved AS SELECT
    TIMESTAMPADD(HOUR, 5, ts) AS later, TIMESTAMPADD(MONTH, 2, d) AS two_months,
    TIMESTAMPADD(MINUTE, -90, d) AS before_midnight, TIMESTAMPDIFF(DAY, d, ts) AS days,
    TIMESTAMPDIFF(HOUR, ts, d) AS hours_back, TIMESTAMPDIFF(MONTH, d, ts) AS months,
    TIMESTAMPADD(HOUR, 12, tm) AS around_the_clock, TIMESTAMPADD(MILLISECOND, 2, tm) AS ms_later,
    TIMESTAMPDIFF(SECOND, tm, '20:24:44.332'::TIME) AS seconds_between,
    (d - DATE '2014-11-05') DAY AS days_since,
    (d - DATE '2014-11-05') YEAR TO MONTH AS months_since,
    ts + (CAST(d AS TIMESTAMP) - ts) HOUR AS back_to_d
FROM t;
"""


def test_timestampadd_and_timestampdiff(spark: SparkSession) -> None:
    row = {"ts": "2024-12-31 22:00:00", "d": "2023-12-31", "tm": "14:23:44.456"}
    deltas = changes_of_one_row(spark, ARITHMETIC, row)
    [change] = deltas["moved"]
    assert change["insert"] == {
        "later": "2025-01-01 03:00:00",
        "two_months": "2024-02-29",  # the month's last day, as its own day does not exist
        "before_midnight": "2023-12-30 22:30:00",
        "days": 366,  # whole days: 2024 is a leap year, and 22 hours are not a day
        "hours_back": -(366 * 24 + 22),
        "months": 12,
        # A TIME moves by hours and less, and stays a TIME (Feldera's).
        "around_the_clock": "02:23:44.456",
        "ms_later": "14:23:44.458",
        "seconds_between": 21659,
        # (t1 - t2) unit: the difference, as Calcite has it; in months for YEAR and MONTH.
        # Written for its units, as Feldera writes it.
        "days_since": "+3343",
        "months_since": "+9-01",
        "back_to_d": "2023-12-31 00:00:00",
    }


TRUNCATED = """
CREATE TABLE t (ts TIMESTAMP, d DATE, tm TIME);
CREATE VIEW truncated AS SELECT
    DATE_TRUNC('hour', ts) AS h, date_trunc('WEEK', ts) AS w, DATE_TRUNC(d, MONTH) AS m,
    TIMESTAMP_TRUNC(ts, QUARTER) AS q, DATE_TRUNC('year', d) AS y,
    FLOOR(ts TO MILLISECOND) AS ms, CEIL(ts TO MILLISECOND) AS ms_up,
    FLOOR(ts TO MICROSECOND) AS us, FLOOR(ts TO WEEK) AS sunday, DATE_TRUNC(d, WEEK) AS d_sunday,
    CEIL(ts TO WEEK) AS next_sunday, FLOOR(d TO DECADE) AS decade, CEIL(ts TO CENTURY) AS century,
    FLOOR(ts TO MILLENNIUM) AS millennium, FLOOR(tm TO HOUR) AS hour, CEIL(tm TO SECOND) AS second,
    CAST(tm AS TIMESTAMP) AS on_epoch_day
FROM t;
"""


def test_date_trunc_in_either_order_is_floor(spark: SparkSession) -> None:
    # A Tuesday, a Friday. DATE_TRUNC('week', ts)'s weeks start on Monday (PostgreSQL's),
    # FLOOR's and DATE_TRUNC(d, WEEK)'s on Sunday (Calcite's, Feldera's, BigQuery's).
    row = {"ts": "2024-12-31 10:20:30.123456", "d": "2023-02-17", "tm": "14:23:44.456"}
    deltas = changes_of_one_row(spark, TRUNCATED, row)
    [change] = deltas["truncated"]
    assert change["insert"] == {
        "h": "2024-12-31 10:00:00",
        "w": "2024-12-30 00:00:00",
        "m": "2023-02-01",
        "q": "2024-10-01 00:00:00",
        "y": "2023-01-01",
        "ms": "2024-12-31 10:20:30.123",
        "ms_up": "2024-12-31 10:20:30.124",
        "us": "2024-12-31 10:20:30.123456",
        "sunday": "2024-12-29 00:00:00",
        "d_sunday": "2023-02-12",
        "next_sunday": "2025-01-05 00:00:00",
        "decade": "2020-01-01",
        "century": "2100-01-01 00:00:00",
        "millennium": "2000-01-01 00:00:00",
        "hour": "14:00:00",
        "second": "14:23:45",
        "on_epoch_day": "1970-01-01 14:23:44.456",  # as Feldera casts a TIME
    }


NAMED = """
CREATE TABLE t (ts TIMESTAMP, d DATE, nd DATE);
CREATE VIEW named AS SELECT
    DAYNAME(d) AS day, MONTHNAME(d) AS month, DAYNAME(ts) AS ts_day, MONTHNAME(ts) AS ts_month,
    LAST_DAY(d) AS last, LAST_DAY(ts) AS ts_last, DAYNAME(nd) AS no_day, LAST_DAY(nd) AS no_last,
    DATEDIFF(MONTH, d, ts) AS months
FROM t;
"""


def test_day_and_month_names_last_days_and_datediff(spark: SparkSession) -> None:
    row = {"ts": "2024-02-10 10:10:10", "d": "2023-12-31", "nd": None}  # a Saturday, a Sunday
    deltas = changes_of_one_row(spark, NAMED, row)
    [change] = deltas["named"]
    assert change["insert"] == {
        "day": "Sunday",  # in full, as Calcite's (Spark's own DAYNAME is 'Sun')
        "month": "December",
        "ts_day": "Saturday",
        "ts_month": "February",
        "last": "2023-12-31",
        "ts_last": "2024-02-29",
        "no_day": None,
        "no_last": None,
        "months": 1,  # as TIMESTAMPDIFF: the 10th comes before the 31st
    }


DIFFERENCES = """
CREATE TABLE date_tbl (id INT, c1 DATE NOT NULL, c2 DATE);
CREATE LOCAL VIEW adate_minus_date AS SELECT id, (c1 - c2) SECOND AS seconds,
    (c1 - c2) MINUTE AS minutes, (c1 - c2) HOUR AS hours, (c1 - c2) DAY AS days,
    (c1 - c2) MONTH AS months, (c1 - c2) YEAR AS years, (c1 - c2) YEAR TO MONTH AS ytm,
    (c1 - c2) DAY TO HOUR AS dth, (c1 - c2) DAY TO MINUTE AS dtm, (c1 - c2) DAY TO SECOND AS dts,
    (c1 - c2) HOUR TO MINUTE AS htm, (c1 - c2) HOUR TO SECOND AS hts,
    (c1 - c2) MINUTE TO SECOND AS mts FROM date_tbl;
CREATE VIEW as_text AS SELECT id, CAST(seconds AS VARCHAR) AS sec_str,
    CAST(minutes AS VARCHAR) AS min_str, CAST(hours AS VARCHAR) AS hrs_str,
    CAST(days AS VARCHAR) AS days_str, CAST(months AS VARCHAR) AS mths_str,
    CAST(years AS VARCHAR) AS yrs_str, CAST(ytm AS VARCHAR) AS ytm_str,
    CAST(dth AS VARCHAR) AS dth_str, CAST(dtm AS VARCHAR) AS dtm_str,
    CAST(dts AS VARCHAR) AS dts_str, CAST(htm AS VARCHAR) AS htm_str,
    CAST(hts AS VARCHAR) AS hts_str, CAST(mts AS VARCHAR) AS mts_str FROM adate_minus_date;
CREATE VIEW as_numbers AS SELECT id, CAST(months AS BIGINT) AS months, CAST(years AS INT) AS years,
    CAST(seconds AS BIGINT) AS seconds FROM adate_minus_date;
CREATE VIEW extremes AS SELECT MAX(months) AS most, MIN(seconds) AS least FROM adate_minus_date;
CREATE VIEW by_text AS SELECT v1.id, c1 - INTERVAL v1.sec_str SECOND AS s_back,
    c1 - INTERVAL v1.days_str DAY AS d_back, c1 - INTERVAL v1.mths_str MONTH AS m_back,
    c1 - INTERVAL v1.yrs_str YEAR AS y_back, c1 + INTERVAL v1.hrs_str HOUR AS h_on,
    c1 + INTERVAL v1.yrs_str YEAR AS y_on FROM as_text v1 JOIN date_tbl v2 ON v1.id = v2.id;
CREATE VIEW moved AS SELECT v1.id, c1 - (v1.seconds) AS s_back, c1 - (v1.days) AS d_back,
    c1 - (v1.months) AS m_back, c1 - (v1.years) AS y_back, c1 + (v1.hours) AS h_on,
    c1 + (v1.years) AS y_on, c1 + INTERVAL '36' HOUR AS day_and_a_half_on,
    c1 - INTERVAL '36' HOUR AS day_and_a_half_back
    FROM adate_minus_date v1 JOIN date_tbl v2 ON v1.id = v2.id;
"""


def test_differences_in_units_are_written_and_counted_in_those_units(
    spark: SparkSession,
) -> None:
    rows = [
        {"id": 0, "c1": "2024-12-05", "c2": "2014-11-05"},
        {"id": 1, "c1": "2020-06-21", "c2": "2023-02-26"},
    ]
    first = {"date_tbl": [{"insert": row} for row in rows]}
    second = {"date_tbl": [{"delete": rows[1]}]}
    after = contents_after_steps(spark, DIFFERENCES, [first, second])
    # Feldera's expected texts (its runtime arithmetic tests, validated on MySQL/Postgres).
    assert after[0]["as_text"] == [
        {
            "id": 0,
            "sec_str": "+318211200.000000",
            "min_str": "+5303520",
            "hrs_str": "+88392",
            "days_str": "+3683",
            "mths_str": "+121",
            "yrs_str": "+10",
            "ytm_str": "+10-01",
            "dth_str": "+3683 00",
            "dtm_str": "+3683 00:00",
            "dts_str": "+3683 00:00:00",
            "htm_str": "+88392:00",
            "hts_str": "+88392:00:00.000000",
            "mts_str": "+5303520:00.000000",
        },
        {
            "id": 1,
            "sec_str": "-84672000.000000",
            "min_str": "-1411200",
            "hrs_str": "-23520",
            "days_str": "-980",
            "mths_str": "-32",
            "yrs_str": "-2",
            "ytm_str": "-2-08",
            "dth_str": "-980 00",
            "dtm_str": "-980 00:00",
            "dts_str": "-980 00:00:00",
            "htm_str": "-23520:00",
            "hts_str": "-23520:00:00.000000",
            "mts_str": "-1411200:00.000000",
        },
    ]
    # A single unit's interval casts to its number of units, cut toward zero.
    assert after[0]["as_numbers"] == [
        {"id": 0, "months": 121, "years": 10, "seconds": 318211200},
        {"id": 1, "months": -32, "years": -2, "seconds": -84672000},
    ]
    # A DATE moves by whole months, or by the whole days of a shorter interval, cut toward
    # zero: a DATE (Feldera's values; a YEAR interval keeps its months).
    assert after[0]["moved"] == [
        {
            "id": 0,
            "s_back": "2014-11-05",
            "d_back": "2014-11-05",
            "m_back": "2014-11-05",
            "y_back": "2014-11-05",
            "h_on": "2035-01-05",
            "y_on": "2035-01-05",
            "day_and_a_half_on": "2024-12-06",
            "day_and_a_half_back": "2024-12-04",
        },
        {
            "id": 1,
            "s_back": "2023-02-26",
            "d_back": "2023-02-26",
            "m_back": "2023-02-21",
            "y_back": "2023-02-21",
            "h_on": "2017-10-15",
            "y_on": "2017-10-21",
            "day_and_a_half_on": "2020-06-22",
            "day_and_a_half_back": "2020-06-20",
        },
    ]
    # INTERVAL text unit: that many units (Feldera's values; '+10' YEAR is 10 years).
    assert after[0]["by_text"] == [
        {
            "id": 0,
            "s_back": "2014-11-05",
            "d_back": "2014-11-05",
            "m_back": "2014-11-05",
            "y_back": "2014-12-05",
            "h_on": "2035-01-05",
            "y_on": "2034-12-05",
        },
        {
            "id": 1,
            "s_back": "2023-02-26",
            "d_back": "2023-02-26",
            "m_back": "2023-02-21",
            "y_back": "2022-06-21",
            "h_on": "2017-10-15",
            "y_on": "2018-06-21",
        },
    ]
    # A view shows an interval as its text; MIN is made again from the stored rows.
    assert after[0]["extremes"] == [{"most": "+121", "least": "-84672000.000000"}]
    assert after[1]["extremes"] == [{"most": "+121", "least": "+318211200.000000"}]


SPELLINGS = """
CREATE TABLE t (ts TIMESTAMP, d DATE, tm TIME);
CREATE VIEW spelled AS SELECT DATE_ADD(d, INTERVAL '1' DAY) AS next_day, DATE_SUB(ts, 3) AS back,
    DATE_ADD(d, 2) AS two_days_on, TIME_TRUNC(tm, MINUTE) AS minute,
    EXTRACT(NANOSECOND FROM ts) AS ns, EXTRACT(SQL_TSI_YEAR FROM ts) AS y,
    TIMESTAMPADD(SQL_TSI_DAY, 1, ts) AS tomorrow,
    CAST((d - d) DAY + (d - DATE '2023-12-30') HOUR AS VARCHAR) AS mixed_units FROM t;
"""


def test_feldera_s_other_spellings_of_date_arithmetic(spark: SparkSession) -> None:
    row = {"ts": "2024-12-31 22:00:00.123456", "d": "2023-12-31", "tm": "14:23:44.456"}
    [change] = changes_of_one_row(spark, SPELLINGS, row)["spelled"]
    assert change["insert"] == {
        "next_day": "2024-01-01",
        "back": "2024-12-28 22:00:00.123456",  # an integer is days (MySQL's, Spark's)
        "two_days_on": "2024-01-02",
        "minute": "14:23:00",
        "ns": 123456000,
        "y": 2024,
        "tomorrow": "2025-01-01 22:00:00.123456",
        # A DAY plus an HOUR interval is all of both: a DAY TO SECOND one.
        "mixed_units": "+1 00:00:00",
    }


PERIODS = """
CREATE TABLE t (d DATE, e DATE, ts TIMESTAMP);
CREATE VIEW periods AS SELECT
    (DATE '2020-06-24', DATE '2020-06-22') CONTAINS DATE '2020-06-21' AS contains_value,
    (DATE '2020-06-21', DATE '2020-06-25') CONTAINS (DATE '2020-06-22', DATE '2020-06-23')
        AS contains_period,
    (DATE '2020-06-21', DATE '2020-06-23') OVERLAPS (DATE '2020-06-22', DATE '2020-06-24')
        AS overlaps,
    (DATE '2020-06-21', DATE '2020-06-23') EQUALS (DATE '2020-06-21', DATE '2020-06-23')
        AS equals,
    (DATE '2020-06-21', DATE '2020-06-22') PRECEDES (DATE '2020-06-24', DATE '2020-06-25')
        AS precedes,
    (DATE '2020-06-21', DATE '2020-06-22') IMMEDIATELY PRECEDES
        (DATE '2020-06-22', DATE '2020-06-23') AS immediately_precedes,
    (DATE '2020-06-24', DATE '2020-06-25') SUCCEEDS (DATE '2020-06-21', DATE '2020-06-22')
        AS succeeds,
    (DATE '2020-06-24', DATE '2020-06-25') IMMEDIATELY SUCCEEDS
        (DATE '2020-06-23', DATE '2020-06-24') AS immediately_succeeds,
    (ts, INTERVAL '1' HOUR) CONTAINS TIMESTAMP '2020-06-21 10:30:00' AS within_the_hour,
    (ts, INTERVAL -'1' HOUR) CONTAINS TIMESTAMP '2020-06-21 10:30:00' AS hour_before,
    (d, e) OVERLAPS (d, d) AS open_ended FROM t;
"""


def test_period_predicates_give_feldera_s_documented_answers(spark: SparkSession) -> None:
    row = {"d": "2020-06-21", "e": None, "ts": "2020-06-21 10:00:00"}
    [change] = changes_of_one_row(spark, PERIODS, row)["periods"]
    assert change["insert"] == {
        "contains_value": False,  # the ends in order: (06-22, 06-24)
        "contains_period": True,
        "overlaps": True,
        "equals": True,
        "precedes": True,
        "immediately_precedes": True,
        "succeeds": True,
        "immediately_succeeds": True,
        "within_the_hour": True,
        "hour_before": False,
        "open_ended": None,  # an end NULL: NULL
    }


TIMES = """
CREATE TABLE time_tbl (id INT, c1 TIME NOT NULL, c2 TIME);
CREATE LOCAL VIEW atime_minus_time AS SELECT id, (c1 - c2) SECOND AS seconds,
    (c1 - c2) MINUTE AS minutes, (c1 - c2) HOUR AS hours, (c1 - c2) HOUR TO MINUTE AS htm,
    (c1 - c2) MINUTE TO SECOND AS mts FROM time_tbl;
CREATE VIEW time_minus_time_str AS SELECT id, CAST(seconds AS VARCHAR) AS sec_str,
    CAST(minutes AS VARCHAR) AS min_str, CAST(hours AS VARCHAR) AS hrs_str,
    CAST(htm AS VARCHAR) AS htm_str, CAST(-mts AS VARCHAR) AS mts_neg FROM atime_minus_time;
CREATE VIEW time_moved AS SELECT v1.id, c1 - (v1.hours) AS back, c1 + (v1.seconds) AS on_,
    c1 - INTERVAL v3.min_str MINUTE AS by_text, c1 + INTERVAL '1' MONTH AS a_month_on
    FROM atime_minus_time v1 JOIN time_tbl v2 ON v1.id = v2.id
    JOIN time_minus_time_str v3 ON v3.id = v1.id;
CREATE VIEW by_cast AS SELECT v1.id, c1 - CAST(v1.htm_str AS INTERVAL HOUR TO MINUTE) AS htm,
    c1 - CAST(v1.mts_neg AS INTERVAL MINUTE TO SECOND) AS mts,
    CAST(CAST('-2-08' AS INTERVAL YEAR TO MONTH) AS VARCHAR) AS ytm
    FROM time_minus_time_str v1 JOIN time_tbl v2 ON v1.id = v2.id;
"""


def test_times_subtract_to_intervals_and_move_around_the_clock(spark: SparkSession) -> None:
    rows = [
        {"id": 0, "c1": "18:30:45", "c2": "12:45:12"},
        {"id": 1, "c1": "08:23:55", "c2": "14:17:09"},
    ]
    after = contents_after_steps(spark, TIMES, [{"time_tbl": [{"insert": r} for r in rows]}])
    # Feldera's expected values (its runtime arithmetic tests on TIME).
    assert after[0]["time_minus_time_str"] == [
        {
            "id": 0,
            "sec_str": "+20733.000000",
            "min_str": "+345",
            "hrs_str": "+5",
            "htm_str": "+5:45",
            "mts_neg": "-345:33.000000",
        },
        {
            "id": 1,
            "sec_str": "-21194.000000",
            "min_str": "-353",
            "hrs_str": "-5",
            "htm_str": "-5:53",
            "mts_neg": "+353:14.000000",
        },
    ]
    # An interval's text casts back to the interval (Feldera's values).
    assert sorted(after[0]["by_cast"], key=lambda r: r["id"]) == [
        {"id": 0, "htm": "12:45:45", "mts": "00:16:18", "ytm": "-2-08"},
        {"id": 1, "htm": "14:16:55", "mts": "02:30:41", "ytm": "-2-08"},
    ]
    # An HOUR interval keeps its seconds; a month leaves a TIME where it is.
    assert sorted(after[0]["time_moved"], key=lambda r: r["id"]) == [
        {"id": 0, "back": "12:45:12", "on_": "00:16:18", "by_text": "12:45:45",
         "a_month_on": "18:30:45"},
        {"id": 1, "back": "14:17:09", "on_": "02:30:41", "by_text": "14:16:55",
         "a_month_on": "08:23:55"},
    ]  # fmt: skip


def test_an_interval_divided_is_cut_to_a_whole_month_or_microsecond(spark: SparkSession) -> None:
    """Calcite's MiscTests.intervalDivision, as Feldera answers it: 15 months / 10 is 1
    month (Spark's own division rounds it to 2); a second / 3 is 333,333 microseconds."""
    program = """
    CREATE TABLE t (d INT, f DOUBLE);
    CREATE VIEW divided AS SELECT d,
      CAST(INTERVAL '1-3' YEAR TO MONTH / d AS VARCHAR) AS months,
      CAST(-INTERVAL '15' MONTH / d AS VARCHAR) AS negative,
      CAST(INTERVAL '2' MONTH / f AS VARCHAR) AS by_double,
      CAST(INTERVAL '1' SECOND / 3 AS VARCHAR) AS third,
      CAST(INTERVAL '10' DAY / d AS VARCHAR) AS days FROM t;
    """
    rows = [{"d": 10, "f": 1.5}, {"d": 20, "f": -0.7}]
    [after] = contents_after_steps(
        spark, program, [{"t": [{"insert": r} for r in rows]}], order=lambda r: r["d"]
    )
    assert after["divided"] == [
        {"d": 10, "months": "+0-01", "negative": "-0-01", "by_double": "+0-01",
         "third": "+0 00:00:00.333333", "days": "+1 00:00:00"},
        {"d": 20, "months": "+0-00", "negative": "+0-00", "by_double": "-0-02",
         "third": "+0 00:00:00.333333", "days": "+0 12:00:00"},
    ]  # fmt: skip
