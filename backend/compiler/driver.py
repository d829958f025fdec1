"""The compiler driver: program text in, `CompileResult` out.

The passes run in the order of `PASSES`; each is a small pure function from one
`CompileState` to the next. Every pass runs even after errors (the binder works
on whatever the parser recovered), so one compile reports every problem.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from backend.compiler.analysis.streaming import analyse
from backend.compiler.diagnostics import Diagnostic, in_source_order
from backend.compiler.lower.spec import PlanJson, catalog_json, plan_json
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic.binder import bind
from backend.compiler.semantic.catalog import Catalog
from backend.compiler.source import Source
from backend.compiler.syntax import statements as stmt
from backend.compiler.syntax.parser import parse
from backend.compiler.syntax.tokens import Token, tokenize


@dataclass(frozen=True, slots=True)
class CompileState:
    source: Source
    diagnostics: tuple[Diagnostic, ...] = ()
    tokens: tuple[Token, ...] = ()
    program: stmt.Program | None = None
    catalog: Catalog = field(default_factory=Catalog)
    plan: plan.Plan | None = None
    spec: PlanJson | None = None

    @property
    def has_errors(self) -> bool:
        return any(diagnostic.is_error for diagnostic in self.diagnostics)


def tokenize_pass(state: CompileState) -> CompileState:
    tokens, found = tokenize(state.source.text)
    return replace(state, tokens=tokens, diagnostics=state.diagnostics + found)


def parse_pass(state: CompileState) -> CompileState:
    program, found = parse(state.tokens)
    return replace(state, program=program, diagnostics=state.diagnostics + found)


def bind_pass(state: CompileState) -> CompileState:
    assert state.program is not None, "bind_pass runs after parse_pass"
    catalog, logical, found = bind(state.program)
    return replace(state, catalog=catalog, plan=logical, diagnostics=state.diagnostics + found)


def streaming_pass(state: CompileState) -> CompileState:
    """Waterlines, output modes and the streaming rules (analysis/streaming.py)."""
    if state.plan is None:
        return state
    catalog, logical, found = analyse(state.catalog, state.plan)
    return replace(state, catalog=catalog, plan=logical, diagnostics=state.diagnostics + found)


def lower_pass(state: CompileState) -> CompileState:
    """Serialise the plan, which exists only for a program without any error."""
    if state.plan is None or state.has_errors:
        return replace(state, plan=None, spec=None)
    return replace(state, spec=plan_json(state.plan))


PASSES: tuple[Callable[[CompileState], CompileState], ...] = (
    tokenize_pass,
    parse_pass,
    bind_pass,
    streaming_pass,
    lower_pass,
)


@dataclass(frozen=True, slots=True)
class CompileResult:
    source: Source
    diagnostics: tuple[Diagnostic, ...]  # in source order
    catalog: Catalog
    plan: plan.Plan | None  # None when there is any error
    spec: PlanJson | None  # the plan as contract JSON

    @property
    def has_errors(self) -> bool:
        return any(diagnostic.is_error for diagnostic in self.diagnostics)

    def diagnostics_json(self) -> list[dict[str, Any]]:
        return [diagnostic.to_json(self.source) for diagnostic in self.diagnostics]

    def to_json(self) -> dict[str, Any]:
        """`{"diagnostics", "catalog", "plan"}` as in docs/contracts.md."""
        return {
            "diagnostics": self.diagnostics_json(),
            "catalog": catalog_json(self.catalog),
            "plan": self.spec,
        }


def compile_program(text: str) -> CompileResult:
    """Compile a program. User errors become diagnostics; this never raises for them.

    >>> result = compile_program("CREATE TABLE t (id INT);")
    >>> result.has_errors, [r.name for r in result.catalog.relations]
    (False, ['t'])
    """
    state = CompileState(Source(text))
    for compiler_pass in PASSES:
        state = compiler_pass(state)
    return CompileResult(
        source=state.source,
        diagnostics=in_source_order(state.diagnostics),
        catalog=state.catalog,
        plan=state.plan,
        spec=state.spec,
    )
