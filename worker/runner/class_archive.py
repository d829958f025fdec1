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
and jars, and runs without it, silently, when it does not.
"""

import sys
from pathlib import Path

ARCHIVE = Path(sys.prefix) / "weir-spark-classes.jsa"
# The JVM reports, on stderr, every class it could not archive and any archive it
# cannot map: neither is an error.
QUIET = ["-Xlog:cds=off", "-Xlog:cds+dynamic=off"]


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
    partial.rename(ARCHIVE)
    print(f"weir: archived the Spark driver's classes in {ARCHIVE}")


if __name__ == "__main__":
    build()
