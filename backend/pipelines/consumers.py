"""Websocket: a pipeline's state changes and view deltas, live."""

import time
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from backend.core.errors import ApplicationError, error_body
from backend.pipelines import events, selectors
from backend.pipelines.events import DeltaMessage, PipelineMessage
from backend.pipelines.models import ViewDelta
from backend.pipelines.sequencing import DeltaSequencer

CLOSE_UNAUTHENTICATED = 4401
CLOSE_NOT_FOUND = 4404
# Several of the user's teams have a pipeline of that name: `?team=` says which.
CLOSE_TEAM_REQUIRED = 4400
# How often a live connection re-checks that its user may still see the pipeline.
PERMISSION_RECHECK_S = 2.0


class PipelineConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    """On connect: the current state, then stored deltas after `?after_step=n`, then live.

    Step numbers start again from 1 in each run of the pipeline (a deploy with
    reset_state starts a new one): `?run=r` says which run `after_step` counts in.
    When the pipeline is in another run now, the client gets a `reset` message (to
    clear what it shows) and the stored deltas of the current run from its start.
    While connected, a reset is passed on as it happens (sequencing.py).

    The user (session or API key) must see the pipeline: checked at connect and
    again while messages flow, so a user removed from the team stops receiving.
    `?team=` says which pipeline the name means when several of the user's teams
    have one; once connected, the consumer follows that pipeline by id.

    Every step's deltas reach the client once and in order, even when live
    messages are lost (backend/pipelines/sequencing.py).
    """

    async def connect(self) -> None:
        self.pipeline_name: str = self.scope["url_route"]["kwargs"]["name"]
        query = parse_qs(self.scope.get("query_string", b"").decode())
        try:
            after_step = int(query.get("after_step", ["-1"])[0])
            run = int(query["run"][0]) if query.get("run") else None
            team = query.get("team", [""])[0] or None
            backlog = await self._backlog(after_step, run, team)
        except PermissionError:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        except ApplicationError as err:
            if err.code == "team_required":  # the user's own teams: nothing to hide
                await self.accept()
                await self.send_json(
                    {"type": "error", **error_body(err.message, err.code, err.details)}
                )
                await self.close(code=CLOSE_TEAM_REQUIRED)
            else:
                await self.close(code=CLOSE_NOT_FOUND)
            return
        except ValueError:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.checked_at = time.monotonic()
        await self.channel_layer.group_add(events.group_name(self.pipeline_id), self.channel_name)
        await self.accept()
        for message in backlog:
            await self.send_json(message)

    @database_sync_to_async
    def _backlog(self, after_step: int, run: int | None, team: str | None) -> list[PipelineMessage]:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            raise PermissionError
        pipeline = selectors.pipeline_get(user=user, name=self.pipeline_name, team=team)
        self.pipeline_id = pipeline.pk
        # Steps are stored whole (one transaction each), so every delta of the steps
        # through `last_step` is stored by now.
        self.sequencer = DeltaSequencer(pipeline.run, pipeline.last_step, self._stored_between)
        messages: list[PipelineMessage] = [
            {
                "type": "state",
                "state": pipeline.state,
                "error": pipeline.error or None,
                "run": pipeline.run,
            }
        ]
        if run is not None and run != pipeline.run:  # the client's steps are another run's
            messages.append({"type": "reset", "run": pipeline.run})
            after_step = min(after_step, 0)
        if after_step >= 0:
            deltas = selectors.pipeline_deltas(
                pipeline_id=pipeline.pk, after_step=after_step, run=pipeline.run
            )
            messages.extend(
                _delta_message(d, pipeline.run) for d in deltas if d.step <= pipeline.last_step
            )
        return messages

    @database_sync_to_async
    def _stored_between(self, run: int, first: int, last: int) -> list[DeltaMessage]:
        deltas = selectors.pipeline_deltas(
            pipeline_id=self.pipeline_id, after_step=first - 1, run=run
        )
        return [_delta_message(d, run) for d in deltas if d.step <= last]

    @database_sync_to_async
    def _still_allowed(self) -> bool:
        return selectors.pipeline_still_visible(
            user=self.scope["user"], pipeline_id=self.pipeline_id
        )

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "pipeline_id"):
            await self.channel_layer.group_discard(
                events.group_name(self.pipeline_id), self.channel_name
            )

    async def pipeline_message(self, event: dict[str, Any]) -> None:
        if time.monotonic() - self.checked_at > PERMISSION_RECHECK_S:
            if not await self._still_allowed():
                await self.close(code=CLOSE_UNAUTHENTICATED)
                return
            self.checked_at = time.monotonic()
        message = event["message"]
        if message["type"] == "delta":
            for out in await self.sequencer.deliver(message):
                await self.send_json(out)
        elif message["type"] == "reset":
            for out in self.sequencer.reset(message["run"]):
                await self.send_json(out)
        else:
            await self.send_json(message)


def _delta_message(delta: ViewDelta, run: int) -> DeltaMessage:
    return {
        "type": "delta",
        "run": run,
        "step": delta.step,
        "view": delta.view,
        "changes": delta.changes,
    }
