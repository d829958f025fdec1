"""Whether a pipeline's state survives a new plan (POST /pipelines/{name}/deploy).

The state (the Spark checkpoint, the operators' stored rows, the stored deltas)
was computed for the old plan. It stays right for a new plan that keeps every
input exactly (same columns, types, keys, time rules) and every view exactly
(same query, columns, output), and only adds: new tables or streams (their input
starts empty) and new views (filled from the current contents of what they read
at the next step: worker/runner/contents.py). Anything else needs the run reset.

>>> old = {"version": 2, "inputs": [{"name": "t", "columns": []}],
...        "views": [{"name": "v", "query": {"op": "scan", "relation": "t"}}]}
>>> new = {**old, "views": [*old["views"], {"name": "w", "query": {"op": "scan"}}]}
>>> plan_changes(old, new)
PlanChanges(incompatible=[], added_views=['w'])
>>> plan_changes(new, old).incompatible
['view w was removed']
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass
class PlanChanges:
    incompatible: list[str] = field(default_factory=list)  # what needs the state reset
    added_views: list[str] = field(default_factory=list)  # program order


def _by_name(items: list[Mapping[str, Any]]) -> dict[str, Mapping[str, Any]]:
    return {item["name"]: item for item in items}


def _compare(kind: str, old: list[Any], new: list[Any]) -> tuple[list[str], list[str]]:
    """(problems, names added) between two lists of named definitions."""
    before, after = _by_name(old), _by_name(new)
    problems = []
    for name, definition in before.items():
        if name not in after:
            problems.append(f"{kind} {name} was removed")
        elif after[name] != definition:
            keys = {*definition, *after[name]}
            changed = sorted(k for k in keys if definition.get(k) != after[name].get(k))
            problems.append(f"{kind} {name}: {', '.join(changed)} changed")
    return problems, [name for name in after if name not in before]


def plan_changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> PlanChanges:
    """What changed from plan `old` to plan `new`, as far as the state is concerned."""
    problems = [
        f"the plan's {key} changed"
        for key in sorted({*old, *new} - {"inputs", "views"})
        if old.get(key) != new.get(key)
    ]
    inputs, _ = _compare("input", old.get("inputs", []), new.get("inputs", []))
    views, added = _compare("view", old.get("views", []), new.get("views", []))
    return PlanChanges(problems + inputs + views, added)
