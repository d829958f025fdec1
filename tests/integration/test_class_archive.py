"""The archive of a Spark driver's classes that the install builds (class_archive.py)."""

from pathlib import Path

import pytest

from worker.runner.class_archive import ARCHIVE, ArchiveRefused, checked, java_options


def test_a_driver_maps_the_archive_the_install_built() -> None:
    assert ARCHIVE.is_file(), "scripts/install.sh builds it (.state/class-archive.log)"
    assert f"-XX:SharedArchiveFile={ARCHIVE}" in java_options()
    assert "sharing" in checked(ARCHIVE)


def test_a_driver_refuses_a_damaged_archive(tmp_path: Path) -> None:
    # A dump cut short (a full disk at install): a JVM that maps it crashes. build()
    # puts an archive in place only after this check passed on it.
    damaged = tmp_path / "damaged.jsa"
    with ARCHIVE.open("rb") as whole:
        damaged.write_bytes(whole.read(ARCHIVE.stat().st_size // 2))
    with pytest.raises(ArchiveRefused, match="could not map"):
        checked(damaged)
    assert not list(Path.cwd().glob("hs_err_pid*.log"))  # no crash report left behind
