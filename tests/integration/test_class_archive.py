"""The archive of a Spark driver's classes that the install builds (class_archive.py)."""

import subprocess
import sys

from worker.runner.class_archive import ARCHIVE, java_options

# A driver that must map the archive: with -Xshare:on, a JVM that cannot (another JDK,
# other jars, a damaged file) does not start at all.
DRIVER = """
from worker.runner.session import build_session
spark = build_session("weir-archive-test", "local[1]", java_options=["-Xshare:on"])
print(spark.range(3).count(), spark.sparkContext._jvm.System.getProperty("java.vm.info"))
"""


def test_a_driver_maps_the_archive_the_install_built() -> None:
    assert ARCHIVE.is_file(), "scripts/install.sh builds it (.state/class-archive.log)"
    assert f"-XX:SharedArchiveFile={ARCHIVE}" in java_options()
    done = subprocess.run(
        [sys.executable, "-c", DRIVER], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    count, vm_info = done.stdout.split(maxsplit=1)
    assert count == "3"
    assert "sharing" in vm_info
