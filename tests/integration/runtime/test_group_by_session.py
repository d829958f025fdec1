"""Calcite's session windows: `GROUP BY SESSION(ts, gap)`, with SESSION_START and
SESSION_END in the select list. A session holds the rows of a group that follow one
another by less than the gap, so inserts and deletes merge and split sessions."""

from typing import Any

from pyspark.sql import SparkSession

from tests.integration.runtime.replays import Row, contents_by_step, in_order

PROGRAM = """
CREATE TABLE visits (usr INT, pages INT, ts TIMESTAMP);
CREATE VIEW sessions AS
SELECT usr, SESSION_START(ts, INTERVAL '5' MINUTE) AS s,
  SESSION_END(ts, INTERVAL '5' MINUTE) AS e, COUNT(*) AS n, SUM(pages) AS pages
FROM visits GROUP BY usr, SESSION(ts, INTERVAL '5' MINUTE);
CREATE VIEW long_sessions AS
SELECT SESSION_END(ts, INTERVAL '1' HOUR) AS e, COUNT(*) AS n
FROM visits GROUP BY SESSION(ts, INTERVAL '1' HOUR) HAVING COUNT(*) > 1;
"""


def at(minute: str | None) -> str | None:
    return None if minute is None else f"2020-01-01 10:{minute}:00"


def visit(usr: int, pages: int, minute: str | None) -> dict[str, Any]:
    return {"usr": usr, "pages": pages, "ts": at(minute)}


def session(usr: int, start: str | None, end: str | None, n: int, pages: int) -> Row:
    return {"usr": usr, "s": at(start), "e": at(end), "n": n, "pages": pages}


def test_sessions_merge_and_split_as_rows_come_and_go(spark: SparkSession) -> None:
    steps = [
        # 10:00 and 10:03 are less than 5 minutes apart: one session, to 10:08.
        [
            {"insert": visit(1, 1, "00")},
            {"insert": visit(1, 2, "03")},
            {"insert": visit(2, 5, "03")},
        ],
        # 10:10 is 7 minutes after 10:03: a session of its own. A NULL time: another.
        [{"insert": visit(1, 4, "10")}, {"insert": visit(1, 7, None)}],
        # Without 10:03, 10:00 is alone: its session ends at 10:05.
        [{"delete": visit(1, 2, "03")}],
        # 10:06 is 6 minutes after 10:00 and 4 before 10:10: it joins 10:10's session.
        [{"insert": visit(1, 8, "06")}],
        # 10:03 again bridges 10:00 and 10:06: one session of three rows.
        [{"insert": visit(1, 2, "03")}],
    ]
    after = contents_by_step(spark, PROGRAM, "visits", steps)
    assert [a["sessions"] for a in after] == [
        in_order([session(1, "00", "08", 2, 3), session(2, "03", "08", 1, 5)]),
        in_order(
            [
                session(1, "00", "08", 2, 3),
                session(1, "10", "15", 1, 4),
                session(1, None, None, 1, 7),
                session(2, "03", "08", 1, 5),
            ]
        ),
        in_order(
            [
                session(1, "00", "05", 1, 1),
                session(1, "10", "15", 1, 4),
                session(1, None, None, 1, 7),
                session(2, "03", "08", 1, 5),
            ]
        ),
        in_order(
            [
                session(1, "00", "05", 1, 1),
                session(1, "06", "15", 2, 12),
                session(1, None, None, 1, 7),
                session(2, "03", "08", 1, 5),
            ]
        ),
        in_order(
            [
                session(1, "00", "15", 4, 15),
                session(1, None, None, 1, 7),
                session(2, "03", "08", 1, 5),
            ]
        ),
    ]
    # Without other keys every row of the table is in one group: sessions of an hour
    # (the rows with a NULL time, one row, are left out by HAVING).
    assert after[1]["long_sessions"] == [{"e": "2020-01-01 11:10:00", "n": 4}]
    assert after[4]["long_sessions"] == [{"e": "2020-01-01 11:10:00", "n": 5}]


STREAMED = """
CREATE STREAM bids (bidder INT);
CREATE VIEW user_sessions AS
SELECT STREAM bidder, SESSION_START(rowtime, INTERVAL '10' SECOND) AS s,
  SESSION_END(rowtime, INTERVAL '10' SECOND) AS e, COUNT(*) AS n
FROM bids GROUP BY bidder, SESSION(rowtime, INTERVAL '10' SECOND);
"""


def second(s: int) -> str:
    return f"2020-01-01 10:00:{s:02d}"


def bid(bidder: int, s: int) -> dict[str, Any]:
    return {"insert": {"bidder": bidder, "rowtime": second(s)}}


def test_a_streamed_session_comes_once_no_row_can_extend_it(spark: SparkSession) -> None:
    """Nexmark's user sessions as a stream: a session is emitted, once, when the stream's
    clock (a row or a rowtime bound) has passed its end: no later row can join it."""
    steps = [
        [bid(1, 0), bid(2, 5)],
        [bid(1, 9)],  # 9 seconds after 0: the same session, to 19
        [bid(1, 19)],  # 10 seconds after 9: a new session; 2's ended at 15
        [{"bound": second(29), "strict": False}],  # past 19: 1's first session ends
        [{"bound": second(40), "strict": False}],
    ]
    after = contents_by_step(spark, STREAMED, "bids", steps)

    def streamed(bidder: int, start: int, end: int, n: int) -> Row:
        return {"bidder": bidder, "s": second(start), "e": second(end), "n": n}

    assert [a["user_sessions"] for a in after] == [
        [],
        [],
        [streamed(2, 5, 15, 1)],
        in_order([streamed(2, 5, 15, 1), streamed(1, 0, 19, 2)]),
        in_order([streamed(2, 5, 15, 1), streamed(1, 0, 19, 2), streamed(1, 19, 29, 1)]),
    ]


FINAL = """
CREATE TABLE clicks (usr INT, ts TIMESTAMP NOT NULL LATENESS INTERVAL '5' SECOND);
CREATE VIEW final_sessions WITH ('emit_final' = 'e') AS
SELECT usr, SESSION_END(ts, INTERVAL '10' SECOND) AS e, COUNT(*) AS n, MIN(ts) AS first
FROM clicks GROUP BY SESSION(ts, INTERVAL '10' SECOND), usr;
"""


def test_an_emit_final_session_waits_for_rows_within_lateness(spark: SparkSession) -> None:
    """With LATENESS, a row may arrive after a later one and still join its session:
    the session is emitted once the waterline (latest time - 5 s) has passed its end."""

    def click(usr: int, s: int) -> dict[str, Any]:
        return {"insert": {"usr": usr, "ts": second(s)}}

    steps = [
        [click(1, 0), click(1, 8)],  # one session, to 18; the waterline is at 3
        [click(1, 30)],  # the waterline moves to 25: the first session is final
        [click(1, 26)],  # not late (25): it joins 30's session, from 26 to 40
        [click(2, 59)],  # waterline 54: 1's second session is final
    ]
    after = contents_by_step(spark, FINAL, "clicks", steps)

    def final(usr: int, end: int, n: int, first: int) -> Row:
        return {"usr": usr, "e": second(end), "n": n, "first": second(first)}

    assert [a["final_sessions"] for a in after] == [
        [],
        [final(1, 18, 2, 0)],
        [final(1, 18, 2, 0)],
        in_order([final(1, 18, 2, 0), final(1, 40, 2, 26)]),
    ]


# The same sessions as a window table function: every row, with its session's start and
# end (Flink's spelling, keys in PARTITION BY, and Calcite's, keys in a DESCRIPTOR).
TABLE_FUNCTION = """
CREATE TABLE visits (usr INT, pages INT, ts TIMESTAMP);
CREATE VIEW visit_sessions AS
SELECT * FROM TABLE(SESSION(TABLE visits PARTITION BY usr, DESCRIPTOR(ts), INTERVAL '5' MINUTE));
CREATE VIEW all_sessions AS
SELECT pages, window_start AS s, window_end AS e
FROM TABLE(SESSION(TABLE visits, DESCRIPTOR(ts), INTERVAL '5' MINUTE));
CREATE VIEW by_key AS
SELECT usr, window_start AS s, window_end AS e, COUNT(*) AS n
FROM TABLE(SESSION(TABLE visits, DESCRIPTOR(ts), DESCRIPTOR(usr), INTERVAL '5' MINUTE))
GROUP BY usr, window_start, window_end;
"""


def test_the_session_table_function_gives_each_row_its_session(spark: SparkSession) -> None:
    steps = [
        [
            {"insert": visit(1, 1, "00")},
            {"insert": visit(1, 2, "03")},
            {"insert": visit(2, 5, "04")},
        ],
        # 10:10 is 7 minutes after 10:03: a session of its own. A NULL time: another.
        [{"insert": visit(1, 4, "10")}, {"insert": visit(1, 7, None)}],
        # Without 10:03, 10:00 is alone: its session ends at 10:05.
        [{"delete": visit(1, 2, "03")}],
        # 10:06 is 6 minutes after 10:00 and 4 before 10:10: it joins 10:10's session.
        [{"insert": visit(1, 8, "06")}],
        # 10:03 again bridges 10:00's session and 10:06's: they merge, and every row's
        # window changes.
        [{"insert": visit(1, 2, "03")}],
    ]
    after = contents_by_step(spark, TABLE_FUNCTION, "visits", steps)

    def row(usr: int, pages: int, minute: str | None, start: str | None, end: str | None) -> Row:
        window = {"window_start": at(start), "window_end": at(end)}
        return {**visit(usr, pages, minute), **window}

    assert [a["visit_sessions"] for a in after] == [
        in_order(
            [row(1, 1, "00", "00", "08"), row(1, 2, "03", "00", "08"), row(2, 5, "04", "04", "09")]
        ),
        in_order(
            [
                row(1, 1, "00", "00", "08"),
                row(1, 2, "03", "00", "08"),
                row(1, 4, "10", "10", "15"),
                row(1, 7, None, None, None),
                row(2, 5, "04", "04", "09"),
            ]
        ),
        in_order(
            [
                row(1, 1, "00", "00", "05"),
                row(1, 4, "10", "10", "15"),
                row(1, 7, None, None, None),
                row(2, 5, "04", "04", "09"),
            ]
        ),
        in_order(
            [
                row(1, 1, "00", "00", "05"),
                row(1, 8, "06", "06", "15"),
                row(1, 4, "10", "06", "15"),
                row(1, 7, None, None, None),
                row(2, 5, "04", "04", "09"),
            ]
        ),
        in_order(
            [
                row(1, 1, "00", "00", "15"),
                row(1, 2, "03", "00", "15"),
                row(1, 8, "06", "00", "15"),
                row(1, 4, "10", "00", "15"),
                row(1, 7, None, None, None),
                row(2, 5, "04", "04", "09"),
            ]
        ),
    ]
    # Without keys every row is in the table's one group: 2's 10:04 joins 1's session.
    assert after[0]["all_sessions"] == in_order(
        [{"pages": p, "s": at("00"), "e": at("09")} for p in (1, 2, 5)]
    )
    assert after[2]["all_sessions"] == in_order(
        [
            {"pages": 1, "s": at("00"), "e": at("09")},
            {"pages": 5, "s": at("00"), "e": at("09")},
            {"pages": 4, "s": at("10"), "e": at("15")},
            {"pages": 7, "s": None, "e": None},
        ]
    )
    # Grouped by its window, the table function counts what GROUP BY SESSION counts.
    assert after[4]["by_key"] == in_order(
        [
            {"usr": 1, "s": at("00"), "e": at("15"), "n": 4},
            {"usr": 1, "s": None, "e": None, "n": 1},
            {"usr": 2, "s": at("04"), "e": at("09"), "n": 1},
        ]
    )


FINAL_TABLE_FUNCTION = """
CREATE TABLE clicks (usr INT, ts TIMESTAMP NOT NULL LATENESS INTERVAL '5' SECOND);
CREATE VIEW final_sessions WITH ('emit_final' = 'e') AS
SELECT usr, window_end AS e, COUNT(*) AS n, MIN(ts) AS first
FROM TABLE(SESSION(TABLE clicks PARTITION BY usr, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY window_start, window_end, usr;
"""


def test_an_emit_final_view_over_the_table_function_waits_as_group_by_session_does(
    spark: SparkSession,
) -> None:
    """test_an_emit_final_session_waits_for_rows_within_lateness, over TABLE(SESSION)."""

    def click(usr: int, s: int) -> dict[str, Any]:
        return {"insert": {"usr": usr, "ts": second(s)}}

    steps = [
        [click(1, 0), click(1, 8)],  # one session, to 18; the waterline is at 3
        [click(1, 30)],  # the waterline moves to 25: the first session is final
        [click(1, 26)],  # not late (25): it joins 30's session, from 26 to 40
        [click(2, 59)],  # waterline 54: 1's second session is final
    ]
    after = contents_by_step(spark, FINAL_TABLE_FUNCTION, "clicks", steps)

    def final(usr: int, end: int, n: int, first: int) -> Row:
        return {"usr": usr, "e": second(end), "n": n, "first": second(first)}

    assert [a["final_sessions"] for a in after] == [
        [],
        [final(1, 18, 2, 0)],
        [final(1, 18, 2, 0)],
        in_order([final(1, 18, 2, 0), final(1, 40, 2, 26)]),
    ]


STREAMED_ROWS = """
CREATE STREAM bids (bidder INT);
CREATE VIEW bid_sessions AS SELECT STREAM *
FROM TABLE(SESSION(TABLE bids PARTITION BY bidder, DESCRIPTOR(rowtime), INTERVAL '10' SECOND));
"""


def test_a_stream_of_rows_with_their_sessions_gives_each_row_once_its_session_ended(
    spark: SparkSession,
) -> None:
    """A row's window_end grows while later rows join its session: the stream holds the
    row until its session can grow no more, and gives it once, with its final end
    (the stream's clock is past the row's own time long before)."""
    steps = [
        [bid(1, 0), bid(2, 5)],
        [bid(1, 9)],  # joins 1's session: its end moves from 10 to 19
        [bid(1, 19)],  # a new session; 2's ended at 15
        [{"bound": second(29), "strict": False}],  # past 19: 1's first session ends
        [{"bound": second(40), "strict": False}],
    ]
    after = contents_by_step(spark, STREAMED_ROWS, "bids", steps)

    def row(bidder: int, at: int, start: int, end: int) -> Row:
        times = {"rowtime": second(at), "window_start": second(start)}
        return {**times, "bidder": bidder, "window_end": second(end)}

    second_session = [row(2, 5, 5, 15), row(1, 0, 0, 19), row(1, 9, 0, 19)]
    assert [a["bid_sessions"] for a in after] == [
        [],
        [],
        [row(2, 5, 5, 15)],
        in_order(second_session),
        in_order([*second_session, row(1, 19, 19, 29)]),
    ]
