"""`make bench`: run every benchmark and write its table into docs/benchmarks.md.

Each benchmark is a command that prints Markdown. Its output replaces the text
between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->` in docs/benchmarks.md,
under a line naming the command and the date, so every figure there says what
produced it. Text outside the markers (the analysis) is kept.

    .venv/bin/python -m bench [NAME ...]
"""

from __future__ import annotations

import datetime as dt
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).parents[1]
DOC = REPO / "docs" / "benchmarks.md"
BENCHMARKS = {
    "compile_speed": ["-m", "bench.compile_speed"],
    "throughput": ["-m", "bench.throughput"],
    "steps": ["-m", "bench.steps"],
    "plan_reuse": ["-m", "bench.plan_reuse"],
    "live": ["-m", "bench.live"],
}


def with_section(doc: str, name: str, body: str) -> str:
    """`doc` with the section `name` replaced by `body` (appended if it has none).

    >>> with_section("a\\n<!-- bench:x -->\\nold\\n<!-- /bench:x -->\\nb", "x", "new")
    'a\\n<!-- bench:x -->\\nnew\\n<!-- /bench:x -->\\nb'
    """
    start, end = f"<!-- bench:{name} -->", f"<!-- /bench:{name} -->"
    block = f"{start}\n{body.strip()}\n{end}"
    pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.DOTALL)
    if pattern.search(doc):
        return pattern.sub(lambda _: block, doc)
    return f"{doc.rstrip()}\n\n{block}\n"


def run(name: str) -> str:
    args = BENCHMARKS[name]
    # The benchmark's log (stderr) goes to the terminal; its Markdown (stdout) is kept.
    done = subprocess.run(
        [sys.executable, *args], cwd=REPO, check=True, stdout=subprocess.PIPE, text=True
    )
    command = " ".join([".venv/bin/python", *args])
    return f"`{command}` ({dt.date.today().isoformat()}):\n\n{done.stdout}"


def main() -> None:
    names = sys.argv[1:] or list(BENCHMARKS)
    for name in names:
        print(f"bench: {name} ...", flush=True)
        DOC.write_text(with_section(DOC.read_text(), name, run(name)))
    print(f"bench: wrote {DOC.relative_to(REPO)}")


if __name__ == "__main__":
    main()
