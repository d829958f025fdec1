import pytest

from backend.core.errors import ApplicationError
from backend.pipelines.config import effective_config, validated_config

CATALOG = {
    "relations": [
        {"name": "orders", "kind": "table"},
        {"name": "big", "kind": "view", "local": False},
        {"name": "hidden", "kind": "view", "local": True},
    ]
}


def bad_key(update: dict) -> str:
    with pytest.raises(ApplicationError) as refused:
        validated_config({}, update, CATALOG)
    assert refused.value.code == "invalid_config"
    return refused.value.details["key"]


def test_defaults_fill_what_was_not_set() -> None:
    config = effective_config({"cores": 4})
    assert config["cores"] == 4
    assert config["spark_master"].startswith("local")
    assert (config["memory"], config["trigger_interval_ms"]) == ("1g", 0)
    assert (config["storage_dir"], config["connectors"]) == (None, [])


def test_a_partial_update_keeps_the_other_keys() -> None:
    stored = validated_config({}, {"cores": 3, "memory": "2G"}, CATALOG)
    assert stored == {"cores": 3, "memory": "2g"}
    updated = validated_config(stored, {"spark_master": "spark://host:7077"}, CATALOG)
    assert updated == {"cores": 3, "memory": "2g", "spark_master": "spark://host:7077"}


@pytest.mark.parametrize(
    ("update", "key"),
    [
        ({"nope": 1}, "nope"),
        ({"cores": 0}, "cores"),
        ({"cores": True}, "cores"),
        ({"cores": "2"}, "cores"),
        ({"memory": "lots"}, "memory"),
        ({"spark_master": "local[two]"}, "spark_master"),
        ({"trigger_interval_ms": -1}, "trigger_interval_ms"),
        ({"storage_dir": "relative/dir"}, "storage_dir"),
        ({"storage_dir": "/tmp/a\x00b"}, "storage_dir"),
        ({"storage_dir": "/tmp/\udcff"}, "storage_dir"),
        ({"connectors": {}}, "connectors"),
        ({"connectors": [{"view": "big", "type": "kafka"}]}, "connectors[0].type"),
        ({"connectors": [{"view": "hidden", "type": "file", "path": "/x", "format": "jsonl"}]},
         "connectors[0].view"),
        ({"connectors": [{"view": "big", "type": "file", "path": "x", "format": "jsonl"}]},
         "connectors[0].path"),
        ({"connectors": [{"view": "big", "type": "postgres", "url": "http://x", "table": "t"}]},
         "connectors[0].url"),
        ({"connectors": [{"view": "big", "type": "file", "path": "/x", "format": "jsonl",
                          "extra": 1}]}, "connectors[0].extra"),
    ],
)  # fmt: skip
def test_bad_values_name_their_key(update: dict, key: str) -> None:
    assert bad_key(update) == key


def test_connectors_of_published_views_are_kept() -> None:
    connectors = [
        {"view": "big", "type": "file", "path": "/tmp/out", "format": "jsonl"},
        {"view": "big", "type": "postgres", "url": "postgresql://db/x", "table": "public.t"},
    ]
    assert validated_config({}, {"connectors": connectors}, CATALOG) == {"connectors": connectors}
