"""Golden tests: `cases/*.sql` compiled, compared with `cases/*.json`.

The JSON files are the definition of what the compiler answers (the full
`compile_program(...).to_json()`). After a deliberate change, regenerate them and
review the diff by eye:

    WEIR_REGENERATE_GOLDEN=1 .venv/bin/python -m pytest tests/unit/compiler -p no:django
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from backend.compiler import compile_program

CASES = Path(__file__).parent / "cases"
REGENERATE = os.environ.get("WEIR_REGENERATE_GOLDEN") == "1"


def _render(sql_path: Path) -> str:
    text = sql_path.read_text(encoding="utf-8")
    return json.dumps(compile_program(text).to_json(), indent=2, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("sql_path", sorted(CASES.glob("*.sql")), ids=lambda path: path.stem)
def test_compiler_output_matches_golden_file(sql_path: Path) -> None:
    golden = sql_path.with_suffix(".json")
    actual = _render(sql_path)
    if REGENERATE:
        golden.write_text(actual, encoding="utf-8")
    assert golden.exists(), f"no golden file: run with WEIR_REGENERATE_GOLDEN=1 to create {golden}"
    assert actual == golden.read_text(encoding="utf-8")


def test_every_golden_file_has_a_case() -> None:
    orphans = [p.name for p in CASES.glob("*.json") if not p.with_suffix(".sql").exists()]
    assert orphans == []
