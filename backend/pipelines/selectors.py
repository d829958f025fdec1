"""Reads of pipelines and what they produced: a user sees their teams' pipelines only."""

import json
from collections import Counter
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet

from backend.accounts.naming import one_named
from backend.pipelines.models import DroppedRow, Pipeline, PipelineEvent, ViewDelta


def visible_pipelines(*, user: AbstractBaseUser) -> QuerySet[Pipeline]:
    return Pipeline.objects.filter(team__members=user)


def pipeline_get(*, user: AbstractBaseUser, name: str, team: str | None = None) -> Pipeline:
    """The visible pipeline `name` (of `team`): 404 when there is none, 400 team_required
    when several of the user's teams have one (names are unique within a team only)."""
    visible = visible_pipelines(user=user).select_related("program", "program_version")
    return one_named(visible, name=name, team=team, noun="pipeline")


def pipeline_still_visible(*, user: AbstractBaseUser, pipeline_id: int) -> bool:
    """May `user` still see the pipeline a stream follows (re-checked while it runs)?"""
    return bool(user.is_active and visible_pipelines(user=user).filter(pk=pipeline_id).exists())


def pipeline_list(*, user: AbstractBaseUser) -> QuerySet[Pipeline]:
    return (
        visible_pipelines(user=user)
        .select_related("program", "program_version", "team")
        .order_by("name", "team__name")
    )


def _of_run(deltas: QuerySet[ViewDelta], run: int | None) -> QuerySet[ViewDelta]:
    """`deltas` while the pipeline is still in `run`: a reset deletes a run's deltas and
    starts the next run in one transaction, and one query (a join) sees either side of it,
    so a step of the next run is never taken for one of `run`."""
    return deltas if run is None else deltas.filter(pipeline__run=run)


def pipeline_deltas(
    *, pipeline_id: int, after_step: int = 0, run: int | None = None, limit: int = 10_000
) -> list[ViewDelta]:
    """Stored deltas of steps after `after_step` (of `run`, if given), oldest first."""
    deltas = ViewDelta.objects.filter(pipeline_id=pipeline_id, step__gt=after_step)
    return list(_of_run(deltas, run).order_by("step", "id")[:limit])


def pipeline_events(*, pipeline: Pipeline) -> QuerySet[PipelineEvent]:
    return pipeline.events.order_by("id")


def pipeline_dropped_rows(*, pipeline: Pipeline, limit: int = 1000) -> list[DroppedRow]:
    """The logged refused rows, newest first."""
    return list(DroppedRow.objects.filter(pipeline=pipeline).order_by("-id")[:limit])


def view_deltas(
    *,
    pipeline_id: int,
    view: str,
    after_step: int,
    through_step: int,
    run: int | None = None,
    limit: int = 1000,
) -> list[ViewDelta]:
    """The view's stored deltas of steps after..through (of `run`, if given; at most
    `limit`), oldest first."""
    deltas = ViewDelta.objects.filter(
        pipeline_id=pipeline_id, view=view, step__gt=after_step, step__lte=through_step
    )
    return list(_of_run(deltas, run).order_by("step")[:limit])


def view_counts(
    *, pipeline_id: int, view: str, through_step: int, run: int | None = None
) -> tuple[dict[str, int], dict[str, dict[str, Any]]]:
    """The view after `through_step` (of `run`, if given), its stored deltas added up:
    (count of each row by its sorted-keys JSON text, each such row as stored, in the
    view's column order)."""
    counts: Counter[str] = Counter()
    rows: dict[str, dict[str, Any]] = {}
    deltas = _of_run(
        ViewDelta.objects.filter(pipeline_id=pipeline_id, view=view, step__lte=through_step),
        run,
    )
    for changes_json in deltas.order_by("step").values_list("changes_json", flat=True).iterator():
        for change in json.loads(changes_json):
            ((kind, row),) = change.items()
            key = json.dumps(row, sort_keys=True)
            rows.setdefault(key, row)
            counts[key] += 1 if kind == "insert" else -1
    return {key: count for key, count in counts.items() if count}, rows


def view_content(*, pipeline: Pipeline, view: str, through_step: int) -> list[dict[str, Any]]:
    """The view's rows after `through_step` (a row as many times as it is there), in a
    stable order."""
    counts, rows = view_counts(
        pipeline_id=pipeline.pk, view=view, through_step=through_step, run=pipeline.run
    )
    return [rows[key] for key in sorted(counts) for _ in range(max(counts[key], 0))]
