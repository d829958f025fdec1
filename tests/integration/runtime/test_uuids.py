"""UUID columns (Feldera's uuid.md) through steps: read from any spelling, kept and
published in one canonical text, so equal UUIDs group and join; a string compared
with a UUID, or cast to one, is read as a UUID, and one that is no UUID fails the
step."""

import json

import pytest
from pyspark.sql import SparkSession

from tests.integration.runtime.replays import contents_after_steps
from worker.replay import compile_with_queries, replay

PROGRAM = """
CREATE TABLE t (id UUID NOT NULL, s VARCHAR);
CREATE VIEW v AS SELECT id, CAST(id AS VARCHAR) AS txt, CAST(s AS UUID) AS parsed,
  id = s AS same, id = '123E4567-E89B-12D3-A456-426655440000' AS is_first FROM t;
CREATE VIEW safe AS SELECT s, SAFE_CAST(s AS UUID) AS u FROM t;
CREATE VIEW by_id AS SELECT id, COUNT(*) AS c FROM t GROUP BY id;
"""
FIRST = "123e4567-e89b-12d3-a456-426655440000"
OTHER = "00000000-0000-0000-0000-00000000000a"


def test_uuids_are_one_value_whatever_their_spelling(spark: SparkSession) -> None:
    rows = [
        {"id": FIRST, "s": "123E4567E89B12D3A456426655440000"},
        {
            "id": "{123e4567e89b12d3a456426655440000}",
            "s": "123e-4567-e89b-12d3-a456-4266-5544-0000",
        },
        {"id": "{00000000-0000-0000-0000-00000000000A}", "s": None},
    ]
    first, second = contents_after_steps(
        spark, PROGRAM, [{"t": [{"insert": r} for r in rows]}, {"t": [{"delete": rows[0]}]}]
    )
    same = {"id": FIRST, "txt": FIRST, "parsed": FIRST, "same": True, "is_first": True}
    other = {"id": OTHER, "txt": OTHER, "parsed": None, "same": None, "is_first": False}
    assert first["v"] == [other, same, same]
    assert first["by_id"] == [{"id": OTHER, "c": 1}, {"id": FIRST, "c": 2}]
    assert second["by_id"] == [{"id": OTHER, "c": 1}, {"id": FIRST, "c": 1}]
    assert first["safe"] == [
        {"s": "123E4567E89B12D3A456426655440000", "u": FIRST},
        {"s": "123e-4567-e89b-12d3-a456-4266-5544-0000", "u": FIRST},
        {"s": None, "u": None},
    ]


def test_safe_cast_of_a_string_that_is_no_uuid_is_null(spark: SparkSession) -> None:
    [after] = contents_after_steps(
        spark,
        PROGRAM.split("CREATE VIEW v")[0]
        + "CREATE VIEW safe AS SELECT SAFE_CAST(s AS UUID) AS u FROM t;",
        [{"t": [{"insert": {"id": FIRST, "s": "urn:uuid:" + FIRST}}]}],
    )
    assert after["safe"] == [{"u": None}]


def test_a_string_that_is_no_uuid_fails_the_step(spark: SparkSession) -> None:
    plan = compile_with_queries(PROGRAM, []).to_json()["plan"]
    step = {"t": [{"insert": {"id": FIRST, "s": " " + FIRST}}]}  # blanks are not trimmed
    with pytest.raises(Exception, match=r"Invalid UUID ' 123e4567"):
        list(replay(spark, plan, [json.dumps(step)]))
