"""The `weir` command: `weir check FILE.sql [--format json|text]`."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from backend.cli import EXIT_OK, EXIT_PROGRAM_ERRORS, EXIT_USAGE, main

GOOD = "CREATE TABLE orders (id BIGINT NOT NULL, amount DOUBLE);\n"
BAD = GOOD + "CREATE VIEW v AS\n  SELECT amout FROM orders;\n"
WEIR = Path(sys.executable).with_name("weir")


def write(tmp_path: Path, text: str, name: str = "program.sql") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_check_json_prints_diagnostics_and_catalog_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["check", str(write(tmp_path, BAD)), "--format", "json"])
    payload = json.loads(capsys.readouterr().out)
    assert status == EXIT_PROGRAM_ERRORS
    assert list(payload) == ["diagnostics", "catalog"]
    assert [d["code"] for d in payload["diagnostics"]] == ["SQL202"]
    assert [r["name"] for r in payload["catalog"]["relations"]] == ["orders"]


def test_check_text_shows_location_snippet_caret_and_hint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, BAD)
    status = main(["check", str(path)])
    assert status == EXIT_PROGRAM_ERRORS
    assert capsys.readouterr().out == (
        f"{path}:3:10: error[SQL202]: Unknown column 'amout' in table 'orders'\n"
        "    3 |   SELECT amout FROM orders;\n"
        "      |          ^^^^^\n"
        "      = hint: did you mean 'amount'?\n"
        "1 error, 0 warnings\n"
    )


def test_check_text_shows_notes_with_their_own_location(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "CREATE TABLE t (a INT);\nCREATE TABLE t (b INT);\n")
    main(["check", str(path)])
    lines = capsys.readouterr().out.splitlines()
    assert f"{path}:1:14: note: 't' is first declared here" in lines


def test_carets_line_up_under_tab_indented_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["check", str(write(tmp_path, "CREATE TABLE t (\n\ta VARCHR\n);"))])
    lines = capsys.readouterr().out.splitlines()
    assert lines[1:3] == ["    2 | \ta VARCHR", "      | \t  ^^^^^^"]


def test_clean_program_exits_zero_and_prints_nothing_in_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(write(tmp_path, GOOD))]) == EXIT_OK
    assert capsys.readouterr().out == ""


def test_warnings_alone_exit_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "CREATE TABLE t (a INT) WITH ('colour' = 'red');")
    assert main(["check", str(path)]) == EXIT_OK
    assert "warning[SQL212]" in capsys.readouterr().out


def test_reads_standard_input_when_the_file_is_a_dash(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("CREATE TABLE t (a INTT);"))
    assert main(["check", "-"]) == EXIT_PROGRAM_ERRORS
    assert capsys.readouterr().out.startswith("<stdin>:1:19: error[SQL208]")


def test_unreadable_file_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(tmp_path / "missing.sql")]) == EXIT_USAGE
    assert "cannot read" in capsys.readouterr().err
    binary = tmp_path / "binary.sql"
    binary.write_bytes(b"\xff\xfe\x00")
    assert main(["check", str(binary)]) == EXIT_USAGE
    assert "not UTF-8" in capsys.readouterr().err
    assert main(["check", str(tmp_path)]) == EXIT_USAGE  # a directory


@pytest.mark.parametrize(
    "argv",
    [[], ["check"], ["frobnicate"], ["check", "x.sql", "--format", "xml"]],
)
def test_usage_errors_exit_two(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == EXIT_USAGE
    assert "usage: weir" in capsys.readouterr().err


def test_help_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--help"]) == EXIT_OK
    assert "--format" in capsys.readouterr().out


def test_crlf_files_report_the_same_positions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "crlf.sql"
    path.write_bytes(BAD.replace("\n", "\r\n").encode())
    main(["check", str(path), "--format", "json"])
    (diagnostic,) = json.loads(capsys.readouterr().out)["diagnostics"]
    assert (diagnostic["start_line_number"], diagnostic["start_column"]) == (3, 10)
    assert diagnostic["snippet"] == "  SELECT amout FROM orders;"


@pytest.mark.skipif(not WEIR.exists(), reason="the weir script is not installed in this venv")
def test_installed_weir_script_checks_a_file(tmp_path: Path) -> None:
    path = write(tmp_path, BAD)
    completed = subprocess.run(
        [str(WEIR), "check", str(path), "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert completed.returncode == EXIT_PROGRAM_ERRORS, completed.stderr
    assert json.loads(completed.stdout)["diagnostics"][0]["code"] == "SQL202"


def test_replay_takes_one_query_per_query_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A `;` inside a --query would make the rest a query of the program: refused
    before Spark starts."""
    steps = write(tmp_path, "{}\n", "steps.jsonl")
    program = str(write(tmp_path, GOOD + "SELECT id FROM orders;\n"))
    query = "SELECT id FROM orders; SELECT amount FROM orders"
    assert main(["replay", program, "--steps", str(steps), "--query", query]) == EXIT_USAGE
    assert "one query" in capsys.readouterr().err
