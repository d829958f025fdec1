"""Websocket: a pipeline's state changes and view deltas, live."""

from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from backend.core.errors import NotFound
from backend.pipelines import events, selectors
from backend.pipelines.events import PipelineMessage


class PipelineConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    """On connect: the current state, then stored deltas after `?after_step=n`, then live."""

    async def connect(self) -> None:
        self.pipeline_name: str = self.scope["url_route"]["kwargs"]["name"]
        query = parse_qs(self.scope.get("query_string", b"").decode())
        try:
            after_step = int(query.get("after_step", ["-1"])[0])
            backlog = await self._backlog(after_step)
        except (NotFound, ValueError):
            await self.close(code=4404)
            return
        await self.channel_layer.group_add(events.group_name(self.pipeline_name), self.channel_name)
        await self.accept()
        for message in backlog:
            await self.send_json(message)

    @database_sync_to_async
    def _backlog(self, after_step: int) -> list[PipelineMessage]:
        pipeline = selectors.pipeline_get(name=self.pipeline_name)
        messages: list[PipelineMessage] = [
            {"type": "state", "state": pipeline.state, "error": pipeline.error or None}
        ]
        if after_step >= 0:
            for delta in selectors.pipeline_deltas(pipeline=pipeline, after_step=after_step):
                messages.append(
                    {
                        "type": "delta",
                        "step": delta.step,
                        "view": delta.view,
                        "changes": delta.changes,
                    }
                )
        return messages

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "pipeline_name"):
            await self.channel_layer.group_discard(
                events.group_name(self.pipeline_name), self.channel_name
            )

    async def pipeline_message(self, event: dict[str, Any]) -> None:
        await self.send_json(event["message"])
