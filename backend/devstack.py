"""Runs Weir on one machine: `python -m backend.devstack run | test | manage ...`.

Uses DATABASE_URL and REDIS_URL when both are set; otherwise starts an embedded
PostgreSQL and an embedded Valkey (a Redis server) whose data lives under the
repo's ignored `.state/` folder, and leaves their URLs in `.state/services.env`
for other commands of this checkout. `run` then migrates, starts the web server
(ASGI: API, websockets, front end), a Celery worker, loads the demo pipeline and
prints the URL; Ctrl-C stops everything it started.
"""

import argparse
import contextlib
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from backend import embedded
from backend.embedded import read_env_file

REPO_DIR = Path(__file__).resolve().parents[1]
STATE_DIR = REPO_DIR / ".state"
DATABASE_NAME = "weir"


def _ensure_database(server_url: str, name: str) -> str:
    """Create database `name` on the server if missing; its URL."""
    import psycopg
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    params = conninfo_to_dict(server_url)
    with psycopg.connect(
        make_conninfo(**{**params, "dbname": "postgres"}), autocommit=True
    ) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')
    return with_database(server_url, name)


def with_database(url: str, name: str) -> str:
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


@contextlib.contextmanager
def services(state_dir: Path) -> Iterator[dict[str, str]]:
    """DATABASE_URL and REDIS_URL of running services, embedded ones if none is configured."""
    if os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL"):
        yield {"DATABASE_URL": os.environ["DATABASE_URL"], "REDIS_URL": os.environ["REDIS_URL"]}
        return
    env_file = state_dir / "services.env"
    running = _running_services(env_file)
    if running is not None:  # a `make run` of this checkout owns them
        yield running
        return
    state_dir.mkdir(parents=True, exist_ok=True)
    print("weir: starting embedded PostgreSQL and Valkey (Redis) ...", file=sys.stderr, flush=True)
    with (
        embedded.postgres(state_dir / "postgres") as pg_url,
        embedded.valkey(state_dir / "valkey") as redis_url,
    ):
        urls = {
            "DATABASE_URL": _ensure_database(pg_url, DATABASE_NAME),
            "REDIS_URL": redis_url,
        }
        env_file.write_text("".join(f"{k}={v}\n" for k, v in urls.items()))
        try:
            yield urls
        finally:
            env_file.unlink(missing_ok=True)


def _running_services(env_file: Path) -> dict[str, str] | None:
    """The URLs in `env_file` if both services there answer, else None."""
    import psycopg
    import redis

    urls = read_env_file(env_file)
    if not urls:
        return None
    try:
        with psycopg.connect(urls["DATABASE_URL"], connect_timeout=2):
            pass
        redis.Redis.from_url(urls["REDIS_URL"], socket_timeout=2).ping()
    except Exception:  # stale file: whoever wrote it is gone
        return None
    return urls


def _python(*args: str, env: dict[str, str]) -> subprocess.Popen[bytes]:
    # A session of its own: Ctrl-C reaches only this process, which then stops
    # the servers in order (the Spark runners first, while the database is up).
    return subprocess.Popen([sys.executable, *args], cwd=REPO_DIR, env=env, start_new_session=True)


def _manage(args: list[str], env: dict[str, str]) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=REPO_DIR, env=env, check=True)


def stop_processes(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    for process in processes:
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


def web_server(env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    return _python(
        "-m", "uvicorn", "backend.config.asgi:application",
        "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
        env=env,
    )  # fmt: skip


def celery_worker(env: dict[str, str]) -> subprocess.Popen[bytes]:
    """The worker, with the beat that runs the pipeline monitor every few seconds."""
    state_dir = Path(env.get("WEIR_STATE_DIR", STATE_DIR))
    state_dir.mkdir(parents=True, exist_ok=True)  # beat cannot open its schedule otherwise
    schedule = state_dir / "celerybeat-schedule"
    return _python(
        "-m", "celery", "-A", "worker.app", "--quiet", "worker",
        "--pool", "threads", "--concurrency", "8", "--loglevel", "WARNING",
        "--without-gossip", "--without-mingle",
        "--beat", "--schedule", str(schedule),
        env=env,
    )  # fmt: skip


class ServerExited(Exception):
    """The server process ended before it answered (its port taken, say)."""


def wait_for_http(
    url: str, timeout: float = 120, server: subprocess.Popen[bytes] | None = None
) -> None:
    """Wait until `url` answers 200; raise ServerExited as soon as `server` ends."""
    import urllib.request

    deadline = time.monotonic() + timeout
    while True:
        if server is not None and server.poll() is not None:
            raise ServerExited(f"{url}: the server exited with code {server.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            if time.monotonic() > deadline:
                raise
        time.sleep(0.2)


def _demo_password_file() -> Path:
    """The demo user's password: made up once per checkout, kept in the state folder."""
    path = STATE_DIR / "admin-password"
    if not path.exists():
        STATE_DIR.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(12) + "\n")
        path.chmod(0o600)
    return path


def _stop_once(signum: int, frame: object) -> None:
    """The first Ctrl-C or SIGTERM stops Weir, and the stop runs to its end: `make`
    passes a SIGTERM sent to the process group on to this process too, and a second
    KeyboardInterrupt, even at the first line of the stop, left the web server and the
    worker running."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise KeyboardInterrupt


def command_run(port: int) -> int:
    signal.signal(signal.SIGINT, _stop_once)
    signal.signal(signal.SIGTERM, _stop_once)
    with services(STATE_DIR) as urls:
        env = {**os.environ, **urls, "DJANGO_SETTINGS_MODULE": "backend.config.settings.dev"}
        _manage(["migrate", "--no-input", "-v", "0"], env)
        processes = [web_server(env, port), celery_worker(env)]
        try:
            url = f"http://127.0.0.1:{port}/"
            wait_for_http(url + "api/v1/health")
            password_file = _demo_password_file()
            _manage(["weir_demo", "--password-file", str(password_file)], env)
            print(
                f"\nweir: serving the IDE at {url}?pipeline=demo  (Ctrl-C stops)"
                f"\nweir: sign in as admin / {password_file.read_text().strip()}\n",
                flush=True,
            )
            while all(p.poll() is None for p in processes):
                time.sleep(0.5)
            print("weir: a server process exited; stopping", file=sys.stderr)
            return 1
        except KeyboardInterrupt:
            return 0
        finally:
            # Stopping runs to its end (after a server exited too; see _stop_once).
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            with contextlib.suppress(Exception):
                _manage(["weir_stop_runners"], env)
            stop_processes(processes)


def command_test(pytest_args: list[str]) -> int:
    with services(STATE_DIR / "test-services") as urls:
        env = {**os.environ, **urls}
        return subprocess.call(
            [sys.executable, "-m", "pytest", *pytest_args], cwd=REPO_DIR, env=env
        )


def command_manage(args: list[str]) -> int:
    with services(STATE_DIR) as urls:
        env = {**os.environ, **urls}
        return subprocess.call([sys.executable, "manage.py", *args], cwd=REPO_DIR, env=env)


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m backend.devstack", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="serve Weir with the demo pipeline")
    run.add_argument("--port", type=int, default=int(os.environ.get("WEIR_PORT", "8000")))
    commands.add_parser("test", help="run pytest against real services").add_argument(
        "pytest_args", nargs=argparse.REMAINDER
    )
    commands.add_parser("manage", help="run a manage.py command").add_argument(
        "args", nargs=argparse.REMAINDER
    )
    args = parser.parse_args()
    if args.command == "run":
        return command_run(args.port)
    if args.command == "test":
        return command_test([a for a in args.pytest_args if a != "--"])
    return command_manage([a for a in args.args if a != "--"])


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    sys.exit(main())
