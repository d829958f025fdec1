"""The `weir` command.

    weir check FILE.sql [--format text|json]
    weir replay FILE.sql --steps STEPS.jsonl [--query SQL ...] [--format json]
    weir deploy | status | push | tail | query | stats ...   (the API; see backend/remote.py)

Each subcommand is one `_add_<name>` function that declares its arguments and
sets `handler`; adding `replay` or `deploy` later means adding one more. Exit
status: 0 success (warnings allowed), 1 the program has errors, 2 usage errors
or an unreadable file.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from backend.compiler import CompileResult, Diagnostic, compile_program
from backend.compiler.source import Source, Span
from backend.remote import add_remote_commands

EXIT_OK = 0
EXIT_PROGRAM_ERRORS = 1
EXIT_USAGE = 2

Handler = Callable[[argparse.Namespace], int]


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # argparse has printed the usage message
        return exit_.code if isinstance(exit_.code, int) else EXIT_USAGE
    handler: Handler = args.handler
    return handler(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="weir", description="Weir: streaming SQL pipelines on Apache Spark."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_check(commands)
    _add_replay(commands)
    add_remote_commands(commands)  # deploy, status, push, tail, query, stats: backend/remote.py
    return parser


# ---------------------------------------------------------------- weir check


def _add_check(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    check = commands.add_parser(
        "check",
        help="compile a program and report its diagnostics",
        description="Compile a program and report its diagnostics. "
        "Exits with 1 when the program has errors.",
    )
    check.add_argument("file", help="the program, or - to read standard input")
    check.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text (default) for people; json prints {diagnostics, catalog} as /validate does",
    )
    check.set_defaults(handler=_check)


def _check(args: argparse.Namespace) -> int:
    name: str = args.file
    text = _read_program(name)
    if text is None:
        return EXIT_USAGE
    result = compile_program(text)
    if args.format == "json":
        payload = {"diagnostics": result.diagnostics_json(), "catalog": result.to_json()["catalog"]}
        _write(sys.stdout, json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
    else:
        _write(sys.stdout, format_text(result, "<stdin>" if name == "-" else name))
    return EXIT_PROGRAM_ERRORS if result.has_errors else EXIT_OK


def _read_program(name: str) -> str | None:
    try:
        if name == "-":
            return sys.stdin.read()
        # newline="" keeps "\r\n" as written, so offsets match the editor's text.
        with open(name, encoding="utf-8", newline="") as file:
            return file.read()
    except UnicodeDecodeError:
        _write(sys.stderr, f"weir: error: {name} is not UTF-8 text\n")
    except OSError as exc:
        _write(sys.stderr, f"weir: error: cannot read {name}: {exc.strerror or exc}\n")
    return None


# ---------------------------------------------------------------- weir replay


def _add_replay(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    replay = commands.add_parser(
        "replay",
        help="run a program over steps of input on a local Spark and print every view's changes",
        description="Compile a program, then run one step per line of STEPS "
        '({"table": [{"insert": row} | {"delete": row} | {"bound": ts, "strict": false}]}) '
        "on a local Spark and print each step's view changes and dropped rows as JSON lines.",
    )
    replay.add_argument("file", help="the program")
    replay.add_argument("--steps", required=True, help="JSON lines, one step each; - for stdin")
    replay.add_argument(
        "--query",
        action="append",
        default=[],
        help="SELECT STREAM ... (changes from the first step) or SELECT ... (content after "
        "the last step); repeatable, reported as query_1, query_2, ... (numbered after "
        "the queries the program itself has, which are views query_1, ... of the program)",
    )
    replay.add_argument("--format", choices=("json",), default="json")
    replay.add_argument("--master", default="local[2]", help="Spark master (default local[2])")
    replay.set_defaults(handler=_replay)


def _replay(args: argparse.Namespace) -> int:
    from worker.replay import (
        ReplayInputError,
        ReplayStepError,
        compile_with_queries,
        queries_of,
        replay,
    )
    from worker.runner.session import build_session
    from worker.runner.support import unsupported

    text = _read_program(args.file)
    if text is None:
        return EXIT_USAGE
    queries = queries_of(args.query, text)
    result = compile_with_queries(text, queries)
    if result.has_errors:
        _write(sys.stderr, format_text(result, args.file))
        return EXIT_PROGRAM_ERRORS
    plan = result.to_json()["plan"]
    views = [view["name"] for view in plan["views"]]
    if queries and views[-len(queries) :] != [query.name for query in queries]:
        # `--query "SELECT 1; SELECT 2"`: the second is a query of the program.
        _write(sys.stderr, "weir: error: a --query is one query, without ';' inside\n")
        return EXIT_USAGE
    problems = unsupported(plan)
    if problems:
        for problem in problems:
            _write(sys.stderr, f"{args.file}: not runnable yet: {problem}\n")
        return EXIT_PROGRAM_ERRORS
    try:
        lines = sys.stdin.readlines() if args.steps == "-" else _read_lines(args.steps)
    except OSError as exc:
        _write(sys.stderr, f"weir: error: cannot read {args.steps}: {exc.strerror or exc}\n")
        return EXIT_USAGE
    spark = build_session("weir-replay", args.master, short_lived=True)
    # A step that fails is reported below, in one line; Spark would log it first with
    # its stack (and each task's).
    spark.sparkContext.setLogLevel("FATAL")
    try:
        for record in replay(spark, plan, lines, queries):
            _write(sys.stdout, json.dumps(record, ensure_ascii=False) + "\n")
    except ReplayInputError as err:
        _write(sys.stderr, f"weir: error: {err}\n")
        return EXIT_USAGE
    except ReplayStepError as err:
        _write(sys.stderr, f"weir: error: {err}\n")
        return EXIT_PROGRAM_ERRORS
    finally:
        spark.stop()
    return EXIT_OK


def _read_lines(name: str) -> list[str]:
    with open(name, encoding="utf-8") as file:
        return file.readlines()


# ---------------------------------------------------------------- text output


def format_text(result: CompileResult, filename: str) -> str:
    """Diagnostics as `file:line:col: severity[code]: message` with the source underlined."""
    lines: list[str] = []
    for diagnostic in result.diagnostics:
        lines.extend(_format_diagnostic(diagnostic, result.source, filename))
    errors = sum(diagnostic.is_error for diagnostic in result.diagnostics)
    warnings = len(result.diagnostics) - errors
    if result.diagnostics:
        lines.append(f"{_count(errors, 'error')}, {_count(warnings, 'warning')}")
    return "".join(line + "\n" for line in lines)


def _format_diagnostic(diagnostic: Diagnostic, source: Source, filename: str) -> list[str]:
    start = source.position(diagnostic.span.start)
    header = (
        f"{filename}:{start.line}:{start.column}: "
        f"{diagnostic.severity.value}[{diagnostic.code.value}]: {diagnostic.message}"
    )
    lines = [header, *_underline(source, diagnostic.span)]
    if diagnostic.hint:
        lines.append(f"{'':>5} = hint: {diagnostic.hint}")
    for note in diagnostic.notes:
        at = source.position(note.span.start)
        lines.append(f"{filename}:{at.line}:{at.column}: note: {note.message}")
        lines.extend(_underline(source, note.span))
    return lines


def _underline(source: Source, span: Span) -> list[str]:
    """The first line of `span` and a caret line under the part the span covers."""
    line = source.lines_of(span)[0]
    text = source.line_text(line)
    line_start = source.line_start_offset(line)
    begin = span.start - line_start
    end = min(span.end - line_start, len(text))
    # Keep tabs in the padding so the carets line up under tab-indented code.
    padding = "".join("\t" if char == "\t" else " " for char in text[:begin])
    carets = "^" * max(end - begin, 1)
    return [f"{line:>5} | {text}", f"{'':>5} | {padding}{carets}"]


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' * (n != 1)}"


def _write(stream: TextIO, text: str) -> None:
    try:
        stream.write(text)
    except UnicodeEncodeError:  # a terminal that cannot show some character
        encoding = stream.encoding or "ascii"
        stream.write(text.encode(encoding, "backslashreplace").decode(encoding))


if __name__ == "__main__":
    sys.exit(main())
