"""The binder's decisions, one behaviour per test: plans, catalogs, recovery."""

from __future__ import annotations

from typing import Any

from backend.compiler import compile_program

ORDERS = (
    "CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, amount DECIMAL(10, 2), "
    "status VARCHAR, ts TIMESTAMP);\n"
)


def plan_of(text: str) -> dict[str, Any]:
    result = compile_program(text)
    assert result.diagnostics == (), [d.message for d in result.diagnostics]
    plan = result.to_json()["plan"]
    assert plan is not None
    return dict(plan)


def view_query(text: str, view: str = "v") -> dict[str, Any]:
    (found,) = [v for v in plan_of(text)["views"] if v["name"] == view]
    return dict(found["query"])


def relations(text: str) -> list[tuple[str, str]]:
    catalog = compile_program(text).to_json()["catalog"]
    return [(r["name"], r["kind"]) for r in catalog["relations"]]


def test_select_star_is_the_scan_itself() -> None:
    query = view_query(ORDERS + "CREATE VIEW v AS SELECT * FROM orders")
    assert query["op"] == "scan" and query["relation"] == "orders"


def test_where_becomes_a_filter_under_the_projection() -> None:
    query = view_query(ORDERS + "CREATE VIEW v AS SELECT id FROM orders WHERE amount > 1")
    assert query["op"] == "project"
    assert query["input"]["op"] == "filter"
    assert query["input"]["condition"]["function"] == "gt"
    assert query["input"]["input"]["op"] == "scan"


def test_column_references_index_into_the_input_columns() -> None:
    query = view_query(ORDERS + "CREATE VIEW v AS SELECT ts, id FROM orders")
    assert [(e["index"], e["name"]) for e in query["exprs"]] == [(3, "ts"), (0, "id")]


def test_output_names_come_from_aliases_columns_or_position() -> None:
    query = view_query(
        ORDERS + "CREATE VIEW v AS SELECT id AS key, o.status, amount + 1 FROM orders o"
    )
    assert [c["name"] for c in query["columns"]] == ["key", "status", "EXPR$2"]


def test_view_column_list_renames_the_query_output() -> None:
    plan = plan_of(ORDERS + "CREATE VIEW v (a, b, c, d) AS SELECT * FROM orders")
    (view,) = plan["views"]
    assert [c["name"] for c in view["columns"]] == ["a", "b", "c", "d"]
    assert view["query"]["op"] == "project"  # renaming needs a projection
    assert [c["name"] for c in view["query"]["columns"]] == ["a", "b", "c", "d"]


def test_a_star_over_a_join_numbers_the_names_taken_before_as_calcite_does() -> None:
    """Feldera's Postgres CASE tests: `SELECT * FROM a, b` over two `i` columns."""
    plan = plan_of(
        "CREATE TABLE a (i INT, f DOUBLE);\nCREATE TABLE b (i INT, j INT, i0 INT);\n"
        "CREATE VIEW v AS SELECT * FROM a, b, a AS c WHERE COALESCE(a.i, b.i) = 2"
    )
    (view,) = plan["views"]
    assert [c["name"] for c in view["columns"]] == ["i", "f", "i1", "j", "i0", "i2", "f0"]
    written_twice = compile_program(ORDERS + "CREATE VIEW v AS SELECT id, id FROM orders")
    assert [d.code for d in written_twice.diagnostics] == ["SQL205"]


def test_nullability_follows_the_expressions() -> None:
    query = view_query(
        ORDERS + "CREATE VIEW v AS SELECT id + 1 AS a, amount + 1 AS b, status IS NULL AS c, "
        "COALESCE(status, 'none') AS d FROM orders"
    )
    assert [c["nullable"] for c in query["columns"]] == [False, True, False, False]


def test_between_and_in_are_lowered_to_contract_functions() -> None:
    query = view_query(
        ORDERS
        + "CREATE VIEW v AS SELECT id FROM orders WHERE id BETWEEN 1 AND 5 AND id NOT IN (7, 8)"
    )
    condition = query["input"]["condition"]
    between, not_in = condition["args"]
    assert between["function"] == "and"
    assert [a["function"] for a in between["args"]] == ["ge", "le"]
    assert not_in["function"] == "not"
    assert not_in["args"][0]["function"] == "or"


def test_between_symmetric_is_either_order_of_its_bounds() -> None:
    query = view_query(
        ORDERS + "CREATE VIEW v AS SELECT id FROM orders WHERE id BETWEEN SYMMETRIC 5 AND 1"
    )
    condition = query["input"]["condition"]
    assert condition["function"] == "or"
    bounds = [[c["args"][1]["value"] for c in side["args"]] for side in condition["args"]]
    assert bounds == [[5, 1], [1, 5]]


def test_like_escape_is_a_third_argument_and_must_be_one_literal_character() -> None:
    query = view_query(
        ORDERS + "CREATE VIEW v AS SELECT id FROM orders "
        "WHERE status LIKE '100!%' ESCAPE '!' AND status NOT LIKE 'a\\b'"
    )
    escaped, plain = query["input"]["condition"]["args"]
    assert escaped["function"] == "like"
    assert [a.get("value") for a in escaped["args"][1:]] == ["100!%", "!"]
    assert plain["function"] == "not" and len(plain["args"][0]["args"]) == 2
    where = ORDERS + "CREATE VIEW v AS SELECT id FROM orders WHERE "
    bad = {
        "status LIKE 'a' ESCAPE '!!'": ("SQL209", "ESCAPE expects one character, found '!!'"),
        "status LIKE '5!' ESCAPE '!'": ("SQL209", "the escape character '!' must precede"),
        "status LIKE 'a!b' ESCAPE '!'": ("SQL209", "the escape character '!' must precede"),
        "status LIKE 'a' ESCAPE status": ("SQL401", "an escape that is not a string literal"),
    }
    for condition, (code, message) in bad.items():
        [error] = [d for d in compile_program(where + condition).diagnostics]
        assert (error.code, message in error.message) == (code, True), condition


def test_negative_numeric_literals_are_folded() -> None:
    query = view_query(ORDERS + "CREATE VIEW v AS SELECT id FROM orders WHERE id > -5")
    assert query["input"]["condition"]["args"][1] == {
        "kind": "literal",
        "value": -5,
        "type": "INTEGER",
    }


def test_stream_has_implicit_rowtime_and_is_append_only() -> None:
    plan = plan_of("CREATE STREAM s (x INT)")
    (stream,) = plan["inputs"]
    assert stream["kind"] == "stream" and stream["append_only"] is True
    assert stream["columns"][0] == {
        "name": "rowtime",
        "type": "TIMESTAMP",
        "nullable": False,
        "lateness": None,
        "watermark": None,
        "waterline": True,
    }


def test_inputs_are_tables_and_streams_and_views_are_separate_in_program_order() -> None:
    plan = plan_of(
        "CREATE TABLE b (x INT); CREATE STREAM a (y INT);"
        "CREATE VIEW z AS SELECT x FROM b; CREATE VIEW y AS SELECT * FROM z;"
    )
    assert [r["name"] for r in plan["inputs"]] == ["b", "a"]
    assert [v["name"] for v in plan["views"]] == ["z", "y"]


def test_view_flags_in_catalog() -> None:
    catalog = compile_program(
        ORDERS + "CREATE MATERIALIZED VIEW m AS SELECT id FROM orders;"
        "CREATE LOCAL VIEW l AS SELECT id FROM orders;"
    ).catalog
    m, local = catalog.get("m"), catalog.get("l")
    assert m is not None and m.materialized and not m.local
    assert local is not None and local.local and not local.materialized


def test_lateness_is_kept_in_the_catalog() -> None:
    catalog = compile_program("CREATE TABLE t (ts TIMESTAMP LATENESS INTERVAL '1' HOUR)").catalog
    relation = catalog.get("t")
    assert relation is not None
    lateness = relation.columns[0].lateness
    assert lateness is not None and str(lateness.type) == "INTERVAL DAY TO SECOND"


def test_emit_final_names_a_column_by_name_or_number() -> None:
    catalog = compile_program(
        ORDERS + "CREATE VIEW a WITH ('emit_final' = 'ts') AS SELECT id, ts FROM orders;"
        "CREATE VIEW b WITH ('emit_final' = '0') AS SELECT id, ts FROM orders;"
    ).catalog
    emit_final = {r.name: r.emit_final for r in catalog.relations if r.kind.value == "view"}
    assert emit_final == {"a": 1, "b": 0}


def test_catalog_lists_good_relations_even_when_other_statements_fail() -> None:
    text = (
        "CREATE TABLE a (x INT);\n"
        "CREATE VIEW broken AS SELECT nope FROM a;\n"
        "CREATE TABLE syntax_error (x INT,,);\n"
        "CREATE VIEW c AS SELECT x FROM a;\n"
    )
    assert relations(text) == [("a", "table"), ("c", "view")]
    assert compile_program(text).to_json()["plan"] is None


def test_references_to_failed_relations_do_not_cascade() -> None:
    result = compile_program(
        "CREATE TABLE a (x INT,,);\n"  # syntax error: a is declared but broken
        "CREATE VIEW b AS SELECT whatever FROM a;\n"
        "CREATE VIEW c AS SELECT missing FROM b;\n"
    )
    assert [d.code.value for d in result.diagnostics] == ["SQL101"]


def test_a_column_with_an_unknown_type_only_silences_references_to_itself() -> None:
    result = compile_program(
        "CREATE TABLE a (x INTEGR, y INT);\nCREATE VIEW b AS SELECT x, y, z FROM a;\n"
    )
    assert [(d.code.value, d.message) for d in result.diagnostics] == [
        ("SQL208", "Unknown type INTEGR"),
        ("SQL202", "Unknown column 'z' in table 'a'"),
    ]
    assert relations("CREATE TABLE a (x INTEGR, y INT)") == []  # its shape is not known


def test_first_declaration_wins_a_duplicate() -> None:
    catalog = compile_program("CREATE TABLE a (x INT); CREATE TABLE a (y INT)").catalog
    relation = catalog.get("a")
    assert relation is not None and [c.name for c in relation.columns] == ["x"]


def test_a_with_query_is_visible_to_its_body_only() -> None:
    result = compile_program(
        ORDERS
        + "CREATE VIEW v AS WITH w AS (SELECT id FROM orders) SELECT id FROM w;"
        + "CREATE VIEW x AS SELECT id FROM w"
    )
    assert [d.message for d in result.diagnostics] == ["Unknown table or view 'w'"]


def test_a_failed_with_query_does_not_cascade() -> None:
    result = compile_program(
        ORDERS + "CREATE VIEW v AS WITH w AS (SELECT nope FROM orders) SELECT id FROM w"
    )
    assert [d.code.value for d in result.diagnostics] == ["SQL202"]


def test_quoted_identifiers_are_case_sensitive() -> None:
    result = compile_program('CREATE TABLE "T" (x INT); CREATE VIEW v AS SELECT x FROM t')
    (diagnostic,) = result.diagnostics
    assert diagnostic.code.value == "SQL201"
    assert diagnostic.hint == "did you mean 'T'? Names in double quotes are case-sensitive"


def test_a_join_after_a_comma_item_refers_to_its_own_inputs_columns() -> None:
    sql = (
        "CREATE TABLE a (x1 INT); CREATE TABLE b (x INT, y INT); CREATE TABLE c (z INT, y INT);\n"
        "CREATE VIEW v AS SELECT x1, b.x, z FROM a, b JOIN c ON b.y = c.z;\n"
        "CREATE VIEW w AS SELECT x1, b.x, z FROM a, b JOIN c USING (y);"
    )
    for name, right_y in (("v", 2), ("w", 3)):
        join = view_query(sql, name)["input"]["right"]
        assert [arg["index"] for arg in join["condition"]["args"]] == [1, right_y]


def test_limit_and_offset_in_each_of_their_spellings() -> None:
    """PostgreSQL's `OFFSET m LIMIT n` and MySQL's `LIMIT m, n` (Calcite's SortTests) are
    `LIMIT n OFFSET m`; `LIMIT m, ALL` has no limit."""
    spellings = {
        "LIMIT 2 OFFSET 1": (2, 1),
        "OFFSET 1 LIMIT 2": (2, 1),
        "LIMIT 1, 2": (2, 1),
        "LIMIT 1, ALL": (None, 1),
        "OFFSET 3 ROWS FETCH FIRST 2 ROWS ONLY": (2, 3),
        "LIMIT ALL": (None, None),
    }
    for written, (limit, offset) in spellings.items():
        query = view_query(ORDERS + f"CREATE VIEW v AS SELECT id FROM orders ORDER BY id {written}")
        sort = query if query["op"] == "sort" else query["input"]
        assert (sort.get("limit"), sort.get("offset") or None) == (limit, offset), written


def test_a_star_may_leave_columns_out_with_exclude_or_except() -> None:
    """Calcite's SelectTests.testExclude: `* EXCLUDE (...)` and `t.* EXCEPT (...)`, the
    names qualified or not, one named twice; a name no column has is SQL202."""
    program = (
        ORDERS + "CREATE TABLE c (id BIGINT, name VARCHAR, ts TIMESTAMP);\n"
        "CREATE VIEW v AS SELECT o.* EXCLUDE (o.status, amount, amount), c.* EXCEPT (c.ts) "
        "FROM orders AS o JOIN c ON o.id = c.id;\n"
        "CREATE VIEW w AS SELECT * EXCLUDE (c.ts, status) FROM orders JOIN c USING (id);\n"
        "CREATE VIEW u AS SELECT id FROM orders EXCEPT (SELECT id FROM c)"
    )
    views = {v["name"]: [c["name"] for c in v["columns"]] for v in plan_of(program)["views"]}
    assert views == {
        "v": ["id", "ts", "id0", "name"],
        "w": ["id", "amount", "ts", "name"],
        "u": ["id"],
    }
    missing = compile_program(ORDERS + "CREATE VIEW v AS SELECT * EXCLUDE (nope) FROM orders")
    assert [(d.code, d.message) for d in missing.diagnostics] == [
        ("SQL202", "No column 'nope' for * to leave out")
    ]


def test_an_interval_of_weeks_or_quarters_is_days_or_months() -> None:
    """Calcite's INTERVAL '2' WEEK (14 days) and INTERVAL '1' QUARTER (3 months)."""
    query = view_query(
        ORDERS + "CREATE VIEW v AS SELECT ts + INTERVAL '2' WEEK AS w, "
        "ts - INTERVAL '1' QUARTER AS q, INTERVAL id WEEKS AS n FROM orders"
    )
    week, quarter, weeks = query["exprs"]
    assert week["args"][1] == {"kind": "literal", "value": 14 * 86_400_000_000,
                               "type": "INTERVAL DAY TO SECOND"}  # fmt: skip
    assert quarter["args"][1]["value"] == 3
    assert weeks["type"] == "INTERVAL DAY"


def test_distinct_sorts_by_an_expression_of_its_select_list() -> None:
    """Calcite's SortHrTests: `SELECT DISTINCT g, COUNT(*) ... ORDER BY COUNT(*) DESC`
    sorts by the select list's COUNT(*), its second column."""
    query = view_query(
        ORDERS + "CREATE VIEW v AS SELECT DISTINCT status, COUNT(*) AS c FROM orders "
        "GROUP BY status ORDER BY COUNT(*) DESC LIMIT 2"
    )
    sort = query if query["op"] == "sort" else query["input"]
    [key] = sort["keys"]
    assert (key["expr"]["index"], key["descending"]) == (1, True)
    unknown = compile_program(
        ORDERS + "CREATE VIEW v AS SELECT DISTINCT status FROM orders ORDER BY SUM(id)"
    )
    assert [d.code for d in unknown.diagnostics] == ["SQL213"]
