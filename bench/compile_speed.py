"""Compile speed: programs of 100, 1,000 and 5,000 lines, cold and after an edit.

    .venv/bin/python -m bench.compile_speed

Prints a Markdown table for docs/benchmarks.md: milliseconds, best and median
of several runs, each including `to_json()` (what the validate API sends).

- cold: `compile_program(text)`, no cache.
- re-compile: `compile_program(text, cache)` right after the same cache
  compiled the program as it was one keystroke before: a digit typed into the
  WHERE clause of the statement in the middle, so every statement after it
  moves by one character. Each run types one more digit.
"""

import statistics
import time
from collections.abc import Callable

from backend.compiler import compile_program
from backend.compiler.cache import CompileCache

# Four statements in 20 lines: the contract's density (1,000 lines, 200 statements).
BLOCK = """-- feed {i}
CREATE TABLE orders_{i} (
    id BIGINT NOT NULL PRIMARY KEY,
    amount DECIMAL(10, 2),
    status VARCHAR(20),
    created_at TIMESTAMP NOT NULL LATENESS INTERVAL '1' HOUR
) WITH ('append_only' = 'true');

CREATE VIEW paid_{i} AS
SELECT id, amount * 1.2 AS amount_with_tax, created_at
FROM orders_{i} WHERE status IN ('paid', 'shipped');

CREATE VIEW hourly_{i} AS
SELECT FLOOR(created_at TO HOUR) AS hour, COUNT(*) AS orders
FROM paid_{i} GROUP BY FLOOR(created_at TO HOUR);

CREATE VIEW big_{i} AS
SELECT id, UPPER(status) AS status, created_at FROM orders_{i}
WHERE amount > {limit} AND created_at >= TIMESTAMP '2024-01-01 00:00:00';

"""
LINES_PER_BLOCK = BLOCK.count("\n")
COLD_RUNS = 7
EDIT_RUNS = 15


def program_of_lines(lines: int, edited: int | None = None, limit: str = "100") -> str:
    """A realistic program of `lines` lines: blocks of a table and three views.

    `edited`: the block whose last view filters on `amount > limit` instead.
    """
    return "".join(
        BLOCK.format(i=i, limit=limit if i == edited else "100")
        for i in range(lines // LINES_PER_BLOCK)
    )


def timed_ms(action: Callable[[], object], runs: int) -> list[float]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def recompile_ms(lines: int, runs: int) -> list[float]:
    """Each run: the middle statement one digit longer, compiled with a warm cache."""
    middle = lines // LINES_PER_BLOCK // 2
    cache = CompileCache()
    compile_program(program_of_lines(lines, middle), cache)
    samples = []
    for run in range(1, runs + 1):
        text = program_of_lines(lines, middle, limit="100" + "0" * run)
        start = time.perf_counter()
        compile_program(text, cache).to_json()
        samples.append((time.perf_counter() - start) * 1000)
        last = cache.last
        # Only the edited statement is parsed and bound again.
        assert (last.parse_misses, last.bind_misses) == (1, 1), last
    return samples


def main() -> None:
    compile_program(program_of_lines(100))  # imports and caches warm
    print(
        "| program | statements | cold best ms | cold median ms "
        "| re-compile best ms | re-compile median ms |"
    )
    print("|---|---|---|---|---|---|")
    for lines in (100, 1000, 5000):
        text = program_of_lines(lines)
        cold = timed_ms(lambda text=text: compile_program(text).to_json(), runs=COLD_RUNS)
        warm = recompile_ms(lines, runs=EDIT_RUNS)
        print(
            f"| {lines:,} lines | {text.count(';')} | {min(cold):.1f} | "
            f"{statistics.median(cold):.1f} | {min(warm):.1f} | {statistics.median(warm):.1f} |"
        )
    print(
        f"\nCold: {COLD_RUNS} runs. Re-compile: {EDIT_RUNS} runs, each one keystroke "
        "(a digit typed in the middle statement) after the previous compile with the same cache."
    )


if __name__ == "__main__":
    main()
