"""A view's changes as a stream of JSON lines (`GET /pipelines/{name}/egress/{view}`).

The stream joins the pipeline's Channels group (the websockets' delta bus) before
it reads anything stored, so no step falls between the stored part and the live
part; `DeltaSequencer` then sends each step once and in order, filling from the
database any live message that was lost. It ends when the client disconnects
(Django cancels the generator) or loses the right to see the pipeline.

Every line carries the pipeline's `run`: a deploy with reset_state starts a new
run, numbered from step 1 again. The stream then sends `{"reset": true, "run": n}`
and goes on with the new run's steps from its first; a client resuming with
`from=k&run=r` of a run that is over gets the same (the current run from its start).
"""

import json
import time
from collections.abc import AsyncIterator
from typing import Any

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.contrib.auth.models import AbstractBaseUser

from backend.core.errors import ApplicationError
from backend.pipelines import events, selectors
from backend.pipelines.events import DeltaMessage, PipelineMessage
from backend.pipelines.models import Pipeline
from backend.pipelines.sequencing import DeltaSequencer

PERMISSION_RECHECK_S = 2.0
PAGE = 500  # stored deltas read per query


def line(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload, ensure_ascii=False).encode() + b"\n"


def start_step(*, last_step: int, from_: str) -> int:
    """The step after which the stream starts: `now` is the last recorded step."""
    if from_ == "now":
        return last_step
    try:
        step = int(from_)
    except ValueError:
        step = -1
    if not 0 <= step <= last_step:
        raise ApplicationError(
            f"from must be 'now' or a step from 0 to the last one ({last_step})",
            details={"field": "from"},
        )
    return step


def run_param(text: str | None) -> int | None:
    """`run=r`: the run a client's `from` step counts in (None: the current one)."""
    if text is None:
        return None
    try:
        run = int(text)
    except ValueError:
        run = 0
    if run < 1:
        raise ApplicationError("run must be a run number (1 or more)", details={"field": "run"})
    return run


class Egress:
    """The lines of one egress stream."""

    def __init__(
        self,
        user: AbstractBaseUser,
        pipeline_id: int,
        view: str,
        from_: str,
        snapshot: bool,
        run: int,
    ):
        """`from_` counts in `run` (the client's, or the one the request was checked in)."""
        self.user = user
        self.pipeline_id = pipeline_id
        self.view = view
        self.from_ = from_
        self.snapshot = snapshot
        self.run = run

    @database_sync_to_async
    def _begin(self) -> tuple[int, int, int, list[bytes]]:
        """(run, start step, last stored step, the first lines: a reset if `from` counts
        in another run than the current one, the snapshot if asked)."""
        pipeline = Pipeline.objects.get(pk=self.pipeline_id)
        lines = []
        if pipeline.run != self.run:
            lines.append(line({"reset": True, "run": pipeline.run}))
            start = 0
        else:
            start = start_step(last_step=pipeline.last_step, from_=self.from_)
        if self.snapshot:
            rows = selectors.view_content(pipeline=pipeline, view=self.view, through_step=start)
            lines.append(line({"snapshot": True, "run": pipeline.run, "step": start, "rows": rows}))
        return pipeline.run, start, pipeline.last_step, lines

    @database_sync_to_async
    def _stored(self, run: int, after: int, through: int) -> list[DeltaMessage]:
        deltas = selectors.view_deltas(
            pipeline_id=self.pipeline_id,
            view=self.view,
            after_step=after,
            through_step=through,
            run=run,
            limit=PAGE,
        )
        return [
            {"type": "delta", "run": run, "step": d.step, "view": d.view, "changes": d.changes}
            for d in deltas
        ]

    async def _stored_between(self, run: int, first: int, last: int) -> list[DeltaMessage]:
        found: list[DeltaMessage] = []
        after = first - 1
        while page := await self._stored(run, after, last):
            found.extend(page)
            after = page[-1]["step"]
        return found

    @database_sync_to_async
    def _still_allowed(self) -> bool:
        return selectors.pipeline_still_visible(user=self.user, pipeline_id=self.pipeline_id)

    def _line(self, message: PipelineMessage) -> bytes | None:
        """The line for a message the sequencer answered (None: another view's delta)."""
        if message["type"] == "reset":
            return line({"reset": True, "run": message["run"]})
        if message["type"] == "delta" and message["view"] == self.view:
            return line(
                {"run": message["run"], "step": message["step"], "changes": message["changes"]}
            )
        return None

    async def lines(self) -> AsyncIterator[bytes]:
        layer = get_channel_layer()
        assert layer is not None, "CHANNEL_LAYERS is not configured"
        group = events.group_name(self.pipeline_id)
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        try:
            run, start, last_step, first = await self._begin()
            for text in first:
                yield text
            after = start
            while page := await self._stored(run, after, last_step):
                for delta in page:
                    if (text := self._line(delta)) is not None:
                        yield text
                after = page[-1]["step"]
            sequencer = DeltaSequencer(run, max(start, last_step), self._stored_between)
            checked = time.monotonic()
            while True:
                event = await layer.receive(channel)
                if time.monotonic() - checked > PERMISSION_RECHECK_S:
                    if not await self._still_allowed():
                        return
                    checked = time.monotonic()
                message = event.get("message", {})
                if message.get("type") == "delta":
                    answered: list[PipelineMessage] = await sequencer.deliver(message)
                elif message.get("type") == "reset":
                    answered = [*sequencer.reset(message["run"])]
                else:
                    continue
                for out in answered:
                    if (text := self._line(out)) is not None:
                        yield text
        finally:
            await layer.group_discard(group, channel)
