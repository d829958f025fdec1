"""The compile cache: re-compiling after an edit redoes only what the edit changed.

The editor compiles the whole program on every keystroke. With a `CompileCache`
(`compile_program(text, cache)`) the text is cut after every `;` token into
pieces (`semicolon_ends`: no tokenizing needed) and each piece is tokenized and
parsed on its own, once per distinct text. The parser resumes after a `;` with
nothing carried over but its hint budget, so the statements are exactly those
of the whole text. A piece whose text comes back, wherever it now is, reuses
its statements, moved (`rebase.shifted`) if text before it changed length.

Each statement's binding is kept (recorded.py) with what it read of the program
around it (`Environment.read`: the relations it named, the names it suggested
from, ...) and what it did to it (diagnostics, ORDER BY checks, LATENESS
statements taken, hint budget spent). Where the same reads answer the same, the
outcome is reused and its effects replayed in program order, so even the order
of diagnostics is an uncached compile's. A view's streaming analysis is kept
with the facts of the relations it read, and its plan JSON with it. Two kinds of
binding are reused only at the very same offset: one that read a place
elsewhere in the text (where a name is declared, a LATENESS statement) and one
whose result holds a span outside its own piece (`rebase.spans_within`): moving
them could not move those spans right. A view's query, most of its spans, moves
only when its analysis must run again or `CompileResult.plan` is read (the
JSON has no spans): `CompileResult.unplaced`.

The JSON of reused views is shared between results: do not modify it. A piece
not used by the latest two compiles is forgotten, so the cache stays the size
of the program (and of its previous version).
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import partial

from backend.compiler.analysis.lattice import Facts
from backend.compiler.analysis.streaming import ViewAnalysis, analyse_view
from backend.compiler.diagnostics import Diagnostic
from backend.compiler.driver import (
    CompileResult,
    CompileState,
    bind_pass,
    lower_pass,
    run_passes,
    streaming_pass,
)
from backend.compiler.lower.spec import ViewJson, view_json
from backend.compiler.plan.nodes import ViewPlan
from backend.compiler.rebase import shifted, spans_within
from backend.compiler.recorded import (
    Analysed,
    Bound,
    Reading,
    fits,
    record_binding,
    replay,
    replayable,
)
from backend.compiler.semantic.binder import Outcome, declared_name, query_span
from backend.compiler.semantic.environment import Environment
from backend.compiler.source import Source, Span
from backend.compiler.suggest import Budget
from backend.compiler.syntax import statements as stmt
from backend.compiler.syntax.ast import Identifier
from backend.compiler.syntax.parser import parse
from backend.compiler.syntax.tokens import semicolon_ends, tokenize


@dataclass(frozen=True, slots=True)
class CacheStats:
    """Pieces of text parsed or reused, statements bound or reused, views analysed
    or reused."""

    parse_hits: int = 0
    parse_misses: int = 0
    bind_hits: int = 0
    bind_misses: int = 0
    analysis_hits: int = 0
    analysis_misses: int = 0

    def __add__(self, other: CacheStats) -> CacheStats:
        return CacheStats(
            self.parse_hits + other.parse_hits,
            self.parse_misses + other.parse_misses,
            self.bind_hits + other.bind_hits,
            self.bind_misses + other.bind_misses,
            self.analysis_hits + other.analysis_hits,
            self.analysis_misses + other.analysis_misses,
        )


@dataclass(slots=True)
class _Piece:
    """What a piece of text (up to and with its `;`) parsed to, spans as at `start`
    (its diagnostics' as at `diagnostics_start`: each moves only when it is used)."""

    length: int
    start: int
    statements: tuple[stmt.Statement, ...]
    diagnostics_start: int
    token_diagnostics: tuple[Diagnostic, ...]
    parse_diagnostics: tuple[Diagnostic, ...]
    budget_before: int
    budget_used: int
    bound: list[Bound | None]
    seen: int  # the compile that last used it

    def statements_at(self, start: int) -> tuple[stmt.Statement, ...]:
        if start != self.start:
            self.statements = shifted(self.statements, start - self.start)
            self.start = start
        return self.statements

    def diagnostics_at(self, start: int) -> tuple[tuple[Diagnostic, ...], tuple[Diagnostic, ...]]:
        """Its tokenizer's and its parser's diagnostics."""
        if start != self.diagnostics_start:
            delta = start - self.diagnostics_start
            self.token_diagnostics = shifted(self.token_diagnostics, delta)
            self.parse_diagnostics = shifted(self.parse_diagnostics, delta)
            self.diagnostics_start = start
        return self.token_diagnostics, self.parse_diagnostics


class CompileCache:
    """What the statements of one editor's program compiled to in its latest compiles.

    Safe to share between threads: a compile holds the cache's lock.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pieces: dict[str, _Piece] = {}
        self._compiles = 0
        self._serials = itertools.count()
        self._total = CacheStats()
        self._last = CacheStats()
        self._counts = dict.fromkeys(CacheStats.__slots__, 0)  # during a compile
        # During a compile, by id(): the binding that produced a relation or a
        # view, and the binding whose analysis produced a view.
        self._producers: dict[int, Bound] = {}
        self._analysed_by: dict[int, Bound] = {}

    @property
    def stats(self) -> CacheStats:
        """Counts over every compile so far."""
        return self._total

    @property
    def last(self) -> CacheStats:
        """Counts of the latest compile."""
        return self._last

    @property
    def size(self) -> int:
        """How many pieces of text are kept."""
        return len(self._pieces)

    def compile(self, text: str) -> CompileResult:
        """`compile_program(text)`, reusing what this cache kept."""
        with self._lock:
            self._compiles += 1
            self._counts = dict.fromkeys(self._counts, 0)
            passes = (
                self._syntax_pass,
                bind_pass,
                partial(streaming_pass, view_step=self._analyse_view),
                partial(lower_pass, each_view=self._view_json),
            )
            try:
                result = run_passes(Source(text), passes)
                return replace(result, unplaced=self._unplaced(result))
            finally:
                self._producers.clear()
                self._analysed_by.clear()
                self._forget_unused()
                self._last = CacheStats(**self._counts)
                self._total += self._last

    def _unplaced(self, result: CompileResult) -> tuple[tuple[ViewPlan, int], ...]:
        """The views of the result whose query spans have yet to move, and by how much."""
        if result.stored_plan is None:
            return ()
        found = []
        for view in result.stored_plan.views:
            bound = self._analysed_by.get(id(view))
            if (
                bound is not None
                and bound.query_start != bound.start
                and bound.outcome.view is not None
                and view.query is bound.outcome.view.query  # (a query the analysis kept)
            ):
                found.append((view, bound.start - bound.query_start))
        return tuple(found)

    def _forget_unused(self) -> None:
        oldest = self._compiles - 1
        stale = [text for text, piece in self._pieces.items() if piece.seen < oldest]
        for text in stale:
            del self._pieces[text]

    def _count(self, what: str) -> None:
        self._counts[what] += 1

    # ---------------------------------------------------------------- parsing

    def _syntax_pass(self, state: CompileState) -> CompileState:
        """tokenize_pass and parse_pass, piece by piece."""
        text = state.source.text
        ends = semicolon_ends(text)
        if not ends or ends[-1] != len(text):
            ends.append(len(text))
        budget = Budget()
        token_diagnostics: list[Diagnostic] = []
        parse_diagnostics: list[Diagnostic] = []
        placed: list[tuple[_Piece, int, int]] = []
        start = 0
        for end in ends:
            piece = self._parsed(text, start, end, budget.remaining)
            budget.remaining -= piece.budget_used
            found_by_tokenizer, found_by_parser = piece.diagnostics_at(start)
            token_diagnostics.extend(found_by_tokenizer)
            parse_diagnostics.extend(found_by_parser)
            placed.extend((piece, start, index) for index in range(len(piece.statements)))
            start = end
        diagnostics = state.diagnostics + tuple(token_diagnostics) + tuple(parse_diagnostics)
        return replace(state, diagnostics=diagnostics, statements=_Statements(self, placed))

    def _parsed(self, text: str, start: int, end: int, budget: int) -> _Piece:
        key = text[start:end]
        piece = self._pieces.get(key)
        if piece is not None and fits(piece.budget_before, piece.budget_used, budget):
            self._count("parse_hits")
        else:
            self._count("parse_misses")
            tokens, token_diagnostics = tokenize(text, start, end)
            suggestions = Budget(budget)
            program, parse_diagnostics = parse(tokens, suggestions, origin=start)
            piece = _Piece(
                end - start,
                start,
                program.statements,
                start,
                token_diagnostics,
                parse_diagnostics,
                budget,
                budget - suggestions.remaining,
                [None] * len(program.statements),
                self._compiles,
            )
            self._pieces[key] = piece
        piece.seen = self._compiles
        return piece

    # ---------------------------------------------------------------- binding

    def bind(self, piece: _Piece, start: int, index: int, env: Environment) -> Outcome:
        """`bind_statement` of statement `index` of `piece` at `start`, or its replay."""
        bound = piece.bound[index]
        if (
            bound is not None
            and bound.used != self._compiles
            and replayable(bound, start, env, self._producers)
        ):
            self._count("bind_hits")
            replay(bound, start, env)
        else:
            self._count("bind_misses")
            statement = piece.statements_at(start)[index]
            serial = next(self._serials)
            bound = record_binding(
                statement, start, piece.length, env, self._producers, serial, self._compiles
            )
            piece.bound[index] = bound
        bound.used = self._compiles
        outcome = bound.outcome
        if outcome.relation is not None:
            self._producers[id(outcome.relation)] = bound
        if outcome.view is not None:
            self._producers[id(outcome.view)] = bound
        return outcome

    # ---------------------------------------------------------------- analysis, JSON

    def _analyse_view(self, view: ViewPlan, known: Mapping[str, Facts]) -> ViewAnalysis:
        bound = self._producers.get(id(view))
        analysed = bound.analysed if bound is not None else None
        if (
            analysed is not None
            and analysed.view is view
            and all(known.get(name) == facts for name, facts in analysed.reads)
        ):
            self._count("analysis_hits")
        else:
            self._count("analysis_misses")
            if bound is not None and bound.query_start != bound.start:
                assert bound.outcome.view is view
                view = replace(view, query=shifted(view.query, bound.start - bound.query_start))
                bound.outcome = replace(bound.outcome, view=view)
                bound.query_start = bound.start
            reading = Reading(known)
            analysed = Analysed(view, (), analyse_view(view, reading))
            analysed.reads = tuple(reading.reads.items())
            if bound is not None:
                bound.analysed = analysed
                end = bound.start + bound.length
                if not spans_within(analysed.result.diagnostics, bound.start, end):
                    bound.in_place = True
        if bound is not None:
            self._analysed_by[id(analysed.result.view)] = bound
        return analysed.result

    def _view_json(self, view: ViewPlan) -> ViewJson:
        bound = self._analysed_by.get(id(view))
        analysed = bound.analysed if bound is not None else None
        if analysed is None or analysed.result.view is not view:
            return view_json(view)
        if analysed.json is None:
            analysed.json = view_json(view)
        return analysed.json


class _Statements:
    """The statements of one compile, as kept in the cache's pieces (binder.Statements)."""

    def __init__(self, cache: CompileCache, placed: list[tuple[_Piece, int, int]]) -> None:
        self.cache = cache
        self.placed = placed

    def __len__(self) -> int:
        return len(self.placed)

    def statement(self, index: int) -> stmt.Statement:
        piece, start, position = self.placed[index]
        return piece.statements_at(start)[position]

    def declared_name(self, index: int) -> Identifier | None:
        statement, delta = self._unmoved(index)
        return shifted(declared_name(statement), delta)

    def query_span(self, index: int) -> Span | None:
        statement, delta = self._unmoved(index)
        return shifted(query_span(statement), delta)

    def _unmoved(self, index: int) -> tuple[stmt.Statement, int]:
        """The statement as its piece keeps it, and how far it is from its place now:
        a look at its name does not move the whole statement."""
        piece, start, position = self.placed[index]
        return piece.statements[position], start - piece.start

    def lateness(self) -> tuple[stmt.LatenessStatement, ...]:
        found = []
        for index, (piece, _, position) in enumerate(self.placed):
            if isinstance(piece.statements[position], stmt.LatenessStatement):
                statement = self.statement(index)
                assert isinstance(statement, stmt.LatenessStatement)
                found.append(statement)
        return tuple(found)

    def bind(self, index: int, env: Environment) -> Outcome:
        piece, start, position = self.placed[index]
        return self.cache.bind(piece, start, position, env)
