"""Compile speed: cold compiles of programs of 100, 1,000 and 5,000 lines.

    .venv/bin/python -m bench.compile_speed

Prints a Markdown table (best of several runs, milliseconds) for docs/benchmarks.md.
"""

import statistics
import time
from collections.abc import Callable

from backend.compiler import compile_program

TABLE_AND_VIEW = """-- feed {i}
CREATE TABLE orders_{i} (
    id BIGINT NOT NULL PRIMARY KEY,
    customer_id BIGINT NOT NULL,
    amount DECIMAL(10, 2),
    status VARCHAR(20),
    created_at TIMESTAMP NOT NULL LATENESS INTERVAL '1' HOUR
) WITH ('append_only' = 'true');

CREATE VIEW big_orders_{i} AS
SELECT
    id,
    customer_id,
    amount * 1.2 AS amount_with_tax,
    UPPER(status) AS status
FROM orders_{i}
WHERE amount > 100
  AND status IN ('paid', 'shipped')
  AND created_at >= TIMESTAMP '2024-01-01 00:00:00';

"""
LINES_PER_BLOCK = TABLE_AND_VIEW.count("\n")


def program_of_lines(lines: int) -> str:
    """A realistic program of `lines` lines: blocks of one table and one view."""
    return "".join(TABLE_AND_VIEW.format(i=i) for i in range(lines // LINES_PER_BLOCK))


def timed_ms(action: Callable[[], object], runs: int) -> list[float]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def main() -> None:
    compile_program(program_of_lines(100))  # imports and caches warm
    print("| program | statements | best ms | median ms |")
    print("|---|---|---|---|")
    for lines in (100, 1000, 5000):
        text = program_of_lines(lines)
        samples = timed_ms(lambda text=text: compile_program(text).to_json(), runs=7)
        statements = text.count(";")
        print(
            f"| {lines:,} lines | {statements} | {min(samples):.1f} | "
            f"{statistics.median(samples):.1f} |"
        )


if __name__ == "__main__":
    main()
