"""`weir replay`: the spec's LATENESS example, step by step and all in one step."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pyspark.sql import SparkSession

from backend.cli import main
from worker.replay import ReplayInputError, compile_with_queries, queries_of, replay

PROGRAM = """
CREATE TABLE t (
   ts TIMESTAMP NOT NULL LATENESS INTERVAL '1' HOUR,
   location VARCHAR
);
CREATE VIEW v AS SELECT * FROM t;
"""
INSERTS = [
    {"ts": "2020-01-01 00:00:00", "location": "home"},
    {"ts": "2020-01-01 01:00:00", "location": "office"},
    {"ts": "2020-01-01 00:10:00", "location": "shop"},
    {"ts": "2020-01-01 02:00:00", "location": "home"},
    {"ts": "2020-01-01 00:20:00", "location": "friend"},
]


def run(spark: SparkSession, lines: list[str], queries: list[str] = ()) -> list[dict[str, Any]]:
    parsed = queries_of(list(queries))
    result = compile_with_queries(PROGRAM, parsed)
    assert not result.has_errors
    return list(replay(spark, result.to_json()["plan"], lines, parsed))


def test_five_inserts_in_five_steps_keep_four(spark: SparkSession) -> None:
    lines = [json.dumps({"t": [{"insert": row}]}) for row in INSERTS]
    records = run(spark, lines)
    assert records[:4] == [
        {"step": i + 1, "view": "v", "changes": [{"insert": row}]}
        for i, row in enumerate(INSERTS[:4])
    ]
    assert records[4:] == [
        {"step": 5, "dropped": [{"relation": "t", "row": INSERTS[4], "reason": "late"}]}
    ]


def test_five_inserts_in_one_step_keep_all_five(spark: SparkSession) -> None:
    line = json.dumps({"t": [{"insert": row} for row in INSERTS]})
    records = run(
        spark, [line, "{}"], ["SELECT location FROM t WHERE ts > TIMESTAMP '2020-01-01 00:15:00'"]
    )
    assert records[0]["step"] == 1 and records[0]["view"] == "v"
    assert sorted(json.dumps(c["insert"]) for c in records[0]["changes"]) == sorted(
        json.dumps(r) for r in INSERTS
    )
    assert records[1:] == [
        {
            "step": 2,
            "view": "query_1",
            "rows": [{"location": "friend"}, {"location": "home"}, {"location": "office"}],
        }
    ]


def test_a_bad_value_names_the_line_and_column(spark: SparkSession) -> None:
    with pytest.raises(ReplayInputError, match=r"line 1, 't'.*ts"):
        run(spark, [json.dumps({"t": [{"insert": {"ts": "yesterday"}}]})])


def test_the_cli_prints_diagnostics_and_exits_1_on_errors(tmp_path: Path, capsys: Any) -> None:
    program = tmp_path / "bad.sql"
    program.write_text("CREATE VIEW v AS SELECT nope FROM missing;")
    steps = tmp_path / "steps.jsonl"
    steps.write_text("{}\n")
    assert main(["replay", str(program), "--steps", str(steps)]) == 1
    assert "error[SQL2" in capsys.readouterr().err


def test_identifiers_with_quotes_and_semicolons_reach_spark_as_data(spark: SparkSession) -> None:
    program = """
        CREATE TABLE "t; DROP TABLE x; --" ("a""b" INT, "sp ace" VARCHAR, "`c`" INT);
        CREATE VIEW "v'); --" AS SELECT "a""b" + 1 AS "x; y", "sp ace"
        FROM "t; DROP TABLE x; --" WHERE "`c`" > 0;
    """
    result = compile_with_queries(program, [])
    assert not result.has_errors
    step = {"t; DROP TABLE x; --": [{'a"b': 1, "sp ace": "x'); --", "`c`": 2}, {"`c`": 0}]}
    records = list(replay(spark, result.to_json()["plan"], [json.dumps(step)]))
    assert records == [
        {"step": 1, "view": "v'); --", "changes": [{"insert": {"x; y": 2, "sp ace": "x'); --"}}]}
    ]


def test_step_lines_name_tables_as_sql_does(spark: SparkSession) -> None:
    """An unquoted table name is folded to lower case; a line may use either spelling."""
    result = compile_with_queries(PROGRAM, [])
    line = json.dumps({"T": [{"ts": "2020-01-01 00:00:00", "location": "x"}]})
    records = list(replay(spark, result.to_json()["plan"], [line]))
    assert records[0]["changes"] == [{"insert": {"ts": "2020-01-01 00:00:00", "location": "x"}}]


def test_a_select_without_from_is_one_constant_row(spark: SparkSession) -> None:
    result = compile_with_queries("CREATE VIEW one AS SELECT 1 AS one, UPPER('a') AS up;", [])
    assert not result.has_errors
    records = list(replay(spark, result.to_json()["plan"], ["{}", "{}"]))
    assert records == [{"step": 1, "view": "one", "changes": [{"insert": {"one": 1, "up": "A"}}]}]


def test_weir_replay_answers_a_time_travel_query(tmp_path: Path) -> None:
    """`weir replay --query` with SNAPSHOT(t, TIMESTAMP ...): the versioned table as it was
    at 10:30, after a version older than the latest one arrived last."""
    program = tmp_path / "rates.sql"
    program.write_text(
        "CREATE TABLE rates (currency VARCHAR NOT NULL PRIMARY KEY, rate DECIMAL(10, 4),\n"
        "    ts TIMESTAMP LATENESS INTERVAL '2' HOUR);\n"
    )
    steps = tmp_path / "steps.jsonl"
    versions = [
        [("EUR", 1.10, "09:00"), ("USD", 1.00, "09:00")],
        [("EUR", 1.20, "11:00"), ("USD", 1.01, "10:45")],
        [("EUR", 1.15, "10:10")],  # older than 11:00, newer than 09:00: valid at 10:30
    ]
    steps.write_text(
        "".join(
            json.dumps(
                {"rates": [{"currency": c, "rate": r, "ts": f"2024-01-01 {t}:00"} for c, r, t in s]}
            )
            + "\n"
            for s in versions
        )
    )
    query = "SELECT currency, rate FROM SNAPSHOT(rates, TIMESTAMP '2024-01-01 10:30:00')"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "backend.cli",
            "replay",
            str(program),
            "--steps",
            str(steps),
            "--query",
            query,
            "--master",
            "local[1]",
        ],
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert records == [
        {
            "step": 3,
            "view": "query_1",
            "rows": [{"currency": "EUR", "rate": "1.1500"}, {"currency": "USD", "rate": "1.0000"}],
        }
    ]


def test_a_programs_own_queries_are_views_and_replay_queries_come_after(
    spark: SparkSession,
) -> None:
    """Queries written as statements are the views query_1, ... (query_2 is a table
    here, so skipped); `--query` ones are numbered after them."""
    program = PROGRAM + (
        "SELECT location FROM t WHERE location <> 'shop';\n"
        "CREATE TABLE query_2 (x INT);\n"
        "SELECT location, COUNT(*) AS n FROM t GROUP BY location;\n"
    )
    queries = queries_of(["SELECT location FROM query_1"], program)
    assert [q.name for q in queries] == ["query_4"]
    result = compile_with_queries(program, queries)
    assert not result.has_errors
    steps = [json.dumps({"t": [{"insert": row}]}) for row in INSERTS[:3]]
    records = list(replay(spark, result.to_json()["plan"], steps, queries))
    by_view: dict[str, list[Any]] = {}
    for record in records:
        by_view.setdefault(record["view"], []).append(record)
    assert [r["changes"] for r in by_view["query_1"]] == [
        [{"insert": {"location": "home"}}],
        [{"insert": {"location": "office"}}],
    ]
    assert by_view["query_3"][-1] == {
        "step": 3,
        "view": "query_3",
        "changes": [{"insert": {"location": "shop", "n": 1}}],
    }
    assert by_view["query_4"] == [
        {"step": 3, "view": "query_4", "rows": [{"location": "home"}, {"location": "office"}]}
    ]


def test_a_step_that_divides_by_zero_ends_the_replay_with_the_sql_error(tmp_path: Path) -> None:
    """The steps before it are printed; then the error in one line, without Spark's
    stack, and exit status 1."""
    program = tmp_path / "ratio.sql"
    program.write_text(
        "CREATE TABLE t (a INT, b INT);\nCREATE VIEW v AS SELECT a / b AS q FROM t;\n"
    )
    steps = tmp_path / "steps.jsonl"
    steps.write_text('{"t": [{"a": 6, "b": 3}]}\n{"t": [{"a": 1, "b": 0}]}\n{}\n')
    done = subprocess.run(
        [sys.executable, "-m", "backend.cli", "replay", str(program), "--steps", str(steps)],
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    assert done.returncode == 1, done.stderr[-2000:]
    assert [json.loads(line) for line in done.stdout.splitlines()] == [
        {"step": 1, "view": "v", "changes": [{"insert": {"q": 2}}]}
    ]
    assert done.stderr.splitlines()[-1] == (
        "weir: error: step 2 (line 2) failed: [DIVIDE_BY_ZERO] Division by zero. SQLSTATE: 22012"
    )
    assert "Exception" not in done.stderr, done.stderr[-2000:]
