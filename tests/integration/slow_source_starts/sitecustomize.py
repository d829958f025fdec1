"""A test hook (tests/integration/test_faults.py), which Python runs at start-up with
this directory on its path. While the file WEIR_SLOW_SOURCE_STARTS names holds
"<pipeline id> <n>", the next n Python processes that Spark starts to answer that
pipeline's stream source offsets sleep past the 10 s Spark gives them to connect back,
as on a machine under heavy load. Every other process goes on at once."""

import os
import time
from pathlib import Path

SPARK_CONNECT_BACK_S = 10


def _command_line(pid: int | str) -> list[str]:
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode().split()


def _slow_start() -> None:
    control = Path(os.environ.get("WEIR_SLOW_SOURCE_STARTS") or "/nonexistent")
    if not control.is_file() or not any(
        word.endswith("python_streaming_source_runner") for word in _command_line("self")
    ):
        return
    pipeline_id, left = control.read_text().split()
    # This process's parent is the runner's JVM, whose parent is the runner.
    jvm_parent = Path(f"/proc/{os.getppid()}/stat").read_text().rsplit(")", 1)[1].split()[1]
    runner = _command_line(jvm_parent)
    ours = any(runner[i : i + 2] == ["--pipeline-id", pipeline_id] for i in range(len(runner)))
    if ours and int(left) > 0:
        control.write_text(f"{pipeline_id} {int(left) - 1}")
        time.sleep(SPARK_CONNECT_BACK_S + 2)


_slow_start()
