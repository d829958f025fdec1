"""ROW types cross from the compiler to the runner as canonical strings: the runner
reads back every field's name and type, whatever the names are."""

from backend.compiler.semantic import types
from worker.runner.rows import is_row, row_fields


def test_the_runner_reads_the_compilers_row_type_names() -> None:
    inner = types.row((types.RowField("x", types.INTEGER, True),))
    fields = (
        types.RowField("id", types.BIGINT, False),
        types.RowField('odd, "quoted" name', types.decimal(10, 2), True),
        types.RowField("NotLower", types.TIMESTAMP, False),
        types.RowField("nested", inner, True),
    )
    name = types.row(fields).name
    assert name == (
        'ROW(id BIGINT NOT NULL, "odd, ""quoted"" name" DECIMAL(10,2), '
        '"NotLower" TIMESTAMP NOT NULL, nested ROW(x INTEGER))'
    )
    assert is_row(name)
    assert row_fields(name) == [
        ("id", "BIGINT"),
        ('odd, "quoted" name', "DECIMAL(10,2)"),
        ("NotLower", "TIMESTAMP"),
        ("nested", "ROW(x INTEGER)"),
    ]
