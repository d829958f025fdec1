"""Every step's deltas once and in step order, from stored ones and live ones.

Live delta messages (the Channels group of a pipeline, over Redis) can be lost
(Redis restarted, a message published before the listener joined the group);
stored deltas cannot. A follower that has sent every stored delta through step
`sent_through` hands each live delta to `DeltaSequencer.deliver`, which first
answers the stored deltas of the steps the live one skips, and never answers a
delta twice. The websocket consumer and the egress stream both follow this way.
"""

from collections.abc import Awaitable, Callable

from backend.pipelines.events import DeltaMessage

StoredBetween = Callable[[int, int], Awaitable[list[DeltaMessage]]]


class DeltaSequencer:
    def __init__(self, sent_through: int, stored_between: StoredBetween) -> None:
        """`stored_between(first, last)`: the stored deltas of steps first..last, in order."""
        self.sent_through = sent_through
        self.sent_live: set[tuple[int, str]] = set()
        self._stored_between = stored_between

    async def deliver(self, message: DeltaMessage) -> list[DeltaMessage]:
        """What to send for a live delta: stored deltas of the steps it skips, then it
        (unless it was sent already)."""
        step = message["step"]
        out = []
        if step > self.sent_through + 1:
            for missed in await self._stored_between(self.sent_through + 1, step - 1):
                if (missed["step"], missed["view"]) not in self.sent_live:
                    out.append(missed)
            self.sent_through = step - 1
            self.sent_live = {sent for sent in self.sent_live if sent[0] > self.sent_through}
        if step <= self.sent_through or (step, message["view"]) in self.sent_live:
            return out
        self.sent_live.add((step, message["view"]))
        out.append(message)
        return out
