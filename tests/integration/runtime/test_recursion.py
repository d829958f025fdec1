"""WITH RECURSIVE through steps (worker/runner/recursion.py): a recursive query is computed
again over what it reads after each step, and its views change by the difference; UNION
ends at a cycle, UNION ALL keeps every copy; a query that never stops adding rows fails
its step. DuckDB checks the same kinds of query on random changes in the oracle corpus
(corpus/51_recursive.sql)."""

import json

import pytest
from pyspark.sql import SparkSession

from tests.integration.runtime.replays import contents_after_steps
from worker.replay import ReplayStepError, compile_with_queries, queries_of, replay
from worker.runner import recursion

PROGRAM = """
CREATE TABLE edges (src INT, dst INT);
CREATE TABLE parents (child VARCHAR NOT NULL PRIMARY KEY, parent VARCHAR);
CREATE VIEW reach AS WITH RECURSIVE r (a, b) AS (
    SELECT src, dst FROM edges UNION SELECT r.a, e.dst FROM r JOIN edges AS e ON r.b = e.src)
  SELECT * FROM r;
CREATE VIEW reachable_from AS WITH RECURSIVE r (a, b) AS (
    SELECT src, dst FROM edges UNION SELECT r.a, e.dst FROM r JOIN edges AS e ON r.b = e.src)
  SELECT a, COUNT(*) AS n FROM r GROUP BY a;
CREATE VIEW ancestors AS WITH RECURSIVE up (who, ancestor, depth) AS (
    SELECT child, parent, 1 FROM parents WHERE parent IS NOT NULL
    UNION ALL
    SELECT up.who, p.parent, depth + 1 FROM up JOIN parents AS p ON up.ancestor = p.child
    WHERE p.parent IS NOT NULL)
  SELECT * FROM up;
"""


def edge(src: int, dst: int) -> dict[str, dict[str, int]]:
    return {"src": src, "dst": dst}


def test_views_follow_the_recursive_query_as_what_it_reads_changes(spark: SparkSession) -> None:
    first, second, third = contents_after_steps(
        spark,
        PROGRAM,
        [
            {
                "edges": [{"insert": edge(1, 2)}, {"insert": edge(2, 3)}],
                "parents": [
                    {"insert": {"child": "ann", "parent": "bob"}},
                    {"insert": {"child": "bob", "parent": "cy"}},
                    {"insert": {"child": "cy", "parent": None}},
                ],
            },
            # A cycle: UNION stops at rows already there.
            {"edges": [{"insert": edge(3, 1)}]},
            # A deleted edge takes away what only it led to; an upsert moves a subtree.
            {
                "edges": [{"delete": edge(2, 3)}],
                "parents": [{"insert": {"child": "bob", "parent": "dee"}}],
            },
        ],
    )
    pairs = lambda rows: sorted((r["a"], r["b"]) for r in rows)  # noqa: E731
    assert pairs(first["reach"]) == [(1, 2), (1, 3), (2, 3)]
    assert pairs(second["reach"]) == [(a, b) for a in (1, 2, 3) for b in (1, 2, 3)]
    assert pairs(third["reach"]) == [(1, 2), (3, 1), (3, 2)]
    assert sorted((r["a"], r["n"]) for r in second["reachable_from"]) == [(1, 3), (2, 3), (3, 3)]
    assert sorted((r["a"], r["n"]) for r in third["reachable_from"]) == [(1, 1), (3, 2)]
    lineage = lambda rows: sorted((r["who"], r["ancestor"], r["depth"]) for r in rows)  # noqa: E731
    assert lineage(first["ancestors"]) == [
        ("ann", "bob", 1),
        ("ann", "cy", 2),
        ("bob", "cy", 1),
    ]
    assert lineage(third["ancestors"]) == [("ann", "bob", 1), ("ann", "dee", 2), ("bob", "dee", 1)]


COUNTING = """
CREATE TABLE t (k INT NOT NULL);
CREATE VIEW counting AS WITH RECURSIVE c (n) AS (
    SELECT k FROM t UNION ALL SELECT n + 1 FROM c WHERE n < 5)
  SELECT n, COUNT(*) AS copies FROM c GROUP BY n;
CREATE VIEW widened AS WITH RECURSIVE w AS (
    SELECT 1 AS n, NULL AS s UNION ALL SELECT n + CAST(1 AS BIGINT), 'x' FROM w WHERE n < 3)
  SELECT * FROM w;
CREATE VIEW pairs AS WITH RECURSIVE c (n) AS (
    SELECT k FROM t UNION SELECT n + 1 FROM c WHERE n < 4)
  SELECT a.n, b.n AS m FROM c AS a JOIN c AS b ON a.n = b.n + 1;
CREATE VIEW fibonacci AS WITH RECURSIVE f (i, a, b) AS (
    VALUES (0, CAST(0 AS BIGINT), CAST(1 AS BIGINT))
    UNION ALL SELECT i + 1, b, a + b FROM f WHERE i < 30)
  SELECT MAX(b) AS fib FROM f;
"""


def test_union_all_counts_every_copy_and_columns_take_the_steps_types(
    spark: SparkSession,
) -> None:
    first, second, third = contents_after_steps(
        spark,
        COUNTING,
        [
            {"t": [{"insert": {"k": 3}}, {"insert": {"k": 4}}]},
            {"t": [{"insert": {"k": 3}}, {"insert": {"k": 1}}]},
            {"t": [{"delete": {"k": 1}}]},
        ],
    )
    copies = lambda rows: sorted((r["n"], r["copies"]) for r in rows)  # noqa: E731
    assert copies(first["counting"]) == [(3, 1), (4, 2), (5, 2)]
    assert copies(second["counting"]) == [(1, 1), (2, 1), (3, 3), (4, 4), (5, 4)]
    assert copies(third["counting"]) == [(3, 2), (4, 3), (5, 3)]
    # The query read twice, each side of a join keeping its own state.
    pairs = lambda rows: sorted((r["n"], r["m"]) for r in rows)  # noqa: E731
    assert pairs(first["pairs"]) == [(4, 3)]
    assert pairs(second["pairs"]) == [(2, 1), (3, 2), (4, 3)]
    assert pairs(third["pairs"]) == [(4, 3)]
    assert first["widened"] == [{"n": 1, "s": None}, {"n": 2, "s": "x"}, {"n": 3, "s": "x"}]
    assert first["fibonacci"] == [{"fib": 1346269}]  # F(31)


def test_a_plain_select_of_replay_may_be_recursive(spark: SparkSession) -> None:
    query = (
        "WITH RECURSIVE r (a, b) AS (SELECT src, dst FROM edges "
        "UNION SELECT r.a, e.dst FROM r JOIN edges AS e ON r.b = e.src) "
        "SELECT b FROM r WHERE a = 1"
    )
    queries = queries_of([query])
    result = compile_with_queries(PROGRAM, queries)
    assert not result.has_errors, result.diagnostics
    step = {"edges": [{"insert": edge(1, 2)}, {"insert": edge(2, 5)}, {"insert": edge(4, 1)}]}
    records = list(replay(spark, result.to_json()["plan"], [json.dumps(step)], queries))
    assert records[-1] == {"step": 1, "view": "query_1", "rows": [{"b": 2}, {"b": 5}]}


def test_a_query_that_never_stops_adding_rows_fails_its_step(
    spark: SparkSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(recursion, "MAX_ROUNDS", 4)
    program = (
        "CREATE TABLE t (k INT NOT NULL);\n"
        "CREATE VIEW endless AS WITH RECURSIVE c (n) AS "
        "(SELECT k FROM t UNION ALL SELECT n + 1 FROM c) SELECT * FROM c;\n"
    )
    plan = compile_with_queries(program, []).to_json()["plan"]
    lines = ["{}", json.dumps({"t": [{"insert": {"k": 1}}]})]
    with pytest.raises(ReplayStepError) as failed:
        list(replay(spark, plan, lines))
    assert str(failed.value) == (
        "step 2 (line 2) failed: [RECURSION_LIMIT] The recursive query 'c' still added rows "
        "after 4 rounds. SQLSTATE: P0001"
    )
