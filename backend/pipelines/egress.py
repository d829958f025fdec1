"""A view's changes as a stream of JSON lines (`GET /pipelines/{name}/egress/{view}`).

The stream joins the pipeline's Channels group (the websockets' delta bus) before
it reads anything stored, so no step falls between the stored part and the live
part; `DeltaSequencer` then sends each step once and in order, filling from the
database any live message that was lost. It ends when the client disconnects
(Django cancels the generator) or loses the right to see the pipeline.
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
from backend.pipelines.events import DeltaMessage
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


class Egress:
    """The lines of one egress stream."""

    def __init__(
        self, user: AbstractBaseUser, pipeline_id: int, view: str, from_: str, snapshot: bool
    ):
        self.user = user
        self.pipeline_id = pipeline_id
        self.view = view
        self.from_ = from_
        self.snapshot = snapshot

    @database_sync_to_async
    def _begin(self) -> tuple[int, int, list[bytes]]:
        """(start step, last stored step, the first lines: the snapshot if asked)."""
        pipeline = Pipeline.objects.get(pk=self.pipeline_id)
        start = start_step(last_step=pipeline.last_step, from_=self.from_)
        lines = []
        if self.snapshot:
            rows = selectors.view_content(pipeline=pipeline, view=self.view, through_step=start)
            lines.append(line({"snapshot": True, "step": start, "rows": rows}))
        return start, pipeline.last_step, lines

    @database_sync_to_async
    def _stored(self, after: int, through: int) -> list[DeltaMessage]:
        deltas = selectors.view_deltas(
            pipeline_id=self.pipeline_id,
            view=self.view,
            after_step=after,
            through_step=through,
            limit=PAGE,
        )
        return [
            {"type": "delta", "step": d.step, "view": d.view, "changes": d.changes} for d in deltas
        ]

    async def _stored_between(self, first: int, last: int) -> list[DeltaMessage]:
        found: list[DeltaMessage] = []
        after = first - 1
        while page := await self._stored(after, last):
            found.extend(page)
            after = page[-1]["step"]
        return found

    @database_sync_to_async
    def _still_allowed(self) -> bool:
        return selectors.pipeline_still_visible(user=self.user, pipeline_id=self.pipeline_id)

    def _delta_line(self, delta: DeltaMessage) -> bytes:
        return line({"step": delta["step"], "changes": delta["changes"]})

    async def lines(self) -> AsyncIterator[bytes]:
        layer = get_channel_layer()
        assert layer is not None, "CHANNEL_LAYERS is not configured"
        group = events.group_name(self.pipeline_id)
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        try:
            start, last_step, first = await self._begin()
            for text in first:
                yield text
            after = start
            while page := await self._stored(after, last_step):
                for delta in page:
                    yield self._delta_line(delta)
                after = page[-1]["step"]
            sequencer = DeltaSequencer(max(start, last_step), self._stored_between)
            checked = time.monotonic()
            while True:
                event = await layer.receive(channel)
                if time.monotonic() - checked > PERMISSION_RECHECK_S:
                    if not await self._still_allowed():
                        return
                    checked = time.monotonic()
                message = event.get("message", {})
                if message.get("type") != "delta":
                    continue
                for delta in await sequencer.deliver(message):
                    if delta["view"] == self.view:
                        yield self._delta_line(delta)
        finally:
            await layer.group_discard(group, channel)
