"""A step's changes of a view with ORDER BY come out in its order, each column's values
ordered as SQL orders its type (worker/runner/step.py), not as their JSON text."""

from __future__ import annotations

from typing import Any

from worker.runner.step import in_view_order


def _view(sql_type: str, descending: bool = False) -> dict[str, Any]:
    key = {"expr": {"kind": "column", "index": 0}, "descending": descending, "nulls_first": True}
    return {
        "columns": [{"name": "x", "type": sql_type}],
        "query": {"op": "sort", "keys": [key]},
    }


def _ordered(sql_type: str, values: list[Any], descending: bool = False) -> list[Any]:
    changes = [{"insert": {"x": value}} for value in values]
    return [c["insert"]["x"] for c in in_view_order(_view(sql_type, descending), changes)]


def test_decimals_order_as_numbers_not_as_text() -> None:
    assert _ordered("DECIMAL(6,2)", ["10.00", "9.00", None, "-1.50"]) == [
        None,
        "-1.50",
        "9.00",
        "10.00",
    ]


def test_maps_order_by_their_sorted_keys_then_values() -> None:
    """Feldera's map.md: MAP['v', 11, 'q', 66] < MAP['v', 22] (its first key, 'q', is
    less), and MAP['f', 1] < MAP['f', 1, 'v', 0] (a longer map with the same start)."""
    maps = [{"v": 22}, {"v": 11, "q": 66}, {"f": 1, "v": 0}, {"f": 1}]
    assert _ordered("MAP<VARCHAR, INTEGER>", maps) == [
        {"f": 1},
        {"f": 1, "v": 0},
        {"v": 11, "q": 66},
        {"v": 22},
    ]
    # Number keys order as numbers, though JSON writes them as text; NULL values first.
    assert _ordered("MAP<INTEGER, INTEGER>", [{"10": 1}, {"9": 1}, {"9": None}], True) == [
        {"10": 1},
        {"9": 1},
        {"9": None},
    ]


def test_rows_and_arrays_order_field_by_field_with_nulls_first() -> None:
    rows = [{"a": 2, "b": None}, {"a": 1, "b": "z"}, {"a": 2, "b": "a"}]
    assert _ordered("ROW(a INTEGER, b VARCHAR)", rows) == [
        {"a": 1, "b": "z"},
        {"a": 2, "b": None},
        {"a": 2, "b": "a"},
    ]
    assert _ordered("DECIMAL(4,1) ARRAY", [["10.0"], ["9.5", None], ["9.5"]]) == [
        ["9.5"],
        ["9.5", None],
        ["10.0"],
    ]
