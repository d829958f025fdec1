"""'did you mean ...?' hints, by edit distance."""

from __future__ import annotations

from collections.abc import Iterable


class Budget:
    """How many more edit distances this compile may compute for hints.

    Hints cost (unknown names x candidates) edit distances: a pasted program with
    hundreds of errors over hundreds of relations would make every keystroke slow.
    Past the budget, diagnostics come without a hint. One budget per compile
    pass, never shared, so the output stays deterministic.
    """

    __slots__ = ("remaining",)

    def __init__(self, comparisons: int = 2_000) -> None:
        self.remaining = comparisons


def did_you_mean(name: str, candidates: Iterable[str], budget: Budget | None = None) -> str | None:
    """A hint naming the candidate closest to `name`, if one is close enough.

    Case is ignored when measuring, so a quoted "Orders" suggests orders. Short
    names get no suggestion unless only their case differs: every one-letter name
    is one edit away from every other.

    >>> did_you_mean("amout", ["id", "amount"])
    "did you mean 'amount'?"
    >>> did_you_mean("zzz", ["id", "amount"]) is None
    True
    """
    target = name.lower()
    limit = len(target) // 3
    best: str | None = None
    best_distance = limit + 1
    for candidate in candidates:
        if candidate == name:
            continue
        lowered = candidate.lower()
        if abs(len(lowered) - len(target)) >= best_distance:
            continue
        if budget is not None:
            if budget.remaining <= 0:
                break
            budget.remaining -= 1
        distance = _distance(target, lowered, best_distance)
        if distance < best_distance:
            best, best_distance = candidate, distance
    if best is None:
        return None
    if best.lower() == target:
        return f"did you mean '{best}'? Names in double quotes are case-sensitive"
    return f"did you mean '{best}'?"


def _distance(a: str, b: str, give_up_at: int) -> int:
    """Damerau-Levenshtein distance (adjacent swaps cost 1), or `give_up_at` if larger.

    >>> _distance("ordres", "orders", 3), _distance("amout", "amount", 3)
    (1, 1)
    """
    if abs(len(a) - len(b)) >= give_up_at:
        return give_up_at
    before_previous: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        char_a = a[i - 1]
        current = [i]
        row_best = i
        for j in range(1, len(b) + 1):
            char_b = b[j - 1]
            best = previous[j - 1] + (char_a != char_b)
            if previous[j] + 1 < best:
                best = previous[j] + 1
            if current[j - 1] + 1 < best:
                best = current[j - 1] + 1
            if i > 1 and j > 1 and char_a == b[j - 2] and a[i - 2] == char_b:
                best = min(best, before_previous[j - 2] + 1)
            current.append(best)
            row_best = min(row_best, best)
        if row_best >= give_up_at:  # every later row can only be worse
            return give_up_at
        before_previous, previous = previous, current
    return min(previous[-1], give_up_at)
