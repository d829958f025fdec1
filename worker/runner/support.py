"""Which parts of a compiled plan this runner cannot execute yet, in plain words.

The compiler accepts more of the dialect than the runner executes. The control
plane asks `unsupported(plan)` before a pipeline runs, and refuses with these
messages, so a user reads "view v uses the plan operator 'over'" at start
rather than a Spark stack trace later.

    >>> unsupported({"version": 2, "inputs": [], "views": [
    ...     {"name": "v", "query": {"op": "scan", "relation": "t", "columns": []}}]})
    []
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

RUNNABLE_INPUT_KINDS = frozenset({"table", "stream"})
RUNNABLE_PLAN_KEYS = frozenset({"version", "inputs", "views", "pumps"})
EXPRESSION_KINDS = frozenset({"column", "literal", "cast", "case", "call", "lambda"})
INLINE_FUNCTIONS = frozenset({"div", "concat", "coalesce", "like", "transform", "array_exists"})


def unsupported(plan: Mapping[str, Any]) -> list[str]:
    """One sentence per construct of `plan` the runner cannot run (empty: it runs)."""
    problems: dict[str, None] = {}  # ordered and without repeats
    for key, value in plan.items():
        if key not in RUNNABLE_PLAN_KEYS and value:
            problems[f"the program's {key} are not run by the runtime yet"] = None
    for relation in plan.get("inputs", []):
        if relation.get("foreign"):
            problems[
                f"{relation.get('name')!s} is a foreign stream, whose connector the runtime "
                "does not read yet"
            ] = None
        elif relation.get("kind") not in RUNNABLE_INPUT_KINDS:
            problems[
                f"{relation.get('name')!s} is a {relation.get('kind')!s}, "
                "which the runtime does not read yet"
            ] = None
    for view in plan.get("views", []):
        for problem in _node_problems(view.get("query")):
            problems[f"view {view.get('name')!s} uses {problem}"] = None
    for pump in plan.get("pumps", []):
        for problem in _node_problems(pump.get("query")):
            problems[f"pump {pump.get('name')!s} uses {problem}"] = None
    return list(problems)


def _node_problems(node: Any) -> Iterator[str]:
    # Imported here: the control plane calls this without starting Spark, and only
    # the names of the runner's rules are needed.
    from worker.runner.incremental import AGGREGATE_FUNCTIONS, LINEAR, RULES
    from worker.runner.lower import BINARY, SCALAR, UNARY
    from worker.runner.recursion import RECURSION_RULES
    from worker.runner.temporal import TEMPORAL_RULES
    from worker.runner.window_join import WINDOW_JOIN_RULES

    functions = INLINE_FUNCTIONS | SCALAR.keys() | UNARY.keys() | BINARY.keys()
    for item in _dicts(node):
        if "op" in item:
            if (
                item["op"] not in LINEAR
                and item["op"] not in RULES | TEMPORAL_RULES | WINDOW_JOIN_RULES | RECURSION_RULES
            ):
                yield f"the plan operator '{item['op']}', which the runtime does not run yet"
            for aggregate in item.get("aggregates", []):
                if aggregate.get("function") not in AGGREGATE_FUNCTIONS:
                    yield (
                        f"the aggregate function '{aggregate.get('function')}', "
                        "which the runtime does not run yet"
                    )
        elif "kind" in item and "type" in item:
            kind = item["kind"]
            if kind not in EXPRESSION_KINDS:
                yield f"the expression form '{kind}', which the runtime does not run yet"
            elif kind == "call" and item.get("function") not in functions:
                yield f"the function '{item.get('function')}', which the runtime does not run yet"


def _dicts(node: Any) -> Iterator[Mapping[str, Any]]:
    """Every mapping inside `node` (itself included), depth first."""
    if isinstance(node, Mapping):
        yield node
        for value in node.values():
            yield from _dicts(value)
    elif isinstance(node, list | tuple):
        for value in node:
            yield from _dicts(value)
