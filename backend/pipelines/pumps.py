"""Pumps of a pipeline: listed with the program's view of them, started, paused,
resumed and stopped one by one. The state takes effect at the runner's next step."""

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F

from backend.core.errors import Conflict, NotFound
from backend.pipelines.events import record_event
from backend.pipelines.models import Pipeline, Pump
from backend.pipelines.selectors import pipeline_get

# Each action: the states it is allowed from, and the state it sets.
PUMP_ACTIONS: dict[str, tuple[frozenset[str], str]] = {
    "start": (frozenset({Pump.State.STOPPED}), Pump.State.RUNNING),
    "pause": (frozenset({Pump.State.RUNNING}), Pump.State.PAUSED),
    "resume": (frozenset({Pump.State.PAUSED}), Pump.State.RUNNING),
    "stop": (frozenset({Pump.State.RUNNING, Pump.State.PAUSED}), Pump.State.STOPPED),
}


def declared_pumps(pipeline: Pipeline) -> list[dict[str, Any]]:
    """The pumps of the pipeline's program version, as its catalog lists them."""
    return list(pipeline.program_version.catalog.get("pumps", []))


def pumps_sync(*, pipeline: Pipeline, reset: bool = False) -> None:
    """Make the pipeline's pumps those of its program version: new ones in their
    declared state (STOPPED or running), gone ones removed, others kept as they are
    (or back to their declared state when `reset`)."""
    declared = {p["name"]: p for p in declared_pumps(pipeline)}
    Pump.objects.filter(pipeline=pipeline).exclude(name__in=declared).delete()
    existing = {p.name: p for p in Pump.objects.filter(pipeline=pipeline)}
    for name, entry in declared.items():
        state = Pump.State.RUNNING if entry["started"] else Pump.State.STOPPED
        pump = existing.get(name)
        if pump is None:
            Pump.objects.create(pipeline=pipeline, name=name, state=state)
        elif reset:
            pump.state, pump.processed_rows = state, 0
            pump.save(update_fields=["state", "processed_rows", "updated_at"])


def pump_list(
    *, user: AbstractBaseUser, name: str, team: str | None = None
) -> list[dict[str, Any]]:
    """Each pump with its target, sources, state and rows inserted so far."""
    pipeline = pipeline_get(user=user, name=name, team=team)
    stored = {p.name: p for p in Pump.objects.filter(pipeline=pipeline)}
    return [_shape(entry, stored[entry["name"]]) for entry in declared_pumps(pipeline)]


def pump_request_action(
    *,
    user: AbstractBaseUser,
    name: str,
    pump: str,
    action: str,
    actor: str,
    team: str | None = None,
) -> dict[str, Any]:
    if action not in PUMP_ACTIONS:
        raise NotFound(f"No pump action '{action}'")
    allowed, to_state = PUMP_ACTIONS[action]
    with transaction.atomic():
        found = pipeline_get(user=user, name=name, team=team)
        pipeline = Pipeline.objects.select_for_update().get(pk=found.pk)
        row = Pump.objects.select_for_update().filter(pipeline=pipeline, name=pump).first()
        if row is None:
            raise NotFound(f"Pipeline '{name}' has no pump '{pump}'")
        if row.state not in allowed:
            raise Conflict(
                f"Cannot {action} pump '{pump}' while it is {row.state}",
                details={"state": row.state},
            )
        record_event(
            pipeline=pipeline,
            from_state=pipeline.state,
            to_state=pipeline.state,
            actor=actor,
            message=f"pump {pump}: {row.state} -> {to_state}",
        )
        row.state = to_state
        row.save(update_fields=["state", "updated_at"])
    entry = next(p for p in declared_pumps(pipeline) if p["name"] == pump)
    return _shape(entry, row)


def pump_states(*, pipeline_id: int) -> dict[str, str]:
    """What the runner reads before a step: each pump's state."""
    return dict(Pump.objects.filter(pipeline_id=pipeline_id).values_list("name", "state"))


def pumps_count_rows(*, pipeline_id: int, pumped: dict[str, int]) -> None:
    """Add a step's inserted rows to each pump's total (inside the step's transaction)."""
    for name, rows in pumped.items():
        if rows:
            Pump.objects.filter(pipeline_id=pipeline_id, name=name).update(
                processed_rows=F("processed_rows") + rows
            )


def _shape(entry: dict[str, Any], pump: Pump) -> dict[str, Any]:
    return {
        "name": pump.name,
        "target": entry["target"],
        "sources": entry["sources"],
        "state": pump.state,
        "processed_rows": pump.processed_rows,
    }
