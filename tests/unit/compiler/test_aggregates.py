"""Aggregates beyond COUNT/SUM/AVG/MIN/MAX: the statistics, the boolean ones, ARG_MAX and
ARG_MIN, FILTER."""

from __future__ import annotations

import pytest

from backend.compiler import compile_program
from tests.unit.compiler.compiled import errors_of, plan_nodes

DDL = "CREATE TABLE t (g VARCHAR, x INTEGER, f DOUBLE, ok BOOLEAN NOT NULL, s VARCHAR);\n"


def _compiled(sql: str) -> dict:
    result = compile_program(DDL + f"CREATE VIEW v AS {sql};")
    assert not result.has_errors, result.diagnostics_json()
    return result.to_json()


def _errors(sql: str) -> list[tuple[str, str]]:
    return errors_of(DDL + f"CREATE VIEW v AS {sql};")


def test_statistics_have_their_argument_s_type_and_boolean_aggregates_are_booleans() -> None:
    compiled = _compiled(
        "SELECT g, STDDEV(x) AS a, STDDEV_SAMP(f) AS b, STDDEV_POP(x) AS c, VARIANCE(x) AS d, "
        "VAR_SAMP(x) AS e, VAR_POP(f) AS h, BOOL_AND(ok) AS i, EVERY(x > 1) AS j, "
        "BOOL_OR(ok) AS k, SOME(ok) AS l FROM t GROUP BY g"
    )
    [view] = [r for r in compiled["catalog"]["relations"] if r["name"] == "v"]
    types = {c["name"]: (c["type"], c["nullable"]) for c in view["columns"]}
    # As in Calcite (and Feldera): an integer's standard deviation is an integer.
    for name in "acde":
        assert types[name] == ("INTEGER", True), name
    for name in "bh":
        assert types[name] == ("DOUBLE", True), name
    for name in "ijkl":
        assert types[name] == ("BOOLEAN", True), name
    [aggregate] = plan_nodes(compiled["plan"]["views"][0]["query"], "aggregate")
    # Calls that are the same under two spellings (VARIANCE(x), VAR_SAMP(x)) are one.
    assert [a["function"] for a in aggregate["aggregates"]] == [
        "stddev_samp",
        "stddev_samp",
        "stddev_pop",
        "var_samp",
        "var_pop",
        "bool_and",
        "bool_and",
        "bool_or",
    ]


def test_distinct_is_dropped_where_it_changes_nothing() -> None:
    compiled = _compiled("SELECT BOOL_OR(DISTINCT ok) AS b FROM t")
    [aggregate] = plan_nodes(compiled["plan"]["views"][0]["query"], "aggregate")
    assert aggregate["aggregates"][0]["distinct"] is False


def test_statistics_and_boolean_aggregates_run_over_windows() -> None:
    compiled = _compiled(
        "SELECT g, STDDEV_POP(x) OVER (PARTITION BY g) AS a, "
        "BOOL_OR(ok) OVER (PARTITION BY g ORDER BY x ROWS 1 PRECEDING) AS b FROM t"
    )
    [window] = plan_nodes(compiled["plan"]["views"][0]["query"], "window")
    assert [c["function"] for c in window["calls"]] == ["stddev_pop", "bool_or"]


@pytest.mark.parametrize(
    ("sql", "code", "message"),
    [
        ("SELECT STDDEV(s) FROM t", "SQL206", "Cannot apply STDDEV to VARCHAR"),
        ("SELECT BOOL_AND(x) FROM t", "SQL206", "Cannot apply BOOL_AND to INTEGER"),
        ("SELECT EVERY(ok, ok) FROM t", "SQL206", "EVERY expects 1 argument, got 2"),
        ("SELECT SUM(x) FILTER (WHERE x) FROM t", "SQL206", "FILTER (WHERE ...) expects BOOLEAN"),
        ("SELECT ARG_MAX(x) FROM t", "SQL206", "ARG_MAX expects 2 arguments (value, compared)"),
        ("SELECT ARG_MIN(NULL, x) FROM t", "SQL206", "Cannot apply ARG_MIN to NULL"),
        (
            "SELECT COUNT(*) FILTER (WHERE SUM(x) > 1) FROM t",
            "SQL213",
            "Aggregate functions are not allowed in FILTER: SUM",
        ),
        ("SELECT SUM(x) FILTER (WHERE y > 1) FROM t", "SQL202", "Unknown column 'y'"),
        ("SELECT BIT_AND(f) FROM t", "SQL206", "Cannot apply BIT_AND to DOUBLE"),
        ("SELECT STRING_AGG(x) FROM t", "SQL206", "Cannot apply STRING_AGG to INTEGER"),
        ("SELECT LISTAGG(s, g) FROM t", "SQL206", "LISTAGG's separator must be a string literal"),
        ("SELECT STRING_AGG(s, ',', ';') FROM t", "SQL206", "STRING_AGG expects 1 or 2 arguments"),
        ("SELECT STRING_AGG(s) OVER (PARTITION BY g) FROM t", "SQL401", "STRING_AGG(...) OVER"),
        (
            "SELECT PERCENTILE_CONT(0.5) FROM t",
            "SQL206",
            "PERCENTILE_CONT expects one fraction and one ORDER BY value",
        ),
        (
            "SELECT PERCENTILE_DISC(x) WITHIN GROUP (ORDER BY x) FROM t",
            "SQL206",
            "PERCENTILE_DISC's fraction must be a number literal from 0 to 1",
        ),
        (
            "SELECT PERCENTILE_CONT(1.01) WITHIN GROUP (ORDER BY x) FROM t",
            "SQL206",
            "PERCENTILE_CONT's fraction must be a number literal from 0 to 1",
        ),
        (
            "SELECT PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY s) FROM t",
            "SQL206",
            "Cannot apply PERCENTILE_CONT to VARCHAR: it interpolates numbers",
        ),
        (
            "SELECT PERCENTILE_DISC(DISTINCT 0.5) WITHIN GROUP (ORDER BY x) FROM t",
            "SQL206",
            "PERCENTILE_DISC takes no DISTINCT",
        ),
        (
            "SELECT PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY x, f) FROM t",
            "SQL206",
            "PERCENTILE_DISC expects one fraction and one ORDER BY value",
        ),
        (
            "SELECT PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY y) FROM t",
            "SQL202",
            "Unknown column 'y'",
        ),
        ("SELECT COVAR_POP(x) FROM t", "SQL206", "COVAR_POP expects 2 arguments (y, x), got 1"),
        (
            "SELECT REGR_SXX(x, s) FROM t",
            "SQL206",
            "Cannot apply REGR_SXX to VARCHAR: it takes numbers",
        ),
        ("SELECT COVAR_SAMP(DISTINCT x, f) FROM t", "SQL206", "COVAR_SAMP takes no DISTINCT"),
        ("SELECT MODE(DISTINCT x) FROM t", "SQL206", "MODE takes no DISTINCT"),
        ("SELECT COUNTIF(x) FROM t", "SQL206", "Cannot apply COUNTIF to INTEGER"),
    ],
)
def test_wrong_arguments_are_errors(sql: str, code: str, message: str) -> None:
    errors = _errors(sql)
    assert len(errors) == 1, errors
    assert errors[0][0] == code and message in errors[0][1], errors


def test_pair_statistics_mode_and_countif() -> None:
    compiled = _compiled(
        "SELECT g, COVAR_POP(x, f) AS a, COVAR_SAMP(f, x) AS b, REGR_COUNT(x, f) AS c, "
        "REGR_SXX(x, f) AS d, REGR_SYY(f, x) AS e, MODE(s) AS h, COUNTIF(x > 1) AS i, "
        "LOGICAL_AND(ok) AS j, LOGICAL_OR(ok) AS k FROM t GROUP BY g"
    )
    [view] = [r for r in compiled["catalog"]["relations"] if r["name"] == "v"]
    types = {c["name"]: (c["type"], c["nullable"]) for c in view["columns"]}
    # y's type (Calcite's and Feldera's rule); REGR_COUNT and COUNTIF count.
    assert types == {
        "g": ("VARCHAR", True),
        "a": ("INTEGER", True),
        "b": ("DOUBLE", True),
        "c": ("BIGINT", False),
        "d": ("INTEGER", True),
        "e": ("DOUBLE", True),
        "h": ("VARCHAR", True),
        "i": ("BIGINT", False),
        "j": ("BOOLEAN", True),
        "k": ("BOOLEAN", True),
    }
    [aggregate] = plan_nodes(compiled["plan"]["views"][0]["query"], "aggregate")
    functions = [a["function"] for a in aggregate["aggregates"]]
    assert functions == [
        "covar_pop", "covar_samp", "regr_count", "regr_sxx", "regr_syy", "mode", "count",
        "bool_and", "bool_or",
    ]  # fmt: skip
    # COUNTIF(c) counts CASE WHEN c THEN 1 END.
    counted = aggregate["aggregates"][6]["args"][0]
    assert counted["kind"] == "case" and counted["whens"][0][1]["value"] == 1


def test_count_of_several_counts_the_rows_where_none_is_null() -> None:
    compiled = _compiled("SELECT g, COUNT(x, s) AS n FROM t GROUP BY g")
    [aggregate] = plan_nodes(compiled["plan"]["views"][0]["query"], "aggregate")
    [call] = aggregate["aggregates"]
    case = call["args"][0]
    assert (call["function"], case["kind"]) == ("count", "case")
    assert case["whens"][0][0]["function"] == "and"
    # With DISTINCT, the distinct tuples (Calcite's AggTests): a count of several arguments.
    compiled = _compiled("SELECT COUNT(DISTINCT x, s) AS n FROM t")
    [aggregate] = plan_nodes(compiled["plan"]["views"][0]["query"], "aggregate")
    [call] = aggregate["aggregates"]
    assert (call["function"], call["distinct"], len(call["args"])) == ("count", True, 2)
    assert _errors("SELECT COUNT(DISTINCT x, s) OVER (PARTITION BY g) FROM t") == [
        ("SQL401", "Not supported yet: COUNT(DISTINCT a, b, ...) OVER")
    ]


def test_countif_over_a_window_counts_a_case_of_its_condition() -> None:
    compiled = _compiled("SELECT g, COUNTIF(x > 1) OVER (PARTITION BY g) AS n FROM t")
    [window] = plan_nodes(compiled["plan"]["views"][0]["query"], "window")
    [call] = window["calls"]
    assert call["function"] == "count" and call["args"][0]["kind"] == "case"


def test_filter_aggregates_a_case_of_the_argument() -> None:
    compiled = _compiled(
        "SELECT g, COUNT(*) FILTER (WHERE ok) AS a, SUM(x) FILTER (WHERE ok) AS b, "
        "SUM(x) AS c, COUNT(*) AS d FROM t GROUP BY g"
    )
    [aggregate] = plan_nodes(compiled["plan"]["views"][0]["query"], "aggregate")
    calls = aggregate["aggregates"]
    # A filtered aggregate is not the same call as the unfiltered one.
    assert [a["function"] for a in calls] == ["count", "sum", "sum", "count_star"]
    counted, summed = calls[0]["args"][0], calls[1]["args"][0]
    assert counted["kind"] == summed["kind"] == "case"
    assert counted["whens"][0][1] == {"kind": "literal", "value": 1, "type": "INTEGER"}
    [(when, then)] = summed["whens"]
    assert (when["index"], then["index"], summed["else"]) == (3, 1, None)  # ok, x
    [view] = [r for r in compiled["catalog"]["relations"] if r["name"] == "v"]
    types = {c["name"]: (c["type"], c["nullable"]) for c in view["columns"]}
    assert types["a"] == ("BIGINT", False) and types["b"] == ("BIGINT", True)


def test_arg_max_and_arg_min_give_the_value_s_type() -> None:
    compiled = _compiled(
        "SELECT g, ARG_MAX(s, x) AS a, ARG_MIN(DISTINCT f, x) AS b, "
        "ARG_MAX(x, f) FILTER (WHERE ok) AS c FROM t GROUP BY g"
    )
    [view] = [r for r in compiled["catalog"]["relations"] if r["name"] == "v"]
    types = {c["name"]: (c["type"], c["nullable"]) for c in view["columns"]}
    assert types == {
        "g": ("VARCHAR", True),
        "a": ("VARCHAR", True),
        "b": ("DOUBLE", True),
        "c": ("INTEGER", True),
    }
    [aggregate] = plan_nodes(compiled["plan"]["views"][0]["query"], "aggregate")
    calls = aggregate["aggregates"]
    assert [(a["function"], a["distinct"], len(a["args"])) for a in calls] == [
        ("arg_max", False, 2),
        ("arg_min", False, 2),
        ("arg_max", False, 3),  # FILTER's condition last: a NULL `compared` counts
    ]
    # FILTER's condition is a third argument: the rows where it is not TRUE are left out,
    # where a NULL `compared` is not (it wins where no other row has a `compared`).
    value, compared, condition = calls[2]["args"]
    assert (value["name"], compared["name"], condition["name"]) == ("x", "f", "ok")


def test_bit_aggregates_keep_the_integer_type_and_string_agg_takes_its_separator() -> None:
    compiled = _compiled(
        "SELECT g, BIT_AND(x) AS a, BIT_OR(DISTINCT x) AS o, BIT_XOR(x) AS x, "
        "STRING_AGG(s, '; ') AS joined, LISTAGG(DISTINCT s) AS listed, "
        "STRING_AGG(s) FILTER (WHERE ok) AS kept, BIT_XOR(DISTINCT x) AS xd FROM t GROUP BY g"
    )
    [view] = [r for r in compiled["catalog"]["relations"] if r["name"] == "v"]
    types = {c["name"]: c["type"] for c in view["columns"]}
    assert types == {
        "g": "VARCHAR",
        "a": "INTEGER",
        "o": "INTEGER",
        "x": "INTEGER",
        "joined": "VARCHAR",
        "listed": "VARCHAR",
        "kept": "VARCHAR",
        "xd": "INTEGER",
    }
    [aggregate] = plan_nodes(compiled["plan"]["views"][0]["query"], "aggregate")
    calls = aggregate["aggregates"]
    assert [(a["function"], a["distinct"]) for a in calls] == [
        ("bit_and", False),
        ("bit_or", False),  # a repeated value changes nothing
        ("bit_xor", False),
        ("string_agg", False),
        ("string_agg", True),
        ("string_agg", False),
        ("bit_xor", True),  # each distinct value once
    ]
    assert [c["args"][1]["value"] for c in calls[3:6]] == ["; ", ",", ","]
    # FILTER leaves out the rows by their value, STRING_AGG's first argument.
    assert calls[5]["args"][0]["kind"] == "case" and calls[5]["args"][1]["kind"] == "literal"


def test_string_agg_keeps_its_order_and_other_aggregates_drop_theirs() -> None:
    query = _compiled(
        "SELECT g, STRING_AGG(s, ',' ORDER BY x DESC, s NULLS FIRST) AS a, "
        "LISTAGG(s, ',') WITHIN GROUP (ORDER BY f) AS b, STRING_AGG(s, ',') AS c, "
        "SUM(x ORDER BY f) AS d FROM t GROUP BY g"
    )
    [grouped] = plan_nodes(query["plan"]["views"][0]["query"], "aggregate")
    orders = [agg.get("order") for agg in grouped["aggregates"]]
    assert orders == [
        [
            # Unsaid, NULLs are the smallest: last descending, first ascending.
            {"expr": orders[0][0]["expr"], "descending": True, "nulls_first": False},
            {"expr": orders[0][1]["expr"], "descending": False, "nulls_first": True},
        ],
        [{"expr": orders[1][0]["expr"], "descending": False, "nulls_first": True}],
        None,  # STRING_AGG without ORDER BY: by the values' text
        None,  # a sum is the same in any order
    ]
    assert [orders[0][0]["expr"]["index"], orders[0][1]["expr"]["index"]] == [1, 4]  # x, s
    assert orders[1][0]["expr"]["index"] == 2  # f


def test_string_agg_distinct_is_ordered_only_by_its_value() -> None:
    assert _errors("SELECT STRING_AGG(DISTINCT s, ',' ORDER BY s DESC) FROM t") == []
    assert _errors("SELECT STRING_AGG(DISTINCT s, ',' ORDER BY x) FROM t") == [
        ("SQL213", "With DISTINCT, STRING_AGG(...) can be ordered only by its value")
    ]


@pytest.mark.parametrize(
    ("sql", "where"),
    [
        ("SELECT UPPER(s ORDER BY s) FROM t", "a function's"),
        ("SELECT SUM(x ORDER BY f) OVER (PARTITION BY g) FROM t", "a window function's"),
    ],
)
def test_order_by_inside_a_call_is_for_aggregates(sql: str, where: str) -> None:
    [(code, message)] = _errors(sql)
    assert code == "SQL213" and message.endswith(f"orders an aggregate's rows, not {where}")


def test_percentiles_take_their_order_by_value_fraction_and_direction() -> None:
    compiled = _compiled(
        "SELECT g, PERCENTILE_CONT(0.25) WITHIN GROUP (ORDER BY x DESC) AS c, "
        "PERCENTILE_DISC(1) WITHIN GROUP (ORDER BY s) AS d FROM t GROUP BY g"
    )
    [aggregate] = plan_nodes(compiled["plan"]["views"][0]["query"], "aggregate")
    cont, disc = aggregate["aggregates"]
    assert (cont["function"], cont["type"], disc["function"], disc["type"]) == (
        "percentile_cont",
        "DOUBLE",
        "percentile_disc",
        "VARCHAR",
    )
    assert [(a.get("index"), a.get("value")) for a in cont["args"]] == [
        (1, None),
        (None, "0.25"),
        (None, True),
    ]
    assert [a.get("value") for a in disc["args"][1:]] == [1, False]


def test_statistics_take_distinct() -> None:
    compiled = _compiled("SELECT VAR_POP(DISTINCT x) AS v, STDDEV(DISTINCT f) AS s FROM t")
    [aggregate] = plan_nodes(compiled["plan"]["views"][0]["query"], "aggregate")
    assert [(a["function"], a["distinct"]) for a in aggregate["aggregates"]] == [
        ("var_pop", True),
        ("stddev_samp", True),
    ]


def test_array_agg_is_an_array_of_its_argument_s_type_keeping_nulls_unless_ignored() -> None:
    compiled = _compiled(
        "SELECT g, ARRAY_AGG(x) AS a, ARRAY_AGG(DISTINCT s ORDER BY s DESC) AS b, "
        "ARRAY_AGG(f IGNORE NULLS ORDER BY x) AS c, ARRAY_AGG(x ORDER BY f) RESPECT NULLS AS d, "
        "ARRAY_AGG(s) FILTER (WHERE ok) AS e FROM t GROUP BY g"
    )
    [view] = [r for r in compiled["catalog"]["relations"] if r["name"] == "v"]
    types = {c["name"]: (c["type"], c["nullable"]) for c in view["columns"]}
    assert types == {
        "g": ("VARCHAR", True),
        "a": ("INTEGER ARRAY", True),
        "b": ("VARCHAR ARRAY", True),
        "c": ("DOUBLE ARRAY", True),
        "d": ("INTEGER ARRAY", True),
        "e": ("VARCHAR ARRAY", True),
    }
    [grouped] = plan_nodes(compiled["plan"]["views"][0]["query"], "aggregate")
    calls = grouped["aggregates"]
    # (x, keep_nulls[, FILTER's condition]): a NULL value is a value, so FILTER cannot
    # be a CASE that makes it NULL.
    assert [[arg.get("value") for arg in call["args"][1:2]] for call in calls] == [
        [True],
        [True],
        [False],
        [True],
        [True],
    ]
    assert [len(call["args"]) for call in calls] == [2, 2, 2, 2, 3]
    assert calls[1]["distinct"] and [k["descending"] for k in calls[1]["order"]] == [True]
    assert calls[2]["order"][0]["expr"]["index"] == 1  # x
    assert _errors("SELECT ARRAY_AGG(x, f) FROM t") == [
        ("SQL206", "ARRAY_AGG expects 1 argument, got 2")
    ]
    assert _errors("SELECT ARRAY_AGG(NULL) FROM t") == [
        ("SQL206", "Cannot apply ARRAY_AGG to NULL")
    ]
    assert _errors("SELECT ARRAY_AGG(DISTINCT s ORDER BY x) FROM t") == [
        ("SQL213", "With DISTINCT, ARRAY_AGG(...) can be ordered only by its value")
    ]
