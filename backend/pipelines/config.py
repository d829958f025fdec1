"""A pipeline's runtime configuration: where and how its Spark runner runs.

    {"spark_master": "local[2]", "cores": 2, "memory": "1g", "trigger_interval_ms": 0,
     "storage_dir": null, "connectors": []}

`Pipeline.config` stores what was set; `effective_config` fills in the defaults.
`validated_config` checks a partial update against the stored one and answers the
whole new configuration, or raises ApplicationError (400) naming the bad key.
"""

import json
import re
from pathlib import Path
from typing import Any

from django.conf import settings

from backend.core.errors import ApplicationError
from worker.runner.connectors import ConnectorError, validate_connector

MASTER = re.compile(r"local(\[(\d+|\*)(,\d+)?\])?|(spark|mesos|k8s)://\S+|yarn")
MEMORY = re.compile(r"\d+[kmgt]?", re.IGNORECASE)
MAX_CORES = 1024
MAX_TRIGGER_MS = 3_600_000
# What a run leaves under its storage root: the Spark checkpoint and operator state.
RUN_FILES = ("checkpoint", "state")


def defaults() -> dict[str, Any]:
    return {
        "spark_master": settings.SPARK_MASTER,
        "cores": 2,
        "memory": "1g",
        "trigger_interval_ms": 0,
        "storage_dir": None,
        "connectors": [],
    }


def effective_config(stored: dict[str, Any]) -> dict[str, Any]:
    """The stored configuration with every key it leaves out at its default."""
    return {**defaults(), **stored}


def storage_root(pipeline_id: int, config: dict[str, Any]) -> Path:
    """Where a pipeline's Spark checkpoint and operator state live."""
    configured = effective_config(config)["storage_dir"]
    if configured:
        return Path(configured)
    return Path(settings.PIPELINE_STORAGE_DIR) / str(pipeline_id)


def _bad(key: str, message: str) -> ApplicationError:
    return ApplicationError(f"config.{key}: {message}", code="invalid_config", details={"key": key})


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _integer(key: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _bad(key, f"expected an integer from {low} to {high}")
    return value


def _check_value(key: str, value: Any, views: set[str]) -> Any:
    text = json.dumps(value, ensure_ascii=False)
    if "\\u0000" in text or not _encodes(text):
        raise _bad(key, "expected text without NUL characters or lone surrogates")
    if key == "spark_master":
        if not isinstance(value, str) or not MASTER.fullmatch(value):
            raise _bad(
                key, "expected local, local[N], local[*], spark://host:port, k8s://..., yarn"
            )
        return value
    if key == "cores":
        return _integer(key, value, 1, MAX_CORES)
    if key == "memory":
        if not isinstance(value, str) or not MEMORY.fullmatch(value):
            raise _bad(key, "expected a JVM memory size such as 512m or 2g")
        return value.lower()
    if key == "trigger_interval_ms":
        return _integer(key, value, 0, MAX_TRIGGER_MS)
    if key == "storage_dir":
        if value is not None and (not isinstance(value, str) or not Path(value).is_absolute()):
            raise _bad(key, "expected an absolute directory path, or null for the default")
        return value
    if key == "connectors":
        if not isinstance(value, list):
            raise _bad(key, "expected a list of connectors")
        return [_connector(index, item, views) for index, item in enumerate(value)]
    raise _bad(key, f"unknown key; the keys are {', '.join(defaults())}")


def _connector(index: int, item: Any, views: set[str]) -> dict[str, Any]:
    try:
        validate_connector(item, views)
    except ConnectorError as err:
        key = f"connectors[{index}]" + (f".{err.key}" if err.key else "")
        raise _bad(key, str(err)) from err
    return dict(item)


def validated_config(
    stored: dict[str, Any], update: Any, catalog: dict[str, Any]
) -> dict[str, Any]:
    """`stored` with the keys of `update` set, every value checked.

    Connectors must name a view of the program (`catalog`) that is published
    (not LOCAL).
    """
    if not isinstance(update, dict):
        raise ApplicationError("config must be a JSON object", code="invalid_config")
    views = {
        r["name"]
        for r in catalog.get("relations", [])
        if r["kind"] == "view" and not r.get("local")
    }
    result = dict(stored)
    for key, value in update.items():
        result[key] = _check_value(key, value, views)
    return result
