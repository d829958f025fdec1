"""docker-compose.yml is for users' machines (no Docker engine here): check its shape."""

import warnings
from importlib import import_module
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[2]


def load_compose() -> dict:
    return yaml.safe_load((REPO / "docker-compose.yml").read_text())


def test_compose_describes_the_production_shape() -> None:
    services = load_compose()["services"]
    assert {"postgres", "redis", "web", "worker", "spark-master", "spark-worker"} <= set(services)
    for name in ("web", "worker"):
        env = services[name]["environment"]
        assert env["DATABASE_URL"].startswith("postgres://")
        assert env["REDIS_URL"].startswith("redis://")
    assert services["worker"]["environment"]["WEIR_SPARK_MASTER"] == "spark://spark-master:7077"
    assert services["web"]["ports"] == ["8000:8000"]


def test_every_dependency_and_volume_is_declared() -> None:
    compose = load_compose()
    services, volumes = compose["services"], set(compose["volumes"])
    for name, service in services.items():
        for dependency in service.get("depends_on", {}):
            assert dependency in services, f"{name} depends on unknown {dependency}"
        for mount in service.get("volumes", []):
            source = mount.split(":", 1)[0]
            assert source in volumes or source.startswith(("/", ".")), f"{name}: {mount}"
    assert (REPO / "Dockerfile").exists()


def celery_command(command: list[str]) -> tuple[str, dict[str, Any]] | None:
    """A `celery -A APP SUBCOMMAND ...` command line parsed by Celery's own CLI: the
    subcommand and its options (an unknown option fails here as it would in the container);
    None for another program."""
    from celery.bin.base import CLIContext
    from celery.bin.celery import celery as cli

    if command[0] != "celery":
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # click's protected_args
        context = cli.make_context("celery", list(command[1:]))
        app_name = context.params["app"]
        context.obj = CLIContext(app=import_module(app_name).app, no_color=True, workdir=None)
        name, subcommand, rest = cli.resolve_command(
            context, [*context.protected_args, *context.args]
        )
    assert subcommand is not None and name is not None
    options = subcommand.make_context(name, rest, parent=context).params
    return name, {"app": app_name, **options}


def test_celery_beat_runs_once_and_schedules_the_pipeline_monitor() -> None:
    """Without beat nothing runs the monitor: a dead Spark driver would go unnoticed."""
    services = load_compose()["services"]
    parsed = {
        name: celery_command(service["command"])
        for name, service in services.items()
        if "command" in service
    }
    beats = [
        name
        for name, cmd in parsed.items()
        if cmd and (cmd[0] == "beat" or (cmd[0] == "worker" and cmd[1].get("beat")))
    ]
    workers = [name for name, cmd in parsed.items() if cmd and cmd[0] == "worker"]
    assert len(beats) == 1, f"one beat per installation, not {beats}"
    assert workers, "a worker runs what beat schedules"
    [beat] = beats
    assert "migrate" in services[beat]["depends_on"], "beat reads the settings' database"
    from worker.app import app

    assert {parsed[name][1]["app"] for name in [beat, *workers]} == {"worker.app"}
    app.loader.import_default_modules()
    scheduled = {entry["task"] for entry in app.conf.beat_schedule.values()}
    assert "pipelines.monitor" in scheduled and "pipelines.monitor" in app.tasks
