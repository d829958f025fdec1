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
