"""What each view of a plan reads, down to the inputs, and which view, input or pump owns
a state key of the step engine: a view's metrics are made of its inputs' figures and of
the state its own operators keep.

>>> plan = {
...     "inputs": [{"name": "s1"}, {"name": "s2"}, {"name": "t"}],
...     "views": [
...         {"name": "a", "query": {"op": "scan", "relation": "t"}},
...         {"name": "b", "query": {"op": "join", "left": {"op": "scan", "relation": "a"},
...                                 "right": {"op": "scan", "relation": "s2"}}},
...     ],
...     "pumps": [{"name": "p", "target": "s2", "query": {"op": "scan", "relation": "s1"}}],
... }
>>> view_inputs(plan)
{'a': ['t'], 'b': ['s1', 's2', 't']}
>>> state_owner("b.l.i#pending", ["a", "b", "b.l"])
'b.l'
>>> state_owner("t#rows", ["t", "a"]), state_owner("ab.i", ["a"])
('t', None)
"""

from collections.abc import Iterable, Mapping
from typing import Any

from worker.runner.lower import scanned


def view_inputs(plan: Mapping[str, Any]) -> dict[str, list[str]]:
    """Each view's inputs (tables and streams), through the views it reads and the pumps
    that feed the streams it reads, sorted."""
    inputs = {r["name"] for r in plan.get("inputs", [])}
    reads: dict[str, set[str]] = {v["name"]: set(scanned(v["query"])) for v in plan["views"]}
    for pump in plan.get("pumps", []):  # a pump's target is fed by what the pump reads
        reads.setdefault(pump["target"], set()).update(scanned(pump["query"]))
    found: dict[str, set[str]] = {}

    def sources(name: str, visiting: frozenset[str]) -> set[str]:
        if name in found:
            return found[name]
        if name in visiting:  # the compiler refuses cycles (SQL330); never loop on one
            return set()
        result = {name} if name in inputs else set()
        for read in reads.get(name, ()):
            result |= sources(read, visiting | {name})
        found[name] = result
        return result

    return {v["name"]: sorted(sources(v["name"], frozenset())) for v in plan["views"]}


def owners(plan: Mapping[str, Any]) -> list[str]:
    """The names state keys start with: views, inputs (a keyed table's rows) and pumps."""
    return [
        *(v["name"] for v in plan.get("views", [])),
        *(r["name"] for r in plan.get("inputs", [])),
        *(f"pump:{p['name']}" for p in plan.get("pumps", [])),
    ]


def state_owner(key: str, names: Iterable[str]) -> str | None:
    """The longest of `names` that `key` is or continues with "." or "#" (the step
    engine's state keys: "view.i.l", "view#pending", "table#rows", "pump:p#held:s")."""
    best = None
    for name in names:
        if (key == name or key.startswith((f"{name}.", f"{name}#"))) and (
            best is None or len(name) > len(best)
        ):
            best = name
    return best


def state_by_owner(plan: Mapping[str, Any], by_key: Mapping[str, int]) -> dict[str, int]:
    """Rows in state per view, input or pump, from the engine's rows per state key."""
    names = owners(plan)
    totals: dict[str, int] = {}
    for key, rows in by_key.items():
        owner = state_owner(key, names) or key
        totals[owner] = totals.get(owner, 0) + rows
    return totals
