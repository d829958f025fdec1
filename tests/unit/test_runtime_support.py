"""The control plane refuses, in plain words, plans the Spark runner cannot run yet."""

from pathlib import Path

from backend.compiler import compile_program
from backend.demo import DEMO_SQL
from worker.runner.support import unsupported

CASES = Path(__file__).parent / "compiler" / "cases"


def _plan(query: dict, **extra: object) -> dict:
    return {"version": 2, "inputs": [], "views": [{"name": "v", "query": query}], **extra}


def _scan() -> dict:
    return {"op": "scan", "relation": "t", "columns": []}


def test_the_demo_program_is_runnable() -> None:
    result = compile_program(DEMO_SQL)
    assert unsupported(result.spec or {}) == []


def test_a_program_of_supported_constructs_is_runnable() -> None:
    sql = """
        CREATE TABLE t (id INT, ts TIMESTAMP LATENESS INTERVAL '1' HOUR, name VARCHAR);
        CREATE VIEW v AS SELECT id, COUNT(*) AS n, MAX(UPPER(name)) AS top
        FROM t WHERE id > 1 GROUP BY id, FLOOR(ts TO HOUR);
    """
    result = compile_program(sql)
    assert not result.has_errors
    assert unsupported(result.spec or {}) == []


def test_pumps_are_runnable_and_their_queries_are_checked() -> None:
    pump = {"name": "p", "target": "t", "started": True}
    assert unsupported(_plan(_scan(), pumps=[{**pump, "query": _scan()}])) == []
    odd = {**pump, "query": {"op": "match_recognize", "input": _scan(), "columns": []}}
    assert unsupported(_plan(_scan(), pumps=[odd])) == [
        "pump p uses the plan operator 'match_recognize', which the runtime does not run yet"
    ]


def test_an_unknown_operator_is_named_with_its_view() -> None:
    plan = _plan({"op": "match_recognize", "input": _scan(), "columns": []})
    assert unsupported(plan) == [
        "view v uses the plan operator 'match_recognize', which the runtime does not run yet"
    ]


def test_unknown_functions_and_aggregates_are_named_once_each() -> None:
    call = {"kind": "call", "function": "row_number", "args": [], "type": "BIGINT"}
    project = {"op": "project", "input": _scan(), "exprs": [call, call], "columns": []}
    aggregate = {
        "op": "aggregate",
        "input": project,
        "keys": [],
        "aggregates": [{"function": "stddev", "args": [], "distinct": False, "type": "DOUBLE"}],
        "columns": [],
    }
    assert unsupported(_plan(aggregate)) == [
        "view v uses the aggregate function 'stddev', which the runtime does not run yet",
        "view v uses the function 'row_number', which the runtime does not run yet",
    ]


def test_program_level_constructs_and_input_kinds_are_named() -> None:
    plan = _plan(_scan(), triggers=[{"name": "p"}])
    plan["inputs"] = [{"name": "s", "kind": "foreign_stream", "columns": []}]
    assert unsupported(plan) == [
        "the program's triggers are not run by the runtime yet",
        "s is a foreign_stream, which the runtime does not read yet",
    ]


def test_a_compiled_program_with_a_foreign_stream_is_refused_in_plain_words() -> None:
    sql = """
        CREATE STREAM trades (ticker VARCHAR, shares INT);
        CREATE STREAM big (ticker VARCHAR, shares INT);
        CREATE FOREIGN STREAM prices (ticker VARCHAR) SERVER files OPTIONS (directory '/x');
        CREATE PUMP p STOPPED AS INSERT INTO big SELECT STREAM * FROM trades WHERE shares > 9;
    """
    result = compile_program(sql)
    assert not result.has_errors, result.diagnostics_json()
    assert unsupported(result.spec or {}) == [
        "prices is a foreign stream, whose connector the runtime does not read yet",
    ]


def test_time_travel_lookups_and_changelogs_are_runnable() -> None:
    sql = (CASES / "47_time_travel_and_changelogs.sql").read_text()
    result = compile_program(sql)
    assert not result.has_errors
    ops = {node["op"] for view in (result.spec or {})["views"] for node in _nodes(view["query"])}
    assert {"lookup_join", "as_of", "temporal_join", "to_changelog", "from_changelog"} <= ops
    assert unsupported(result.spec or {}) == []


def test_windowed_stream_joins_are_runnable() -> None:
    sql = (CASES / "53_windowed_joins.sql").read_text()
    result = compile_program(sql)
    assert not result.has_errors
    ops = {node["op"] for view in (result.spec or {})["views"] for node in _nodes(view["query"])}
    assert "window_join" in ops
    assert unsupported(result.spec or {}) == []


def _nodes(rel: dict) -> list[dict]:
    found = [rel]
    for key in ("input", "left", "right"):
        if key in rel:
            found.extend(_nodes(rel[key]))
    return found
