"""The compiler driver: program text in, `CompileResult` out.

The passes run in the order of `PASSES`; each is a small pure function from one
`CompileState` to the next. Every pass runs even after errors (the binder works
on whatever the parser recovered), so one compile reports every problem.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from backend.compiler.analysis.streaming import ViewStep, analyse
from backend.compiler.diagnostics import Diagnostic, in_source_order
from backend.compiler.lower.spec import PlanJson, ViewJson, catalog_json, plan_json
from backend.compiler.plan import nodes as plan
from backend.compiler.rebase import shifted
from backend.compiler.semantic.binder import Statements, bind, bind_statements
from backend.compiler.semantic.catalog import Catalog
from backend.compiler.source import Source
from backend.compiler.syntax import statements as stmt
from backend.compiler.syntax.parser import parse
from backend.compiler.syntax.tokens import Token, tokenize

if TYPE_CHECKING:
    from backend.compiler.cache import CompileCache


@dataclass(frozen=True, slots=True)
class CompileState:
    source: Source
    diagnostics: tuple[Diagnostic, ...] = ()
    tokens: tuple[Token, ...] = ()
    program: stmt.Program | None = None
    # Instead of `tokens` and `program` when the compile cache parsed the text:
    # the statements it kept, each parsed on its own (compiler/cache.py).
    statements: Statements | None = None
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
    if state.statements is not None:
        catalog, logical, found = bind_statements(state.statements)
    else:
        assert state.program is not None, "bind_pass runs after parse_pass"
        catalog, logical, found = bind(state.program)
    return replace(state, catalog=catalog, plan=logical, diagnostics=state.diagnostics + found)


def streaming_pass(state: CompileState, view_step: ViewStep | None = None) -> CompileState:
    """Waterlines, output modes and the streaming rules (analysis/streaming.py)."""
    if state.plan is None:
        return state
    catalog, logical, found = analyse(state.catalog, state.plan, view_step)
    return replace(state, catalog=catalog, plan=logical, diagnostics=state.diagnostics + found)


def lower_pass(
    state: CompileState, each_view: Callable[[plan.ViewPlan], ViewJson] | None = None
) -> CompileState:
    """Serialise the plan, which exists only for a program without any error."""
    if state.plan is None or state.has_errors:
        return replace(state, plan=None, spec=None)
    return replace(state, spec=plan_json(state.plan, each_view))


PASSES: tuple[Callable[[CompileState], CompileState], ...] = (
    tokenize_pass,
    parse_pass,
    bind_pass,
    streaming_pass,
    lower_pass,
)


@dataclass(frozen=True, slots=True, eq=False)
class CompileResult:
    source: Source
    diagnostics: tuple[Diagnostic, ...]  # in source order
    catalog: Catalog
    stored_plan: plan.Plan | None = field(repr=False)
    spec: PlanJson | None  # the plan as contract JSON
    # Views of `stored_plan` whose query spans are still where a previous compile
    # put them, and by how much they move: the compile cache moves them only if
    # `plan` is read (the JSON has no spans).
    unplaced: tuple[tuple[plan.ViewPlan, int], ...] = field(default=(), repr=False)

    @property
    def plan(self) -> plan.Plan | None:
        """The typed plan; None when there is any error."""
        if self.unplaced and self.stored_plan is not None:
            moves = {id(view): delta for view, delta in self.unplaced}
            views = tuple(
                replace(view, query=shifted(view.query, moves[id(view)]))
                if id(view) in moves
                else view
                for view in self.stored_plan.views
            )
            object.__setattr__(self, "stored_plan", replace(self.stored_plan, views=views))
            object.__setattr__(self, "unplaced", ())
        return self.stored_plan

    @property
    def has_errors(self) -> bool:
        return any(diagnostic.is_error for diagnostic in self.diagnostics)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CompileResult):
            return NotImplemented
        mine = (self.source, self.diagnostics, self.catalog, self.plan, self.spec)
        return mine == (other.source, other.diagnostics, other.catalog, other.plan, other.spec)

    def diagnostics_json(self) -> list[dict[str, Any]]:
        return [diagnostic.to_json(self.source) for diagnostic in self.diagnostics]

    def to_json(self) -> dict[str, Any]:
        """`{"diagnostics", "catalog", "plan"}` as in docs/contracts.md."""
        return {
            "diagnostics": self.diagnostics_json(),
            "catalog": catalog_json(self.catalog),
            "plan": self.spec,
        }


def compile_program(text: str, cache: CompileCache | None = None) -> CompileResult:
    """Compile a program. User errors become diagnostics; this never raises for them.

    With a `cache` (one per editor, compiler/cache.py), what the statements whose
    text did not change compiled to last time is reused; the result is the same.

    >>> result = compile_program("CREATE TABLE t (id INT);")
    >>> result.has_errors, [r.name for r in result.catalog.relations]
    (False, ['t'])
    """
    if cache is not None:
        return cache.compile(text)
    return run_passes(Source(text), PASSES)


def run_passes(
    source: Source, passes: tuple[Callable[[CompileState], CompileState], ...]
) -> CompileResult:
    state = CompileState(source)
    for compiler_pass in passes:
        state = compiler_pass(state)
    return CompileResult(
        source=state.source,
        diagnostics=in_source_order(state.diagnostics),
        catalog=state.catalog,
        stored_plan=state.plan,
        spec=state.spec,
    )
