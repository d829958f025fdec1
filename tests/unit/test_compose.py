"""docker-compose.yml is for users' machines (no Docker engine here): check its shape."""

from pathlib import Path

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
