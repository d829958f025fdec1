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

MASTER = re.compile(r"local(\[(\d+|\*)(,\d+)?\])?|(spark|mesos|k8s)://\S+|yarn")
MEMORY = re.compile(r"\d+[kmgt]?", re.IGNORECASE)
MAX_CORES = 1024
MAX_TRIGGER_MS = 3_600_000
CONNECTOR_TYPES: dict[str, dict[str, Any]] = {
    # type -> {key: check}; every key is required.
    "file": {"path": "absolute path", "format": ("jsonl",)},
    "postgres": {"url": "postgres url", "table": "identifier"},
}
# What a run leaves under its storage root: the Spark checkpoint and operator state.
RUN_FILES = ("checkpoint", "state")
TABLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?")


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
    key = f"connectors[{index}]"
    if not isinstance(item, dict):
        raise _bad(key, "expected an object")
    kind = item.get("type")
    if kind not in CONNECTOR_TYPES:
        raise _bad(f"{key}.type", f"expected one of {', '.join(CONNECTOR_TYPES)}")
    fields = CONNECTOR_TYPES[kind]
    unknown = set(item) - {"view", "type", *fields}
    if unknown:
        raise _bad(f"{key}.{sorted(unknown)[0]}", f"unknown key for a {kind} connector")
    if item.get("view") not in views:
        raise _bad(f"{key}.view", "expected the name of one of the program's (non-local) views")
    for name, check in fields.items():
        value = item.get(name)
        if not isinstance(value, str) or not _valid(check, value):
            expected = f"one of {', '.join(check)}" if isinstance(check, tuple) else f"a {check}"
            raise _bad(f"{key}.{name}", f"expected {expected}")
    return dict(item)


def _valid(check: str | tuple[str, ...], value: str) -> bool:
    if isinstance(check, tuple):
        return value in check
    if check == "absolute path":
        return Path(value).is_absolute()
    if check == "postgres url":
        return value.startswith(("postgresql://", "postgres://"))
    return bool(TABLE_NAME.fullmatch(value))


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
