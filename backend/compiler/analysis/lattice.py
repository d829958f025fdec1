"""The values the streaming analyses compute, apart from the passes that compute them.

Each is a point of a small lattice, combined with `meet` where relations meet
(a union, a join): a fact holds of the result only if it holds of every input.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Facts:
    """What is known of a relation's contents over time.

    stream:      it can be read as a stream (Calcite: it reads a stream, and
                 nothing turns it back into a table).
    insert_only: its changes are only insertions: it never retracts a row.
    waterlines:  per column, whether the compiler infers a waterline (a value
                 below which no future change will fall); monotone columns.
    """

    stream: bool
    insert_only: bool
    waterlines: tuple[bool, ...]

    def meet(self, other: Facts) -> Facts:
        """What holds of both (a union of the two), column by column.

        >>> Facts(True, True, (True, False)).meet(Facts(False, True, (True, True)))
        Facts(stream=False, insert_only=True, waterlines=(True, False))
        """
        return Facts(
            self.stream and other.stream,
            self.insert_only and other.insert_only,
            tuple(a and b for a, b in zip(self.waterlines, other.waterlines, strict=True)),
        )


def unknown(width: int) -> Facts:
    """Nothing known: a table that can change anyhow, without waterlines."""
    return Facts(False, False, (False,) * width)
