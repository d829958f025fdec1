import pytest

from backend.core.errors import ApplicationError
from backend.pipelines.ingress import csv_changes, normalize_changes

ORDERS = {
    "name": "orders",
    "kind": "table",
    "append_only": False,
    "columns": [
        {"name": "id", "type": "BIGINT", "nullable": False},
        {"name": "note", "type": "VARCHAR", "nullable": True},
        {"name": "amount", "type": "DECIMAL(10,2)", "nullable": False},
        {"name": "at", "type": "TIMESTAMP", "nullable": True},
        {"name": "day", "type": "DATE", "nullable": True},
        {"name": "ok", "type": "BOOLEAN", "nullable": True},
        {"name": "ratio", "type": "DOUBLE", "nullable": True},
        {"name": "small", "type": "TINYINT", "nullable": True},
    ],
}
STREAM = {
    "name": "clicks",
    "kind": "stream",
    "columns": [
        {"name": "rowtime", "type": "TIMESTAMP", "nullable": False},
        {"name": "url", "type": "VARCHAR", "nullable": True},
    ],
}


def test_bare_rows_are_inserts_and_missing_nullable_columns_are_null() -> None:
    [(weight, row)] = normalize_changes(ORDERS, [{"id": 7, "amount": 3}])
    assert weight == 1
    assert row == {
        "id": 7, "note": None, "amount": "3.00", "at": None,
        "day": None, "ok": None, "ratio": None, "small": None,
    }  # fmt: skip


def test_insert_and_delete_changes_carry_weights_and_values_are_normalised() -> None:
    changes = [
        {"insert": {"id": 1, "amount": "1.005", "at": "2020-01-01T10:00:00", "ratio": 2}},
        {"delete": {"id": 1, "amount": 2.5, "day": "2020-02-29", "ok": True}},
    ]
    (w1, r1), (w2, r2) = normalize_changes(ORDERS, changes)
    assert (w1, r1["amount"], r1["at"], r1["ratio"]) == (1, "1.01", "2020-01-01 10:00:00", 2.0)
    assert (w2, r2["amount"], r2["day"], r2["ok"]) == (-1, "2.50", "2020-02-29", True)


@pytest.mark.parametrize(
    ("row", "column"),
    [
        ({"id": "1", "amount": 1}, "id"),
        ({"id": True, "amount": 1}, "id"),
        ({"id": 1}, "amount"),
        ({"id": 1, "amount": 123456789012}, "amount"),
        ({"id": 1, "amount": "NaN"}, "amount"),
        ({"id": 1, "amount": 1, "at": "yesterday"}, "at"),
        ({"id": 1, "amount": 1, "day": "2021-02-29"}, "day"),
        ({"id": 1, "amount": 1, "ok": "yes"}, "ok"),
        ({"id": 1, "amount": 1, "small": 128}, "small"),
        ({"id": 1, "amount": 1, "bogus": 1}, "bogus"),
    ],
)
def test_a_bad_value_names_the_change_and_the_column(row: dict, column: str) -> None:
    with pytest.raises(ApplicationError) as raised:
        normalize_changes(ORDERS, [{"id": 1, "amount": 1}, row])
    assert raised.value.details == {"index": 1, "column": column}
    assert f"'{column}'" in raised.value.message


def test_streams_take_no_deletes_and_default_rowtime_to_now() -> None:
    [(_, row)] = normalize_changes(STREAM, [{"url": "/a"}])
    assert row["rowtime"] and row["url"] == "/a"
    with pytest.raises(ApplicationError, match="append-only"):
        normalize_changes(STREAM, [{"delete": {"url": "/a"}}])


def test_payload_must_be_rows() -> None:
    with pytest.raises(ApplicationError, match="JSON array"):
        normalize_changes(ORDERS, "id=1")
    with pytest.raises(ApplicationError, match="Change 0 is not a JSON object"):
        normalize_changes(ORDERS, [1])


def test_csv_rows_are_typed_by_the_columns_and_empty_fields_are_null() -> None:
    text = "id,amount,at,ok,ratio\n7,1.5,2020-01-01 10:00:00,true,\n"
    [(weight, row)] = normalize_changes(ORDERS, csv_changes(ORDERS, text))
    assert weight == 1
    assert (row["id"], row["amount"], row["at"], row["ok"], row["ratio"]) == (
        7, "1.50", "2020-01-01 10:00:00", True, None,
    )  # fmt: skip


def test_a_csv_header_must_name_columns_and_bad_fields_name_their_row() -> None:
    with pytest.raises(ApplicationError, match="no column 'bogus'"):
        csv_changes(ORDERS, "id,bogus\n1,2\n")
    with pytest.raises(ApplicationError) as raised:
        normalize_changes(ORDERS, csv_changes(ORDERS, "id,amount\n1,2\nx,3\n"))
    assert raised.value.details == {"index": 1, "column": "id"}
    with pytest.raises(ApplicationError, match="more fields than columns"):
        csv_changes(ORDERS, "id,amount\n1,2,3\n")


def test_a_keyed_table_deletes_by_key_alone_but_still_needs_the_key() -> None:
    keyed = {**ORDERS, "primary_key": ["id"]}
    [(weight, row)] = normalize_changes(keyed, [{"delete": {"id": 7}}])
    assert weight == -1 and row["id"] == 7 and row["amount"] is None
    with pytest.raises(ApplicationError, match="column 'id' is NOT NULL"):
        normalize_changes(keyed, [{"delete": {"amount": 1}}])
    with pytest.raises(ApplicationError, match="column 'amount' is NOT NULL"):
        normalize_changes(ORDERS, [{"delete": {"id": 7}}])


def test_column_names_match_as_sql_names_do() -> None:
    [(_, row)] = normalize_changes(ORDERS, [{"ID": 7, "Amount": 3, "note": "x"}])
    assert (row["id"], row["amount"], row["note"]) == (7, "3.00", "x")
    with pytest.raises(ApplicationError, match="no column 'Nope'"):
        normalize_changes(ORDERS, [{"id": 7, "amount": 3, "Nope": 1}])


def test_a_rowtime_bound_is_a_change_of_weight_zero() -> None:
    bound = {"bound": "2020-01-01T10:00:00", "strict": True}
    assert normalize_changes(STREAM, [bound, {"bound": "2020-01-01 11:00:00"}]) == [
        (0, {"bound": "2020-01-01 10:00:00", "strict": True}),
        (0, {"bound": "2020-01-01 11:00:00", "strict": False}),
    ]


@pytest.mark.parametrize(
    ("relation", "change", "code"),
    [
        (STREAM, {"bound": "soon"}, "invalid"),
        (STREAM, {"bound": "2020-01-01 10:00:00", "strict": "yes"}, "invalid"),
        (STREAM, {"bound": "2020-01-01 10:00:00", "url": "x"}, "invalid"),
        (ORDERS, {"bound": "2020-01-01 10:00:00"}, "no_time_column"),
    ],
)
def test_a_bad_bound_is_refused_with_its_index(relation: dict, change: dict, code: str) -> None:
    with pytest.raises(ApplicationError) as refused:
        first = {"url": "a"} if relation is STREAM else {"id": 1, "amount": 1}
        normalize_changes(relation, [first, change])
    assert (refused.value.code, refused.value.details["index"]) == (code, 1)


CODES = {
    "name": "codes",
    "kind": "table",
    "columns": [
        {"name": "c", "type": "VARCHAR", "nullable": True, "length": {"kind": "char", "n": 4}},
        {"name": "v", "type": "VARCHAR", "nullable": True, "length": {"kind": "varchar", "n": 2}},
    ],
}


def test_char_n_pads_and_char_or_varchar_n_refuse_what_is_longer_than_spaces() -> None:
    rows = normalize_changes(CODES, [{"c": "ab", "v": "ab  "}, {"c": "abcd  ", "v": None}])
    assert rows == [(1, {"c": "ab  ", "v": "ab"}), (1, {"c": "abcd", "v": None})]
    with pytest.raises(ApplicationError) as raised:
        normalize_changes(CODES, [{"c": "ab"}, {"v": "abc"}])
    assert raised.value.message == "Change 1, column 'v': 'abc' is longer than VARCHAR(2)"
    with pytest.raises(ApplicationError, match="'abcde' is longer than CHAR\\(4\\)"):
        normalize_changes(CODES, [{"c": "abcde"}])


def test_a_column_left_out_takes_its_default_and_a_null_stays_null() -> None:
    table = {
        "name": "t",
        "kind": "table",
        "primary_key": ["id"],
        "columns": [
            {"name": "id", "type": "INTEGER", "nullable": False},
            {"name": "n", "type": "INTEGER", "nullable": True, "default": 5},
            {"name": "d", "type": "DECIMAL(5,2)", "nullable": False, "default": "-1.5"},
        ],
    }
    changes = [{"id": 1}, {"id": 2, "n": None, "d": 3}, {"delete": {"id": 1}}]
    rows = normalize_changes(table, changes)
    assert rows == [
        (1, {"id": 1, "n": 5, "d": "-1.50"}),
        (1, {"id": 2, "n": None, "d": "3.00"}),
        (-1, {"id": 1, "n": None, "d": None}),  # a keyed delete names only the key
    ]


def test_an_array_column_takes_a_list_of_its_element_type_or_nulls() -> None:
    table = {
        "name": "t",
        "kind": "table",
        "columns": [
            {"name": "ns", "type": "INTEGER ARRAY", "nullable": True},
            {"name": "ds", "type": "DECIMAL(4,1) ARRAY ARRAY", "nullable": True},
        ],
    }
    rows = normalize_changes(table, [{"ns": [1, None, 3], "ds": [[2, "2.25"], None, []]}])
    assert rows == [(1, {"ns": [1, None, 3], "ds": [["2.0", "2.3"], None, []]})]
    with pytest.raises(ApplicationError, match="'ns': expected a list for INTEGER ARRAY"):
        normalize_changes(table, [{"ns": 1}])
    with pytest.raises(ApplicationError, match="'ns': expected an integer for INTEGER"):
        normalize_changes(table, [{"ns": [1, "2"]}])
    csv = 'ns,ds\n"[1, null]",\n'  # a CSV field holds a JSON list
    assert normalize_changes(table, csv_changes(table, csv)) == [(1, {"ns": [1, None], "ds": None})]
    with pytest.raises(ApplicationError, match="'ns': expected a list for INTEGER ARRAY"):
        normalize_changes(table, csv_changes(table, "ns\nnot a list\n"))


def test_a_row_column_takes_an_object_of_its_fields() -> None:
    """Feldera's `ROW(i1 INT, v1 VARCHAR NULL)` columns: an object by field names (as
    SQL names match, whatever their case); a field left out is NULL, which a NOT NULL
    field refuses."""
    table = {
        "name": "t",
        "kind": "table",
        "columns": [
            {"name": "r", "type": "ROW(i1 INTEGER NOT NULL, v1 VARCHAR)", "nullable": True}
        ],
    }
    rows = normalize_changes(table, [{"r": {"I1": 4, "v1": "cat"}}, {"r": {"i1": 5}}, {"r": None}])
    with pytest.raises(ApplicationError, match=r"field 'i1' of ROW.* cannot be null"):
        normalize_changes(table, [{"r": {"v1": "no i1"}}])
    assert [row for _, row in rows] == [
        {"r": {"i1": 4, "v1": "cat"}},
        {"r": {"i1": 5, "v1": None}},
        {"r": None},
    ]
    with pytest.raises(ApplicationError, match="'r': expected an object for ROW"):
        normalize_changes(table, [{"r": [4, "cat"]}])
    with pytest.raises(ApplicationError, match="has no field 'x'"):
        normalize_changes(table, [{"r": {"x": 1}}])
    with pytest.raises(ApplicationError, match="'r': expected an integer for INTEGER"):
        normalize_changes(table, [{"r": {"i1": "four"}}])
    csv = 'r\n"{""i1"": 7}"\n'  # a CSV field holds a JSON object
    assert [row for _, row in normalize_changes(table, csv_changes(table, csv))] == [
        {"r": {"i1": 7, "v1": None}}
    ]


def test_a_map_column_takes_an_object_of_keys_and_values() -> None:
    """Feldera's `MAP<K, V>` columns: a JSON object, each key the text of a K (checked,
    and written as stored: "07" is the INTEGER key "7"), each value a V or null; and an
    array of ROWs, a list of objects."""
    table = {
        "name": "t",
        "kind": "table",
        "columns": [
            {"name": "m", "type": "MAP<INTEGER, DECIMAL(5,2)>", "nullable": True},
            {"name": "pts", "type": "ROW(x INTEGER NOT NULL) ARRAY", "nullable": True},
        ],
    }
    rows = normalize_changes(table, [{"m": {"07": 1.5, "-2": None}, "pts": [{"x": 1}]}])
    assert [row for _, row in rows] == [{"m": {"7": "1.50", "-2": None}, "pts": [{"x": 1}]}]
    with pytest.raises(ApplicationError, match="'m': expected an object for MAP<INTEGER"):
        normalize_changes(table, [{"m": [[1, 2]]}])
    with pytest.raises(ApplicationError, match="'m': expected an integer for INTEGER"):
        normalize_changes(table, [{"m": {"one": 1}}])
    with pytest.raises(ApplicationError, match=r"'pts': field 'x' of ROW.* cannot be null"):
        normalize_changes(table, [{"pts": [{}]}])
    csv = 'm\n"{""1"": 2}"\n'  # a CSV field holds a JSON object
    assert [row for _, row in normalize_changes(table, csv_changes(table, csv))] == [
        {"m": {"1": "2.00"}, "pts": None}
    ]
    with pytest.raises(ApplicationError, match="'m': expected an integer for INTEGER"):
        normalize_changes(table, [{"m": {"": 1}}])
    # An empty VARCHAR key is the empty string (an empty CSV field is NULL, a key is not).
    texts = {**table, "columns": [{"name": "m", "type": "MAP<VARCHAR, INTEGER>", "nullable": True}]}
    assert [row for _, row in normalize_changes(texts, [{"m": {"": 1, "a": 2}}])] == [
        {"m": {"": 1, "a": 2}}
    ]


def test_a_uuid_column_takes_any_spelling_of_one_and_keeps_its_canonical_text() -> None:
    table = {
        "name": "t",
        "kind": "table",
        "columns": [{"name": "id", "type": "UUID", "nullable": True}],
    }
    rows = normalize_changes(table, [{"id": "{123E4567E89B12D3A456426655440000}"}, {"id": None}])
    assert [row for _, row in rows] == [
        {"id": "123e4567-e89b-12d3-a456-426655440000"},
        {"id": None},
    ]
    with pytest.raises(ApplicationError, match="'id': Invalid UUID 'urn:uuid:1'"):
        normalize_changes(table, [{"id": "urn:uuid:1"}])
    with pytest.raises(ApplicationError, match="'id': expected a string for UUID"):
        normalize_changes(table, [{"id": 12}])


def test_a_varbinary_column_takes_the_list_of_its_bytes_in_json_and_in_csv() -> None:
    table = {
        "name": "t",
        "kind": "table",
        "columns": [{"name": "b", "type": "VARBINARY", "nullable": True}],
    }
    rows = normalize_changes(table, [{"b": [0, 171, 255]}, {"b": []}, {"b": None}])
    assert [row for _, row in rows] == [{"b": [0, 171, 255]}, {"b": []}, {"b": None}]
    assert csv_changes(table, 'b\n"[1,2]"\n') == [{"b": [1, 2]}]
    for bad in ([256], [-1], [True], ["ab"], "abcd", 12):
        with pytest.raises(ApplicationError, match="'b': expected a list of byte values"):
            normalize_changes(table, [{"b": bad}])
    # BINARY(n): padded with zero bytes to n; VARBINARY(n) as it is; more than n refused
    sized = {
        **table,
        "columns": [
            {
                "name": "f",
                "type": "VARBINARY",
                "nullable": True,
                "length": {"kind": "binary", "n": 3},
            },
            {
                "name": "v",
                "type": "VARBINARY",
                "nullable": True,
                "length": {"kind": "varbinary", "n": 2},
            },
        ],
    }
    [(_, row)] = normalize_changes(sized, [{"f": [7], "v": [1]}])
    assert row == {"f": [7, 0, 0], "v": [1]}
    with pytest.raises(ApplicationError, match="'v': 3 bytes are more than VARBINARY\\(2\\)"):
        normalize_changes(sized, [{"f": [], "v": [1, 2, 3]}])
