"""The streaming pass: facts of every relation in program order, and their rules.

Inputs are seeded (a stream is a stream whose rowtime has a waterline; an
append-only table is insert-only; a LATENESS column has a waterline), then each
view's facts follow from its query (analysis/facts.py) and its own LATENESS
columns. The catalog and the plan get the results (column `waterline`, view
`output_mode`), and the rules (analysis/rules.py) their diagnostics.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from backend.compiler.analysis import rules
from backend.compiler.analysis.facts import facts_of
from backend.compiler.analysis.lattice import Facts
from backend.compiler.diagnostics import Code, Diagnostic, warning
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic.catalog import Catalog, Relation, RelationKind

ROWTIME = "rowtime"


@dataclass(frozen=True, slots=True)
class ViewAnalysis:
    """The facts of a view, its diagnostics, and the view and its relation with
    their output mode, waterlines and (implicit) emit_final."""

    facts: Facts
    diagnostics: tuple[Diagnostic, ...]
    view: plan.ViewPlan
    relation: Relation | None


ViewStep = Callable[[plan.ViewPlan, Mapping[str, Facts]], ViewAnalysis]


def analyse(
    catalog: Catalog, logical: plan.Plan, view_step: ViewStep | None = None
) -> tuple[Catalog, plan.Plan, tuple[Diagnostic, ...]]:
    """`view_step`: `analyse_view`, or what gives the same (the compile cache's)."""
    known: dict[str, Facts] = {}
    found: list[Diagnostic] = []
    updated: dict[str, Relation] = {}
    for declared in catalog.relations:
        if declared.kind is not RelationKind.VIEW:
            facts = input_facts(declared)
            known[declared.name] = facts
            updated[declared.name] = _with_waterlines(declared, facts)
    views: list[plan.ViewPlan] = []
    for view in logical.views:
        analysis = (view_step or analyse_view)(view, known)
        known[view.name] = analysis.facts
        found.extend(analysis.diagnostics)
        if analysis.relation is not None:
            updated[analysis.relation.name] = analysis.relation
        views.append(analysis.view)
    for order in logical.order_checks:
        found.extend(rules.check_order(order, known))
    for pump in logical.pumps:
        check = rules.check_stream if pump.stream else rules.check_relational
        found.extend(check(pump.query, known))
        found.extend(rules.check_lookups(pump.query, known))
    new_catalog = Catalog(tuple(updated.get(r.name, r) for r in catalog.relations), catalog.pumps)
    inputs = tuple(updated.get(r.name, r) for r in logical.inputs)
    return new_catalog, replace(logical, inputs=inputs, views=tuple(views)), tuple(found)


def analyse_view(view: plan.ViewPlan, known: Mapping[str, Facts]) -> ViewAnalysis:
    """The analysis of one view, from the facts of the relations declared before it.

    (A view never reads itself: the binder gives no plan to one that does.)
    """
    facts = facts_of(view.query, known)
    relation: Relation | None = view.relation
    if relation is not None:
        lines = tuple(
            line or column.lateness is not None
            for line, column in zip(facts.waterlines, relation.columns, strict=True)
        )
        facts = replace(facts, waterlines=lines)
    found = _check_view(view, facts, known)
    view, relation = _streamed_when_final(view, relation, facts)
    mode = "append" if facts.insert_only or view.emit_final is not None else "update"
    if view.stream and mode == "update" and not any(d.is_error for d in found):
        found.append(
            warning(
                Code.STREAM_UPDATES,
                "This stream's rows can change, so it emits updates (deletes and inserts): "
                "none of its columns has a waterline to hold rows back until they are final",
                view.query.span,
                hint="select a column with a waterline (rowtime, or the GROUP BY's time "
                "bucket such as FLOOR(rowtime TO HOUR)): each row then comes once, when final",
            )
        )
    if relation is not None:
        relation = replace(
            _with_waterlines(relation, facts), output_mode=mode, insert_only=facts.insert_only
        )
    return ViewAnalysis(
        facts, tuple(found), replace(view, relation=relation, output_mode=mode), relation
    )


def input_facts(relation: Relation) -> Facts:
    stream = relation.kind is RelationKind.STREAM
    lines = tuple(
        column.lateness is not None or (stream and column.name == ROWTIME)
        for column in relation.columns
    )
    return Facts(stream, relation.append_only, lines)


def _check_view(view: plan.ViewPlan, facts: Facts, known: Mapping[str, Facts]) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    if view.stream:
        found.extend(rules.check_stream(view.query, known))
    found.extend(rules.check_lookups(view.query, known))
    if not found:
        found.extend(rules.check_state(view.query, known))
    if view.emit_final is not None and view.emit_final_span is not None:
        column = view.columns[view.emit_final]
        found.extend(
            rules.check_emit_final(
                facts.waterlines, view.emit_final, column.name, view.name, view.emit_final_span
            )
        )
    return found


def _streamed_when_final(
    view: plan.ViewPlan, relation: Relation | None, facts: Facts
) -> tuple[plan.ViewPlan, Relation | None]:
    """A `SELECT STREAM` view is a stream: rows that may still change are held back.

    Calcite emits a streaming aggregate's row once its window is complete ("at 11
    o'clock, Calcite emits a sub-total for every productId that had an order since
    10 o'clock"). When such a view's changes are not insert-only, Weir emits each
    row once its first column with a waterline is below the waterline, as if that
    column were named by `emit_final`. A streaming ORDER BY (Calcite's "Sorting")
    holds rows the same way, on the column of its leading key, so that each step
    emits complete, sorted runs of rows.
    """
    if not view.stream or view.emit_final is not None:
        return view, relation
    final = _sort_column(view.query)
    if final is not None and not facts.waterlines[final]:
        final = None
    if final is None and not facts.insert_only:
        final = next((i for i, line in enumerate(facts.waterlines) if line), None)
    if final is None:
        return view, relation
    if relation is not None:
        relation = replace(relation, emit_final=final)
    return replace(view, emit_final=final), relation


def _sort_column(query: plan.Rel) -> int | None:
    """The output column a top-level ORDER BY's leading key is, or is a function of."""
    if not isinstance(query, plan.Sort) or not query.keys:
        return None
    key = query.keys[0].expr
    while isinstance(key, plan.Call) and key.args:
        key = key.args[0]
    return key.index if isinstance(key, plan.ColumnRef) else None


def _with_waterlines(relation: Relation, facts: Facts) -> Relation:
    """`relation` with its columns' waterline flags; unchanged (not copied) if they are."""
    if all(c.waterline is line for c, line in zip(relation.columns, facts.waterlines, strict=True)):
        return relation
    columns = tuple(
        column if column.waterline is line else replace(column, waterline=line)
        for column, line in zip(relation.columns, facts.waterlines, strict=True)
    )
    return replace(relation, columns=columns)
