"""A grouped SELECT: the aggregate node and the select list and HAVING above it.

The select list and HAVING are bound over the FROM scope with aggregate calls
collected (as `AggregateRef`s); `lift` then rewrites them over the aggregate's
output: a subexpression equal to a GROUP BY key becomes a reference to that key,
an aggregate a reference to its column, and any other column is an error.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from backend.compiler.diagnostics import Code, Diagnostic, error
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic.aggregates import shape
from backend.compiler.source import Span


@dataclass
class Grouping:
    keys: tuple[plan.Expr, ...]
    aggregates: list[plan.AggCall]
    diagnostics: list[Diagnostic]
    _positions: dict[object, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for position, key in enumerate(self.keys):
            self._positions.setdefault(shape(key), position)

    @property
    def fields(self) -> tuple[plan.Field, ...]:
        keys = tuple(
            plan.Field(
                key.name if isinstance(key, plan.ColumnRef) else f"key{i}", key.type, key.nullable
            )
            for i, key in enumerate(self.keys)
        )
        aggregates = tuple(
            plan.Field(f"agg{i}", agg.type, agg.nullable) for i, agg in enumerate(self.aggregates)
        )
        return keys + aggregates

    def node(self, source: plan.Rel, span: Span) -> plan.Aggregate:
        return plan.Aggregate(source, self.keys, tuple(self.aggregates), self.fields, span)

    def lift(self, expr: plan.Expr) -> plan.Expr | None:
        """`expr` over the aggregate's output, or None (an ungrouped column, reported)."""
        position = self._positions.get(shape(expr))
        if position is not None:
            column = self.fields[position]
            return plan.ColumnRef(position, column.name, column.type, column.nullable, expr.span)
        match expr:
            case plan.AggregateRef():
                index = len(self.keys) + expr.position
                column = self.fields[index]
                return plan.ColumnRef(index, column.name, column.type, column.nullable, expr.span)
            case plan.ColumnRef():
                if self.keys:
                    message = (
                        f"Column '{expr.name}' must appear in GROUP BY "
                        "or be used in an aggregate function"
                    )
                else:
                    message = (
                        f"Column '{expr.name}' must be used in an aggregate function: "
                        "the query aggregates all its rows (it has no GROUP BY)"
                    )
                self.diagnostics.append(error(Code.NOT_GROUPED, message, expr.span))
                return None
            case plan.Literal():
                return expr
            case plan.Call():
                return self._lift_call(expr)
            case plan.Cast():
                operand = self.lift(expr.operand)
                return None if operand is None else replace(expr, operand=operand)
            case plan.Case():
                whens = [(self.lift(c), self.lift(r)) for c, r in expr.whens]
                else_ = None if expr.else_ is None else self.lift(expr.else_)
                if any(c is None or r is None for c, r in whens) or (
                    expr.else_ is not None and else_ is None
                ):
                    return None
                lifted = tuple((c, r) for c, r in whens if c is not None and r is not None)
                return replace(expr, whens=lifted, else_=else_)

    def _lift_call(self, call: plan.Call) -> plan.Expr | None:
        if call.function == "tumble_end":
            # TUMBLE_END(ts, i) with GROUP BY TUMBLE(ts, i): the key plus the size.
            start = self._positions.get(shape(replace(call, function="tumble_start")))
            if start is not None:
                column = self.fields[start]
                ref = plan.ColumnRef(start, column.name, column.type, column.nullable, call.span)
                return plan.Call("add", (ref, call.args[1]), call.type, call.nullable, call.span)
        args = [self.lift(arg) for arg in call.args]
        present = tuple(arg for arg in args if arg is not None)
        if len(present) < len(args):
            return None
        return replace(call, args=present)
