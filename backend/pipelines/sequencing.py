"""Every step's deltas once and in step order, from stored ones and live ones, run by run.

Live delta messages (the Channels group of a pipeline, over Redis) can be lost
(Redis restarted, a message published before the listener joined the group);
stored deltas cannot. A follower that has sent every stored delta through step
`sent_through` of run `run` hands each live delta to `DeltaSequencer.deliver`,
which first answers the stored deltas of the steps the live one skips, and never
answers a delta twice. The websocket consumer and the egress stream both follow
this way.

A deploy with reset_state starts a new run of the pipeline, whose steps are
numbered from 1 again (Pipeline.run). Step numbers alone would make the new run's
first steps look like ones already sent, so every delta carries its run: the
first message of a later run, the `reset` the deploy publishes or a delta of that
run (if the reset was lost), makes the sequencer start over from step 0 of that
run and answer a `reset` message first, so the client can clear what it shows.
Messages of an earlier run are dropped.
"""

from collections.abc import Awaitable, Callable

from backend.pipelines.events import DeltaMessage, PipelineMessage, ResetMessage

# stored_between(run, first, last): the stored deltas of steps first..last of `run`, in
# order (none once the pipeline has gone on to a later run).
StoredBetween = Callable[[int, int, int], Awaitable[list[DeltaMessage]]]


class DeltaSequencer:
    def __init__(self, run: int, sent_through: int, stored_between: StoredBetween) -> None:
        self.run = run
        self.sent_through = sent_through
        self.sent_live: set[tuple[int, str]] = set()
        self._stored_between = stored_between

    def reset(self, run: int) -> list[ResetMessage]:
        """A `reset` to `run` arrived: the reset to send on (none if the sequencer is
        in that run or a later one already)."""
        if run <= self.run:
            return []
        self.run, self.sent_through, self.sent_live = run, 0, set()
        return [{"type": "reset", "run": run}]

    async def deliver(self, message: DeltaMessage) -> list[PipelineMessage]:
        """What to send for a live delta: a reset if it is of a later run, the stored
        deltas of the steps it skips, then it (unless it was sent already)."""
        if message["run"] < self.run:
            return []
        out: list[PipelineMessage] = [*self.reset(message["run"])]
        step = message["step"]
        if step > self.sent_through + 1:
            for missed in await self._stored_between(self.run, self.sent_through + 1, step - 1):
                if (missed["step"], missed["view"]) not in self.sent_live:
                    out.append(missed)
            self.sent_through = step - 1
            self.sent_live = {sent for sent in self.sent_live if sent[0] > self.sent_through}
        if step <= self.sent_through or (step, message["view"]) in self.sent_live:
            return out
        self.sent_live.add((step, message["view"]))
        out.append(message)
        return out
