"""Messages published to a pipeline's websocket group (Channels, Redis layer)."""

import logging
from typing import Any, Literal, TypedDict

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from redis.exceptions import RedisError

log = logging.getLogger("weir.pipelines")


class DeltaMessage(TypedDict):
    type: Literal["delta"]
    step: int
    view: str
    changes: list[dict[str, Any]]


class StateMessage(TypedDict):
    type: Literal["state"]
    state: str
    error: str | None


PipelineMessage = DeltaMessage | StateMessage


def group_name(pipeline_name: str) -> str:
    return f"pipeline.{pipeline_name}"


def publish(pipeline_name: str, message: PipelineMessage) -> None:
    """Send a message to every websocket watching the pipeline, if Redis answers.

    Publishing is best effort: what it announces is stored first, and consumers
    send stored deltas a lost message skipped (consumers.py), so Redis being
    down must not fail the step or the transition that is being announced.
    """
    layer = get_channel_layer()
    assert layer is not None, "CHANNEL_LAYERS is not configured"
    try:
        async_to_sync(layer.group_send)(
            group_name(pipeline_name), {"type": "pipeline.message", "message": message}
        )
    except (OSError, RedisError) as err:
        log.warning("could not publish %s of %s: %s", message["type"], pipeline_name, err)
