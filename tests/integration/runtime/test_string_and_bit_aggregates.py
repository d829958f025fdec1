"""STRING_AGG (LISTAGG), the BIT_ aggregates and ANY_VALUE under inserts and deletes: a
group's value is made again from the rows it holds after each step."""

from typing import Any

from pyspark.sql import SparkSession

from tests.integration.runtime.replays import contents_by_step

PROGRAM = """
CREATE TABLE u (g VARCHAR, name VARCHAR, n INT);
CREATE VIEW names AS SELECT g, STRING_AGG(name, '|') AS all_names,
  LISTAGG(DISTINCT name) AS distinct_names,
  STRING_AGG(name, ', ') FILTER (WHERE name <> 'bo') AS not_bo,
  ANY_VALUE(name) AS some_name
FROM u GROUP BY g;
CREATE VIEW ordered AS SELECT g, STRING_AGG(name, ',' ORDER BY n DESC NULLS LAST) AS by_n,
  LISTAGG(name, '|') WITHIN GROUP (ORDER BY name DESC) AS by_name
FROM u GROUP BY g;
CREATE VIEW bits AS SELECT g, BIT_AND(n) AS a, BIT_OR(n) AS o, BIT_XOR(n) AS x,
  BIT_XOR(DISTINCT n) AS xd
FROM u GROUP BY g;
"""


def row(g: str | None, name: str | None, n: int | None) -> dict[str, Any]:
    return {"g": g, "name": name, "n": n}


def by_group(spark: SparkSession, steps: list[list[dict[str, Any]]]) -> list[dict]:
    """Each view's rows after each step, by group."""
    return contents_by_step(spark, PROGRAM, "u", steps, order=lambda r: str(r["g"]))


def test_string_agg_joins_the_values_a_group_holds_in_the_order_of_their_text(
    spark: SparkSession,
) -> None:
    first = [row("a", "bo", 6), row("a", "ann", 3), row("a", "bo", 6), row("a", None, None)]
    first.append(row("b", None, 5))
    second = [{"delete": row("a", "bo", 6)}, {"insert": row("b", "cy", 1)}]
    after = by_group(spark, [[{"insert": r} for r in first], second])
    # ANY_VALUE is the smallest value: the same whatever order the rows came in.
    assert after[0]["names"] == [
        {"g": "a", "all_names": "ann|bo|bo", "distinct_names": "ann,bo", "not_bo": "ann"}
        | {"some_name": "ann"},
        {"g": "b", "all_names": None, "distinct_names": None, "not_bo": None} | {"some_name": None},
    ]
    assert after[1]["names"] == [
        {"g": "a", "all_names": "ann|bo", "distinct_names": "ann,bo", "not_bo": "ann"}
        | {"some_name": "ann"},
        {"g": "b", "all_names": "cy", "distinct_names": "cy", "not_bo": "cy"} | {"some_name": "cy"},
    ]
    # 6 = 110, 3 = 011: AND 010, OR 111; XOR of 6, 3, 6 is 3, then of 6, 3 is 5; of the
    # distinct values 6 and 3, 5 both times.
    assert after[0]["bits"] == [
        {"g": "a", "a": 2, "o": 7, "x": 3, "xd": 5},
        {"g": "b", "a": 5, "o": 5, "x": 5, "xd": 5},
    ]
    assert after[1]["bits"] == [
        {"g": "a", "a": 2, "o": 7, "x": 5, "xd": 5},
        {"g": "b", "a": 1, "o": 5, "x": 4, "xd": 4},
    ]


def test_string_agg_joins_its_values_in_the_order_of_its_order_by(spark: SparkSession) -> None:
    first = [row("a", "bo", 1), row("a", "ann", 3), row("a", "cy", None), row("a", "bo", 2)]
    second = [{"delete": row("a", "ann", 3)}, {"insert": row("a", "di", 9)}]
    after = by_group(spark, [[{"insert": r} for r in first], second])
    # By n, largest first, NULL last; by the name, last first (LISTAGG ... WITHIN GROUP).
    assert after[0]["ordered"] == [{"g": "a", "by_n": "ann,bo,bo,cy", "by_name": "cy|bo|bo|ann"}]
    assert after[1]["ordered"] == [{"g": "a", "by_n": "di,bo,bo,cy", "by_name": "di|cy|bo|bo"}]
