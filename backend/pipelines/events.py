"""Messages published to a pipeline's websocket group (Channels, Redis layer), and the
pipeline events that are recorded and published together."""

import logging
from typing import Any, Literal, TypedDict

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from redis.exceptions import RedisError

from backend.pipelines.models import Pipeline, PipelineEvent

log = logging.getLogger("weir.pipelines")


class DeltaMessage(TypedDict):
    type: Literal["delta"]
    run: int  # steps are numbered from 1 in each run (Pipeline.run)
    step: int
    view: str
    changes: list[dict[str, Any]]


class StateMessage(TypedDict):
    type: Literal["state"]
    state: str
    error: str | None
    run: int


class ResetMessage(TypedDict):
    """The pipeline's run started over (a deploy with reset_state): what a follower has of
    the run before is void, and the new run's steps are numbered from 1 again."""

    type: Literal["reset"]
    run: int


class EventMessage(TypedDict):
    """A recorded pipeline event (GET /pipelines/{name}/events lists them): who did what."""

    type: Literal["event"]
    id: int
    from_state: str
    to_state: str
    actor: str
    message: str
    created_at: str  # ISO 8601


PipelineMessage = DeltaMessage | StateMessage | EventMessage | ResetMessage


def group_name(pipeline_id: int) -> str:
    """A pipeline's Channels group, by id: names are unique within a team only."""
    return f"pipeline.{pipeline_id}"


def publish(pipeline_id: int, message: PipelineMessage) -> None:
    """Send a message to every websocket watching the pipeline, if Redis answers.

    Publishing is best effort: what it announces is stored first, and consumers
    send stored deltas a lost message skipped (consumers.py), so Redis being
    down must not fail the step or the transition that is being announced.
    """
    layer = get_channel_layer()
    assert layer is not None, "CHANNEL_LAYERS is not configured"
    try:
        async_to_sync(layer.group_send)(
            group_name(pipeline_id), {"type": "pipeline.message", "message": message}
        )
    except (OSError, RedisError) as err:
        log.warning("could not publish %s of pipeline %s: %s", message["type"], pipeline_id, err)


def event_message(event: PipelineEvent) -> EventMessage:
    return {
        "type": "event",
        "id": event.pk,
        "from_state": event.from_state,
        "to_state": event.to_state,
        "actor": event.actor,
        "message": event.message,
        # As the events endpoint (DRF) writes times: UTC as "Z".
        "created_at": event.created_at.isoformat().replace("+00:00", "Z"),
    }


def record_event(
    *, pipeline: Pipeline, from_state: str, to_state: str, actor: str, message: str = ""
) -> PipelineEvent:
    """Store a pipeline event; once its transaction commits, every websocket watching the
    pipeline receives it (an event that is rolled back is never announced)."""
    event = PipelineEvent.objects.create(
        pipeline=pipeline, from_state=from_state, to_state=to_state, actor=actor, message=message
    )
    pipeline_id, message_ = pipeline.pk, event_message(event)
    transaction.on_commit(lambda: publish(pipeline_id, message_))
    return event
