"""Reads of pipelines and what they produced: a user sees their teams' pipelines only."""

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet

from backend.core.errors import NotFound
from backend.pipelines.models import DroppedRow, Pipeline, PipelineEvent, ViewDelta


def visible_pipelines(*, user: AbstractBaseUser) -> QuerySet[Pipeline]:
    return Pipeline.objects.filter(program__team__members=user)


def pipeline_get(*, user: AbstractBaseUser, name: str) -> Pipeline:
    pipeline = (
        visible_pipelines(user=user)
        .select_related("program", "program_version")
        .filter(name=name)
        .first()
    )
    if pipeline is None:
        raise NotFound(f"No pipeline named '{name}'")
    return pipeline


def pipeline_list(*, user: AbstractBaseUser) -> QuerySet[Pipeline]:
    return (
        visible_pipelines(user=user).select_related("program", "program_version").order_by("name")
    )


def pipeline_deltas(
    *, pipeline: Pipeline, after_step: int = 0, limit: int = 10_000
) -> list[ViewDelta]:
    """Stored deltas of steps after `after_step`, oldest first."""
    return list(
        ViewDelta.objects.filter(pipeline=pipeline, step__gt=after_step).order_by("step", "id")[
            :limit
        ]
    )


def pipeline_events(*, pipeline: Pipeline) -> QuerySet[PipelineEvent]:
    return pipeline.events.order_by("id")


def pipeline_dropped_rows(*, pipeline: Pipeline, limit: int = 1000) -> list[DroppedRow]:
    """The logged refused rows, newest first."""
    return list(DroppedRow.objects.filter(pipeline=pipeline).order_by("-id")[:limit])
