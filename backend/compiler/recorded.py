"""What binding one statement did, recorded so that the compile cache can replay it.

See cache.py. A `Bound` keeps the statement's outcome and what it read of the
program around it (`Environment.read`) and did to it; `replayable` says whether
the same reads answer the same now, and `replay` does to the environment what
binding the statement would do, spans moved to where the statement now is.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from backend.compiler.analysis.lattice import Facts
from backend.compiler.analysis.streaming import ViewAnalysis
from backend.compiler.diagnostics import Diagnostic
from backend.compiler.lower.spec import ViewJson
from backend.compiler.plan.nodes import OrderCheck, ViewPlan
from backend.compiler.rebase import same_but_spans, shifted, spans_within
from backend.compiler.semantic.binder import Outcome, bind_statement
from backend.compiler.semantic.environment import Environment, Read
from backend.compiler.syntax import statements as stmt


@dataclass(slots=True)
class Analysed:
    """A view's streaming analysis: from `view`, with `reads` the facts it read."""

    view: ViewPlan
    reads: tuple[tuple[str, Facts | None], ...]
    result: ViewAnalysis
    json: ViewJson | None = None  # of result.view


@dataclass(slots=True)
class Bound:
    """What binding one statement did, with spans as at `start` (its piece's)."""

    serial: int  # new for each binding: the same serial, the same outcome but spans
    start: int
    length: int  # of its piece
    # Where the spans of its view's query are: they move only when needed (see
    # `CompileCache._analyse_view`, `CompileResult.plan`), being most of a view's.
    query_start: int
    used: int  # the compile that last used it: once per compile, so one `start`
    reads: tuple[Read, ...]
    # For each read, the serial of the binding that produced the relation it found.
    read_serials: list[int | None]
    in_place: bool  # reused only at `start`, its reads compared spans and all
    budget_before: int
    budget_used: int
    outcome: Outcome
    diagnostics: tuple[Diagnostic, ...]
    order_checks: tuple[OrderCheck, ...]
    lateness_taken: tuple[tuple[str, str], ...]  # keys it removed from env.lateness
    analysed: Analysed | None = None


def fits(before: int, used: int, remaining: int) -> bool:
    """Whether work that spent `used` of a hint budget of `before` spends the same
    with `remaining`: it never ran out, and `remaining` covers it (or is the same)."""
    return remaining == before or (before > used and remaining >= used)


def replayable(bound: Bound, start: int, env: Environment, producers: Mapping[int, Bound]) -> bool:
    """Whether binding the statement at `start` in `env` would do what `bound` did.

    `producers`: the binding that produced each relation of this compile, by id:
    a relation from the binding that produced the one read before is the same,
    but for its spans, without comparing it.
    """
    if bound.in_place and start != bound.start:
        return False
    if not fits(bound.budget_before, bound.budget_used, env.suggestions.remaining):
        return False
    for position, (kind, name, answer) in enumerate(bound.reads):
        now = env.answer(kind, name)
        if bound.in_place:
            if now != answer:
                return False
            continue
        producer = producers.get(id(now))
        if producer is not None and producer.serial == bound.read_serials[position]:
            continue  # the same binding's relation, maybe moved
        if not same_but_spans(now, answer):
            return False
        bound.read_serials[position] = None if producer is None else producer.serial
    return True


def record_binding(
    statement: stmt.Statement,
    start: int,
    length: int,
    env: Environment,
    producers: Mapping[int, Bound],
    serial: int,
    compile_number: int,
) -> Bound:
    """`bind_statement(statement, env)`, recorded: `length` is that of its piece."""
    assert not env.ctes, "WITH queries are in scope only inside their statement"
    diagnostics_mark = len(env.diagnostics)
    checks_mark = len(env.order_checks)
    budget_before = env.suggestions.remaining
    lateness_before = tuple(env.lateness)
    env.reads = []
    try:
        outcome = bind_statement(statement, env)
        reads = tuple(env.reads)
    finally:
        env.reads = None
    diagnostics = tuple(env.diagnostics[diagnostics_mark:])
    order_checks = tuple(env.order_checks[checks_mark:])
    in_place = any(read_elsewhere(read) for read in reads) or not spans_within(
        (outcome, diagnostics, order_checks), start, start + length
    )
    serials: list[int | None] = []
    for _, _, answer in reads:
        producer = producers.get(id(answer))
        serials.append(None if producer is None else producer.serial)
    return Bound(
        serial,
        start,
        length,
        start,
        compile_number,
        reads,
        serials,
        in_place,
        budget_before,
        budget_before - env.suggestions.remaining,
        outcome,
        diagnostics,
        order_checks,
        tuple(key for key in lateness_before if key not in env.lateness),
    )


def replay(bound: Bound, start: int, env: Environment) -> None:
    """Do to `env` what binding the statement did, the statement now at `start`."""
    if start != bound.start:
        delta = start - bound.start
        analysed = bound.analysed
        view = bound.outcome.view
        # A view's query is shared by its outcome and its analysis, and left in place.
        outcome, analysis = shifted(
            (bound.outcome, None if analysed is None else (analysed.view, analysed.result)),
            delta,
            keep=() if view is None else (view.query,),
        )
        bound.outcome = outcome
        if analysed is not None and analysis is not None:
            analysed.view, analysed.result = analysis
        bound.diagnostics, bound.order_checks = shifted(
            (bound.diagnostics, bound.order_checks), delta
        )
        bound.start = start
    env.diagnostics.extend(bound.diagnostics)
    env.order_checks.extend(bound.order_checks)
    for key in bound.lateness_taken:
        del env.lateness[key]
    env.suggestions.remaining -= bound.budget_used


def read_elsewhere(read: Read) -> bool:
    """A read whose answer is a place in the text outside the statement."""
    kind, _, answer = read
    return (kind == "declaration" and answer is not None) or (kind == "lateness" and bool(answer))


class Reading(Mapping[str, Facts]):
    """The facts known so far, noting which a view's analysis looked up."""

    def __init__(self, known: Mapping[str, Facts]) -> None:
        self.known = known
        self.reads: dict[str, Facts | None] = {}

    def __getitem__(self, name: str) -> Facts:
        found = self.known.get(name)
        self.reads[name] = found
        if found is None:
            raise KeyError(name)
        return found

    def __iter__(self) -> Iterator[str]:
        raise TypeError("an analysis reads facts by name only")

    def __len__(self) -> int:
        raise TypeError("an analysis reads facts by name only")
