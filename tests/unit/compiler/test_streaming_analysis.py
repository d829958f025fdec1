"""The streaming analyses: relation kinds, monotonicity, waterlines, output modes."""

from __future__ import annotations

from typing import Any

from backend.compiler import compile_program
from backend.compiler.analysis.lattice import Facts, unknown
from backend.compiler.analysis.monotonicity import is_monotone
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import types
from backend.compiler.source import Span
from tests.unit.compiler.compiled import errors_of

S = Span(0, 0)
TS = plan.ColumnRef(0, "ts", types.TIMESTAMP, False, S)
OTHER = plan.ColumnRef(1, "x", types.TIMESTAMP, False, S)
HOUR = plan.Literal(3_600_000_000, types.INTERVAL_DAY_TIME, False, S)


def call(function: str, *args: plan.Expr) -> plan.Call:
    return plan.Call(function, args, types.TIMESTAMP, False, S)


def test_monotone_expressions_keep_a_waterline() -> None:
    lines = (True, False)
    unit = plan.Literal("HOUR", types.VARCHAR, False, S)
    assert is_monotone(TS, lines)
    assert is_monotone(call("floor_time", TS, unit), lines)
    assert is_monotone(call("tumble_end", TS, HOUR), lines)
    assert is_monotone(call("add", TS, HOUR), lines)
    assert is_monotone(call("add", HOUR, TS), lines)
    assert is_monotone(call("sub", TS, HOUR), lines)
    assert not is_monotone(call("sub", HOUR, TS), lines)
    assert not is_monotone(OTHER, lines)
    assert not is_monotone(call("add", TS, OTHER), lines)
    one = plan.Literal(1, types.INTEGER, False, S)
    assert is_monotone(call("timestampadd", unit, one, TS), lines)
    assert not is_monotone(call("timestampadd", unit, TS, TS), lines), "n must be constant"
    for unit in ("year", "isoyear", "decade", "century", "millennium"):
        assert is_monotone(call(f"extract_{unit}", TS), lines)
    assert not is_monotone(call("extract_month", TS), lines)
    assert not is_monotone(call("extract_isodow", TS), lines)


def test_an_emit_final_column_moved_by_timestampadd_or_its_year_has_a_waterline() -> None:
    found = views(
        "CREATE TABLE t (ts TIMESTAMP NOT NULL LATENESS INTERVAL '1' HOUR, x INT);\n"
        "CREATE VIEW v WITH ('emit_final' = 'h') AS SELECT TIMESTAMPADD(HOUR, 1, "
        "FLOOR(ts TO HOUR)) AS h, COUNT(*) AS n FROM t GROUP BY TIMESTAMPADD(HOUR, 1, "
        "FLOOR(ts TO HOUR));\n"
        "CREATE VIEW y WITH ('emit_final' = 'yr') AS SELECT YEAR(ts) AS yr, SUM(x) AS s "
        "FROM t GROUP BY YEAR(ts);"
    )
    assert waterlines(found["v"]) == ["h"] and waterlines(found["y"]) == ["yr"]


def test_a_number_rounded_to_constant_places_keeps_its_waterline_not_to_a_column_s() -> None:
    """Feldera's roundWithConstantDigits (one retain-keys operator: a waterline) and
    roundDigitsWithLateness (ROUND(x, g) is not monotone in g)."""
    found = views(
        "CREATE TABLE t (x DECIMAL(10, 2) NOT NULL LATENESS 0, f DOUBLE NOT NULL LATENESS 0,"
        " g INT NOT NULL LATENESS 6);\n"
        + "".join(
            f"CREATE VIEW {name} WITH ('emit_final' = 'k') AS SELECT {key} AS k, COUNT(*) AS c"
            f" FROM t GROUP BY {key};\n"
            for name, key in [
                ("r1", "ROUND(x, 1)"),
                ("r_cast", "ROUND(x, CAST(1.4 AS INTEGER))"),
                ("r0", "ROUND(x)"),
                ("t1", "TRUNCATE(x, 1)"),
                ("rf", "ROUND(f, 2)"),
                ("fl", "FLOOR(f)"),
            ]
        )
        + "CREATE VIEW rg AS SELECT ROUND(x, g) AS k, TRUNCATE(x, g) AS tk FROM t;"
    )
    for name in ("r1", "r_cast", "r0", "t1", "rf", "fl"):
        assert waterlines(found[name]) == ["k"], name
    assert waterlines(found["rg"]) == []


def test_facts_meet_column_by_column() -> None:
    assert unknown(2) == Facts(False, False, (False, False))
    both = Facts(True, True, (True, True)).meet(Facts(True, False, (False, True)))
    assert both == Facts(True, False, (False, True))


def views(sql: str) -> dict[str, dict[str, Any]]:
    result = compile_program(sql)
    assert not result.has_errors, result.diagnostics
    payload = result.to_json()["plan"]
    return {view["name"]: view for view in payload["views"]}


def waterlines(view: dict[str, Any]) -> list[str]:
    return [column["name"] for column in view["columns"] if column["waterline"]]


def test_waterlines_flow_through_projections_aggregates_joins_and_unions() -> None:
    found = views(
        "CREATE TABLE t (ts TIMESTAMP NOT NULL LATENESS INTERVAL '1' HOUR, k INT)"
        " WITH ('append_only' = 'true');"
        "CREATE STREAM s (k INT);"
        "CREATE VIEW p AS SELECT ts + INTERVAL '1' DAY AS later, k FROM t WHERE k > 0;"
        "CREATE VIEW a AS SELECT FLOOR(ts TO HOUR) AS h, k, COUNT(*) AS n FROM t"
        " GROUP BY FLOOR(ts TO HOUR), k;"
        "CREATE VIEW j AS SELECT t.ts, s.rowtime, s.k FROM t JOIN s ON t.ts = s.rowtime;"
        "CREATE VIEW lj AS SELECT t.ts, s.rowtime FROM t LEFT JOIN s ON t.ts = s.rowtime;"
        "CREATE VIEW u AS SELECT ts FROM t UNION ALL SELECT rowtime FROM s;"
        "CREATE VIEW u2 AS SELECT ts FROM t UNION ALL SELECT CASE WHEN k > 0 THEN ts END FROM t;"
        "CREATE VIEW over_view AS SELECT h FROM a;"
    )
    assert waterlines(found["p"]) == ["later"]
    assert waterlines(found["a"]) == ["h"]
    assert waterlines(found["j"]) == ["ts", "rowtime"]
    # The NULL side of an outer join keeps its waterline (as Feldera infers it): the
    # NULLs the join adds are never below it, so never final.
    assert waterlines(found["lj"]) == ["ts", "rowtime"]
    assert waterlines(found["u"]) == ["ts"]
    assert waterlines(found["u2"]) == []
    assert waterlines(found["over_view"]) == ["h"]


def test_output_modes() -> None:
    found = views(
        "CREATE TABLE t (ts TIMESTAMP LATENESS INTERVAL '1' HOUR, k INT)"
        " WITH ('append_only' = 'true');"
        "CREATE TABLE u (k INT);"
        "CREATE VIEW f AS SELECT k FROM t WHERE k > 1;"
        "CREATE VIEW g AS SELECT k, COUNT(*) AS n FROM u GROUP BY k;"
        "CREATE VIEW e WITH ('emit_final' = 'h') AS"
        " SELECT FLOOR(ts TO HOUR) AS h, COUNT(*) AS n FROM t GROUP BY FLOOR(ts TO HOUR);"
        "CREATE VIEW plain AS SELECT k FROM u;"
    )
    assert {name: view["output_mode"] for name, view in found.items()} == {
        "f": "append",
        "g": "update",
        "e": "append",
        "plain": "update",
    }
    assert found["e"]["emit_final"] == 0


def test_an_emit_final_view_is_no_query_s_source_nor_indexed() -> None:
    # Feldera's EmitFinalIncrementalTests (emitFinalViewAsSource, issue7372).
    program = (
        "CREATE TABLE s (col1 INT LATENESS 1);"
        "CREATE VIEW w WITH ('emit_final' = 'col1') AS"
        " SELECT col1, COUNT(*) AS c FROM s GROUP BY col1;"
    )
    assert errors_of(program + "CREATE VIEW v AS SELECT * FROM w WHERE c > 1;") == [
        (
            "SQL211",
            "View 'w' has an 'emit_final' property, so it cannot be read by a query (as in "
            "Feldera): it emits only final rows, its readers would see every change",
        )
    ]
    assert errors_of(program + "CREATE INDEX ix ON w(col1);") == [
        (
            "SQL211",
            "View 'w' has an 'emit_final' property, so it cannot have an index (as in Feldera)",
        )
    ]


def test_select_stream_over_a_stream_joined_with_a_table_is_allowed() -> None:
    result = compile_program(
        "CREATE STREAM s (k INT); CREATE TABLE t (k INT, name VARCHAR);"
        "CREATE VIEW v AS SELECT STREAM s.rowtime, t.name FROM s JOIN t ON s.k = t.k"
    )
    assert not result.has_errors
    assert [d.code.value for d in result.diagnostics] == ["SQL307"]  # a warning only


def test_a_stream_that_selects_no_final_column_emits_updates_with_a_warning() -> None:
    ddl = "CREATE STREAM orders (product INT, units INT);\n"
    hourly = "FROM orders GROUP BY FLOOR(rowtime TO HOUR), product"
    for select, warned in (
        (f"SELECT STREAM product, COUNT(*) AS n {hourly}", True),
        (f"SELECT STREAM FLOOR(rowtime TO HOUR) AS h, product, COUNT(*) AS n {hourly}", False),
        ("SELECT STREAM product, units FROM orders", False),  # insert-only
    ):
        result = compile_program(ddl + f"CREATE VIEW v AS {select};")
        assert not result.has_errors, result.diagnostics_json()
        codes = [d.code for d in result.diagnostics if d.severity == "warning"]
        assert ("SQL313" in codes) is warned, (select, codes)
        [view] = [r for r in result.to_json()["catalog"]["relations"] if r["name"] == "v"]
        assert view["output_mode"] == ("update" if warned else "append")


def test_a_window_or_top_k_keeps_only_the_waterlines_below_which_its_rows_stay() -> None:
    found = views(
        "CREATE TABLE t (ts TIMESTAMP NOT NULL LATENESS INTERVAL '1' HOUR, "
        "h TIMESTAMP NOT NULL LATENESS INTERVAL '1' HOUR, k INT, v INT);\n"
        # Up to the row in time order: a later row sorts after the rows below ts's line.
        "CREATE VIEW sliding AS SELECT ts, h, SUM(v) OVER (PARTITION BY k ORDER BY ts "
        "RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW) AS s FROM t;\n"
        "CREATE VIEW ranked AS SELECT ts, h, "
        "ROW_NUMBER() OVER (PARTITION BY h ORDER BY ts) AS r FROM t;\n"
        # A later row changes the whole partition's value, or the row after one.
        "CREATE VIEW whole AS SELECT ts, h, SUM(v) OVER (PARTITION BY k) AS s FROM t;\n"
        "CREATE VIEW after AS SELECT ts, h, LEAD(v) OVER (ORDER BY ts) AS n FROM t;\n"
        "CREATE VIEW later AS SELECT ts, h, SUM(v) OVER (ORDER BY ts ROWS BETWEEN "
        "CURRENT ROW AND 1 FOLLOWING) AS s FROM t;\n"
        "CREATE VIEW backwards AS SELECT ts, h, RANK() OVER (ORDER BY ts DESC) AS r FROM t;\n"
        # Partitioned by a column with a waterline: a later row is in a later partition.
        "CREATE VIEW by_hour AS SELECT ts, h, COUNT(*) OVER (PARTITION BY h) AS n FROM t;\n"
        # A top-k: a better row displaces one whatever its time, unless the order is time's.
        "CREATE VIEW top AS SELECT ts, h, v FROM t ORDER BY v DESC LIMIT 3;\n"
        "CREATE VIEW first AS SELECT ts, h, v FROM t ORDER BY ts LIMIT 3;\n"
    )
    assert waterlines(found["sliding"]) == ["ts"]
    assert waterlines(found["ranked"]) == ["ts", "h"]
    for name in ("whole", "after", "later", "backwards", "top"):
        assert waterlines(found[name]) == [], name
    assert waterlines(found["by_hour"]) == ["h"]
    assert waterlines(found["first"]) == ["ts"]


def test_a_stream_over_a_window_whose_values_can_change_emits_updates() -> None:
    result = compile_program(
        "CREATE STREAM s (k INT, v INT);\n"
        # Over a stream, a window is ordered by rowtime: a running total by default.
        "CREATE VIEW totals AS SELECT STREAM rowtime, k, SUM(v) OVER (PARTITION BY k "
        "ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS t FROM s;\n"
        "CREATE VIEW running AS SELECT STREAM rowtime, k, SUM(v) OVER (PARTITION BY k) AS t "
        "FROM s;\n"
        "CREATE VIEW next AS SELECT STREAM rowtime, k, LEAD(v) OVER (PARTITION BY k) AS t "
        "FROM s;\n"
        "CREATE VIEW sliding AS SELECT STREAM rowtime, k, SUM(v) OVER (PARTITION BY k "
        "ORDER BY rowtime RANGE INTERVAL '1' HOUR PRECEDING) AS t FROM s;"
    )
    updates = [d for d in result.diagnostics if d.code.value == "SQL313"]
    assert [result.source.text[d.span.start : d.span.end][:30] for d in updates] == [
        "SELECT STREAM rowtime, k, SUM(",
        "SELECT STREAM rowtime, k, LEAD",
    ]
    payload = {v["name"]: v for v in result.to_json()["plan"]["views"]}
    for name in ("totals", "next"):
        assert payload[name]["output_mode"] == "update" and payload[name]["emit_final"] is None
    for name in ("running", "sliding"):
        assert payload[name]["output_mode"] == "append" and payload[name]["emit_final"] == 0
