"""Each step's deltas once and in order, whichever live messages are lost or repeated."""

import asyncio

from backend.pipelines.events import DeltaMessage
from backend.pipelines.sequencing import DeltaSequencer

STORED: list[DeltaMessage] = [
    {"type": "delta", "step": step, "view": view, "changes": [{"insert": {"s": step}}]}
    for step in range(1, 7)
    for view in ("a", "b")
]


async def stored_between(first: int, last: int) -> list[DeltaMessage]:
    return [d for d in STORED if first <= d["step"] <= last]


def test_lost_and_repeated_live_messages_leave_every_step_once_in_order() -> None:
    async def follow() -> list[tuple[int, str]]:
        sequencer = DeltaSequencer(1, stored_between)  # steps through 1 were sent stored
        live = [STORED[1], STORED[2], STORED[2], STORED[7], STORED[6], STORED[10], STORED[11]]
        sent = []
        for message in live:  # step 2's b, steps 3 and 5 lost; a repeat, an old one
            sent.extend((d["step"], d["view"]) for d in await sequencer.deliver(message))
        return sent

    assert asyncio.run(follow()) == [
        (2, "a"),
        (2, "b"),
        (3, "a"),
        (3, "b"),
        (4, "b"),
        (4, "a"),
        (5, "a"),
        (5, "b"),
        (6, "a"),
        (6, "b"),
    ]
