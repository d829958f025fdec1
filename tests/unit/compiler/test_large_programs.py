"""Large and error-ridden programs compile completely (their speed is measured in bench/)."""

from __future__ import annotations

from backend.compiler import compile_program
from bench.compile_speed import program_of_lines


def test_a_thousand_line_program_compiles_with_no_diagnostics() -> None:
    text = program_of_lines(1000)
    assert text.count("\n") == 1000
    result = compile_program(text)
    assert result.diagnostics == ()
    assert text.count(";") == 200
    assert len(result.to_json()["plan"]["views"]) == 150


def test_errors_everywhere_are_each_reported() -> None:
    text = program_of_lines(1000).replace("amount >", "amout >").replace("DECIMAL", "DECIMEL")
    result = compile_program(text)
    assert len(result.diagnostics) == 100  # an unknown type and an unknown column each


def test_many_unknown_names_among_many_candidates_all_get_a_diagnostic() -> None:
    # Hints cost (unknown names x candidates) edit distances; a budget bounds it.
    text = "".join(f"CREATE TABLE orders_{i} (id INT, amount INT);\n" for i in range(500))
    text += "".join(f"CREATE VIEW v_{i} AS SELECT id FROM ordrs_{i};\n" for i in range(500))
    result = compile_program(text)
    assert len(result.diagnostics) == 500
    assert result.diagnostics[0].hint == "did you mean 'orders_0'?"
