"""Each step's deltas once and in order, whichever live messages are lost or repeated, and
run by run: a deploy with reset_state numbers the new run's steps from 1 again."""

import asyncio
from typing import Any

from backend.pipelines.events import DeltaMessage
from backend.pipelines.sequencing import DeltaSequencer


def delta(run: int, step: int, view: str) -> DeltaMessage:
    return {"type": "delta", "run": run, "step": step, "view": view, "changes": [{"s": step}]}


STORED: dict[int, list[DeltaMessage]] = {
    run: [delta(run, step, view) for step in range(1, 7) for view in ("a", "b")] for run in (1, 2)
}


async def stored_between(run: int, first: int, last: int) -> list[DeltaMessage]:
    return [d for d in STORED[run] if first <= d["step"] <= last]


def sent(messages: list[Any]) -> list[tuple[Any, ...]]:
    return [
        ("reset", m["run"]) if m["type"] == "reset" else (m["run"], m["step"], m["view"])
        for m in messages
    ]


def test_lost_and_repeated_live_messages_leave_every_step_once_in_order() -> None:
    async def follow() -> list[tuple[Any, ...]]:
        sequencer = DeltaSequencer(1, 1, stored_between)  # steps through 1 were sent stored
        run1 = STORED[1]
        live = [run1[1], run1[2], run1[2], run1[7], run1[6], run1[10], run1[11]]
        out = []
        for message in live:  # step 2's b, steps 3 and 5 lost; a repeat, an old one
            out.extend(sent(await sequencer.deliver(message)))
        return out

    assert asyncio.run(follow()) == [
        (1, 2, "a"),
        (1, 2, "b"),
        (1, 3, "a"),
        (1, 3, "b"),
        (1, 4, "b"),
        (1, 4, "a"),
        (1, 5, "a"),
        (1, 5, "b"),
        (1, 6, "a"),
        (1, 6, "b"),
    ]


def test_a_new_run_resets_the_follower_and_its_steps_from_1_go_through() -> None:
    """The bug this pins down: a follower at step 6 of run 1 took the new run's steps
    1..6 for ones it had sent, and dropped them."""

    async def follow() -> list[tuple[Any, ...]]:
        sequencer = DeltaSequencer(1, 6, stored_between)  # all of run 1 sent
        out = sent(sequencer.reset(2))  # the deploy's reset message
        out += sent(sequencer.reset(2))  # said twice: once is enough
        for message in (STORED[2][0], STORED[2][1], STORED[1][11], STORED[2][4]):
            out += sent(await sequencer.deliver(message))  # a late run-1 message; step 2 lost
        return out

    assert asyncio.run(follow()) == [
        ("reset", 2),
        (2, 1, "a"),
        (2, 1, "b"),
        (2, 2, "a"),
        (2, 2, "b"),
        (2, 3, "a"),
    ]


def test_a_lost_reset_is_noticed_at_the_new_runs_first_delta() -> None:
    async def follow() -> list[tuple[Any, ...]]:
        sequencer = DeltaSequencer(1, 6, stored_between)
        out = sent(await sequencer.deliver(STORED[2][5]))  # run 2, step 3's b: 1..3 filled
        out += sent(sequencer.reset(2))  # the reset, late: nothing more
        return out

    assert asyncio.run(follow()) == [
        ("reset", 2),
        (2, 1, "a"),
        (2, 1, "b"),
        (2, 2, "a"),
        (2, 2, "b"),
        (2, 3, "b"),
    ]
