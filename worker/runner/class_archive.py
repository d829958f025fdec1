"""A class data sharing archive (the JDK's AppCDS) of the classes a Spark driver loads.

A new driver JVM reads, verifies and links some thousands of Spark's classes from
its jars before its session is ready, and more on its first step. A driver that
maps this archive finds them parsed and verified already. Measured here, `weir
replay` of a 5-view program over 10 steps: 27-30 s with the archive, 32-37 s
without (its session start 3.2-4.0 s against 4.9-6.1 s, its first step 4.5-6.2 s
against 7.4-8.0 s).

`python -m worker.runner.class_archive` builds it (scripts/install.sh does, into
the virtualenv, as it names the jars the classes come from): a driver runs the
spare's warm-up step (a streaming query over a Python source, a step of the
engine) and writes the classes it loaded when its JVM exits. Every driver after
that maps it (session.py). The JVM checks that the archive fits its own version
and jars, and runs without it, silently, when it does not. A damaged archive is
another matter: the JVM crashes as it maps it. So a new archive is put in place
only after a driver that must map it (`-Xshare:on`) started and ran a job with it.
"""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ARCHIVE = Path(sys.prefix) / "weir-spark-classes.jsa"
# The JVM reports, on stderr, every class it could not archive and any archive it
# cannot map: neither is an error.
QUIET = ["-Xlog:cds=off", "-Xlog:cds+dynamic=off"]
ROOT = Path(__file__).resolve().parents[2]
# A driver that maps the archive given on its command line, or does not start: with
# -Xshare:on, a JVM that cannot map it (another JDK, other jars) refuses to start.
DRIVER = """
import sys
from worker.runner.session import build_session
options = [f"-XX:SharedArchiveFile={sys.argv[1]}", "-Xshare:on"]
spark = build_session("weir-class-archive-check", "local[1]", java_options=options)
print(spark.range(3).count(), spark.sparkContext._jvm.System.getProperty("java.vm.info"))
"""


class ArchiveRefused(Exception):
    """A driver could not start, or crashed, with the archive it had to map."""


def checked(archive: Path) -> str:
    """Start a driver that must map `archive` and run a job; its JVM's description
    (which says "sharing"). ArchiveRefused, with the driver's last words, when the JVM
    refuses the archive or crashes on it (a crash report goes to a temporary folder)."""
    with tempfile.TemporaryDirectory(prefix="weir-archive-check-") as scratch:
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        }
        done = subprocess.run(
            [sys.executable, "-c", DRIVER, str(archive)],
            capture_output=True,
            text=True,
            timeout=300,
            cwd=scratch,
            env=env,
        )
    if done.returncode != 0 or "sharing" not in done.stdout:
        raise ArchiveRefused(
            f"a driver could not map {archive} (exit {done.returncode}): {done.stderr[-2000:]}"
        )
    return done.stdout.strip()


def java_options() -> list[str]:
    """The driver JVM's options that map the archive, when there is one."""
    if not ARCHIVE.exists():
        return []
    return [f"-XX:SharedArchiveFile={ARCHIVE}", *QUIET]


def build() -> None:
    """Run the warm-up step on a new driver and archive the classes it loaded."""
    from pyspark import SparkContext

    from worker.runner.session import build_session
    from worker.runner.warmup import warm_up

    ARCHIVE.unlink(missing_ok=True)  # a driver that maps an archive cannot write one
    partial = ARCHIVE.with_suffix(".partial")
    partial.unlink(missing_ok=True)
    dump = [f"-XX:ArchiveClassesAtExit={partial}", *QUIET]
    spark = build_session("weir-class-archive", "local[2]", java_options=dump)
    warm_up(spark)
    gateway = SparkContext._gateway
    spark.stop()
    # The JVM writes the archive as it exits, which it does when its stdin closes.
    gateway.proc.stdin.close()
    gateway.proc.wait()
    try:
        checked(partial)
    except ArchiveRefused:
        partial.unlink(missing_ok=True)
        raise
    partial.rename(ARCHIVE)
    print(f"weir: archived the Spark driver's classes in {ARCHIVE}")


if __name__ == "__main__":
    build()
