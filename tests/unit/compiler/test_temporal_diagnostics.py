"""SNAPSHOT, SEARCH_KEY, FOR SYSTEM_TIME AS OF, TO_CHANGELOG and FROM_CHANGELOG: every
diagnostic's exact code and span (marked «» in the SQL), and nothing else reported."""

from __future__ import annotations

import pytest

from backend.compiler import compile_program
from backend.compiler.diagnostics import Severity

from .markers import marked

P = (
    "CREATE STREAM orders (order_id INT, currency VARCHAR, name VARCHAR);\n"
    "CREATE TABLE rates (currency VARCHAR NOT NULL PRIMARY KEY, rate DECIMAL(10, 4),\n"
    "    ts TIMESTAMP LATENESS INTERVAL '1' HOUR);\n"
    "CREATE TABLE customers (name VARCHAR, tier INT);\n"
)
BY_ORDERS = P + "CREATE VIEW w AS SELECT o.name FROM orders o, "

CASES = [
    # SQL320: the other side of a lookup join must be insert-only.
    (
        "lookup_of_a_table_by_a_table",
        P + "CREATE VIEW w AS SELECT c.tier FROM customers c JOIN «SNAPSHOT(rates)» r "
        "ON c.name = r.currency",
        ["SQL320"],
    ),
    (
        "search_key_by_a_table",
        P + "CREATE VIEW w AS SELECT c.tier FROM customers c, "
        "LATERAL «SEARCH_KEY(rates, DESCRIPTOR(currency), c.name)» r",
        ["SQL320"],
    ),
    (
        "as_of_now_by_a_table",
        P + "CREATE VIEW w AS SELECT c.tier FROM customers c "
        "JOIN «rates FOR SYSTEM_TIME AS OF NOW()» r ON c.name = r.currency",
        ["SQL320"],
    ),
    (
        "snapshot_on_the_left_by_a_table",
        P + "CREATE VIEW w AS SELECT c.tier FROM «SNAPSHOT(rates)» r JOIN customers c "
        "ON c.name = r.currency",
        ["SQL320"],
    ),
    # SQL321: time travel needs exactly one time column.
    (
        "time_travel_without_a_time_column",
        P + "CREATE VIEW w AS SELECT * FROM «SNAPSHOT(customers, TIMESTAMP '2020-01-01')»",
        ["SQL321"],
    ),
    (
        "time_travel_with_two_time_columns",
        "CREATE TABLE two (a TIMESTAMP LATENESS INTERVAL '1' HOUR,\n"
        "    b TIMESTAMP WATERMARK INTERVAL '1' HOUR);\n"
        "CREATE VIEW w AS SELECT * FROM «SNAPSHOT(two, TIMESTAMP '2020-01-01')»",
        ["SQL321"],
    ),
    (
        "temporal_join_without_a_time_column",
        BY_ORDERS + "LATERAL «SNAPSHOT(customers, o.rowtime)» c",
        ["SQL321"],
    ),
    (
        "as_of_without_a_time_column",
        P + "CREATE VIEW w AS SELECT * FROM «customers FOR SYSTEM_TIME AS OF "
        "TIMESTAMP '2020-01-01'»",
        ["SQL321"],
    ),
    # SQL322: time travel goes to a fixed time.
    ("snapshot_to_now", P + "CREATE VIEW w AS SELECT * FROM SNAPSHOT(rates, «NOW()»)", ["SQL322"]),
    (
        "as_of_now_minus_an_hour",
        P + "CREATE VIEW w AS SELECT * FROM rates FOR SYSTEM_TIME AS OF "
        "«CURRENT_TIMESTAMP - INTERVAL '1' HOUR»",
        ["SQL322"],
    ),
    (
        "named_to_time_now",
        P + "CREATE VIEW w AS SELECT * FROM SNAPSHOT(input => rates, to_time => «PROCTIME()»)",
        ["SQL322"],
    ),
    # A correlated time needs LATERAL (or something to the left to correlate with).
    ("correlated_without_lateral", BY_ORDERS + "SNAPSHOT(rates, «o.rowtime») r", ["SQL211"]),
    (
        "as_of_a_column_first_in_from",
        P + "CREATE VIEW w AS SELECT * FROM rates FOR SYSTEM_TIME AS OF «o.rowtime»",
        ["SQL211"],
    ),
    (
        "search_key_without_lateral",
        BY_ORDERS + "SEARCH_KEY(customers, DESCRIPTOR(name), «o.name») c",
        ["SQL211"],
    ),
    # Types of the time and of the lookup values.
    (
        "time_of_the_wrong_type",
        P + "CREATE VIEW w AS SELECT * FROM SNAPSHOT(rates, «5»)",
        ["SQL206"],
    ),
    ("time_null", P + "CREATE VIEW w AS SELECT * FROM SNAPSHOT(rates, «NULL»)", ["SQL206"]),
    (
        "temporal_join_on_a_string",
        BY_ORDERS + "LATERAL SNAPSHOT(rates, «o.name») r",
        ["SQL206"],
    ),
    (
        "not_a_descriptor",
        BY_ORDERS + "LATERAL SEARCH_KEY(customers, «name», o.name) c",
        ["SQL206"],
    ),
    (
        "unknown_key_column",
        BY_ORDERS + "LATERAL SEARCH_KEY(customers, DESCRIPTOR(«nam»), o.name) c",
        ["SQL202"],
    ),
    (
        "too_few_lookup_values",
        BY_ORDERS + "LATERAL SEARCH_KEY(customers, DESCRIPTOR(name, tier), «o.name») c",
        ["SQL207"],
    ),
    (
        "too_many_lookup_values",
        BY_ORDERS + "LATERAL SEARCH_KEY(customers, DESCRIPTOR(name), «(o.name, o.currency)») c",
        ["SQL207"],
    ),
    (
        "lookup_value_type",
        BY_ORDERS + "LATERAL SEARCH_KEY(customers, DESCRIPTOR(tier), «o.name») c",
        ["SQL206"],
    ),
    # SEARCH_KEY's options: string pairs in a MAP, accepted with a warning.
    (
        "options_not_a_map",
        BY_ORDERS + "LATERAL SEARCH_KEY(customers, DESCRIPTOR(name), o.name, «'async'») c",
        ["SQL206"],
    ),
    (
        "options_odd",
        BY_ORDERS + "LATERAL SEARCH_KEY(customers, DESCRIPTOR(name), o.name, «MAP['async']») c",
        ["SQL206"],
    ),
    (
        "options_not_strings",
        BY_ORDERS + "LATERAL SEARCH_KEY(customers, DESCRIPTOR(name), o.name, "
        "options => MAP['async', 'true', «'fixed-delay'='10s'»]) c",
        ["SQL206"],
    ),
    (
        "options_have_no_effect",
        BY_ORDERS + "LATERAL SEARCH_KEY(customers, DESCRIPTOR(name), o.name, "
        "options => «MAP['async', 'true']») c",
        ["SQL212"],
    ),
    # Arguments.
    (
        "unknown_parameter",
        P + "CREATE VIEW w AS SELECT * FROM SNAPSHOT(«inputs» => rates)",
        ["SQL207"],
    ),
    ("missing_input", P + "CREATE VIEW w AS SELECT * FROM «TO_CHANGELOG()»", ["SQL207"]),
    ("one_too_many", P + "CREATE VIEW w AS SELECT * FROM TO_CHANGELOG(rates, «rates»)", ["SQL207"]),
    ("input_not_a_table", P + "CREATE VIEW w AS SELECT * FROM TO_CHANGELOG(«1»)", ["SQL206"]),
    ("unknown_input", P + "CREATE VIEW w AS SELECT * FROM SNAPSHOT(«nope»)", ["SQL201"]),
    # FROM_CHANGELOG reads op (an integer) and payload (a ROW).
    (
        "from_changelog_of_a_plain_table",
        P + "CREATE VIEW w AS SELECT * FROM FROM_CHANGELOG(«customers»)",
        ["SQL202"],
    ),
    (
        "from_changelog_op_not_an_integer",
        P + "CREATE VIEW s AS SELECT name AS op, tier AS payload FROM customers;\n"
        "CREATE VIEW w AS SELECT * FROM FROM_CHANGELOG(«s»)",
        ["SQL206"],
    ),
    (
        "from_changelog_payload_not_a_row",
        P + "CREATE VIEW s AS SELECT tier AS op, tier AS payload FROM customers;\n"
        "CREATE VIEW w AS SELECT * FROM FROM_CHANGELOG(«s»)",
        ["SQL206"],
    ),
    # ROW fields.
    (
        "unknown_field",
        P + "CREATE VIEW w AS SELECT payload.«nope» FROM TO_CHANGELOG(rates)",
        ["SQL202"],
    ),
    (
        "field_of_a_non_row",
        P + "CREATE VIEW w AS SELECT s.op.«x» FROM TO_CHANGELOG(rates) s",
        ["SQL206"],
    ),
    # Streams and tables.
    (
        "a_snapshot_is_a_table",
        P + "CREATE VIEW w AS SELECT STREAM * FROM «SNAPSHOT(orders)»",
        ["SQL303"],
    ),
    (
        "from_changelog_is_a_table",
        P + "CREATE VIEW c AS SELECT * FROM TO_CHANGELOG(orders);\n"
        "CREATE VIEW w AS SELECT STREAM * FROM «FROM_CHANGELOG(c)»",
        ["SQL303"],
    ),
    # Joins that would keep rows of the looked-up side.
    (
        "right_join_of_a_snapshot",
        P + "CREATE VIEW w AS SELECT o.name FROM orders o RIGHT JOIN «SNAPSHOT(customers)» c "
        "ON o.name = c.name",
        ["SQL401"],
    ),
    (
        "full_join_of_a_temporal_table",
        P + "CREATE VIEW w AS SELECT o.name FROM orders o FULL JOIN "
        "LATERAL «SNAPSHOT(rates, o.rowtime)» r ON TRUE",
        ["SQL401"],
    ),
    (
        "lateral_on_the_left_of_a_join",
        BY_ORDERS + "LATERAL «SNAPSHOT(rates, o.rowtime)» r JOIN customers c ON TRUE",
        ["SQL401"],
    ),
    # The FLIP's own example joins with a comma and ON: standard SQL wants JOIN ... ON.
    (
        "comma_join_with_on",
        BY_ORDERS + "rates FOR SYSTEM_TIME AS OF o.rowtime r «on» o.currency = r.currency",
        ["SQL101"],
    ),
]


@pytest.mark.parametrize(("sql", "codes"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_temporal_diagnostic_code_and_exact_span(sql: str, codes: list[str]) -> None:
    text, spans = marked(sql)
    assert len(spans) == len(codes), "one «» marker per expected diagnostic"
    result = compile_program(text)
    assert [(d.code.value, d.span) for d in result.diagnostics] == list(
        zip(codes, spans, strict=True)
    )


def test_search_key_options_are_a_warning_naming_the_keys_and_the_plan_is_built() -> None:
    result = compile_program(
        BY_ORDERS + "LATERAL SEARCH_KEY(input => customers, on_key => DESCRIPTOR(name), "
        "lookup => o.name, options => MAP['async', 'true', 'retry-strategy', 'fixed_delay']) c"
    )
    (diagnostic,) = result.diagnostics
    assert diagnostic.severity is Severity.WARNING
    assert diagnostic.message == (
        "SEARCH_KEY options have no effect on Spark: 'async', 'retry-strategy'"
    )
    assert result.to_json()["plan"] is not None


def test_the_lookup_error_says_why_and_what_to_do() -> None:
    (diagnostic,) = compile_program(
        P + "CREATE VIEW w AS SELECT c.tier FROM customers c JOIN SNAPSHOT(rates) r ON TRUE"
    ).diagnostics
    assert diagnostic.message == (
        "A lookup join needs an insert-only input on the other side: a deletion could not be undone"
    )
    assert diagnostic.hint is not None and "append-only" in diagnostic.hint


def test_the_version_column_error_has_a_hint() -> None:
    (diagnostic,) = compile_program(
        P + "CREATE VIEW w AS SELECT * FROM SNAPSHOT(customers, TIMESTAMP '2020-01-01')"
    ).diagnostics
    assert diagnostic.message == (
        "SNAPSHOT needs a time column to version table 'customers' by, and it has none"
    )
    assert diagnostic.hint is not None and "LATENESS" in diagnostic.hint


def test_a_relational_pump_may_read_a_snapshot_of_a_stream_but_not_the_stream() -> None:
    pump = P + "CREATE TABLE names (name VARCHAR);\nCREATE PUMP p AS INSERT INTO names "
    snapshot = compile_program(pump + "SELECT name FROM SNAPSHOT(orders)").diagnostics
    assert snapshot == ()
    text, (stream,) = marked(
        pump + "SELECT o.name FROM «orders o» JOIN SNAPSHOT(customers) c ON o.name = c.name"
    )
    found = compile_program(text).diagnostics
    assert [(d.code.value, d.span) for d in found] == [("SQL302", stream)]
