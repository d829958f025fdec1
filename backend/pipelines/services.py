"""Writes to pipelines: creation, lifecycle requests, state transitions, ingress."""

import json
import logging
import shutil
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from backend.accounts.quotas import require_pipeline_room
from backend.core.errors import ApplicationError, Conflict, NotFound
from backend.pipelines import events
from backend.pipelines.compat import plan_changes
from backend.pipelines.config import RUN_FILES, storage_root, validated_config
from backend.pipelines.ingress import csv_changes, normalize_changes, relation_named
from backend.pipelines.metrics import StepFigures, record_sample
from backend.pipelines.models import (
    DesiredState,
    DroppedRow,
    InputChange,
    OnRunnerFailure,
    Pipeline,
    PipelineMetric,
    PipelineStep,
    State,
    ViewDelta,
)
from backend.pipelines.pumps import pumps_count_rows, pumps_sync
from backend.pipelines.selectors import pipeline_get
from backend.programs.models import ProgramVersion
from backend.programs.selectors import program_latest_of, program_latest_version
from worker.runner.support import unsupported

log = logging.getLogger("weir.pipelines")

# What each operator action asks for: allowed current states, the desired state it
# sets, the transitional state shown until the runner acknowledges, the state awaited.
ACTIONS: dict[str, tuple[frozenset[str], str, str, str]] = {
    "start": (
        frozenset({State.STOPPED, State.FAILED}),
        DesiredState.RUNNING,
        State.STARTING,
        State.RUNNING,
    ),
    "pause": (frozenset({State.RUNNING}), DesiredState.PAUSED, State.PAUSING, State.PAUSED),
    "resume": (frozenset({State.PAUSED}), DesiredState.RUNNING, State.RESUMING, State.RUNNING),
    "stop": (
        frozenset({State.STARTING, State.RUNNING, State.PAUSING, State.PAUSED, State.RESUMING}),
        DesiredState.STOPPED,
        State.STOPPING,
        State.STOPPED,
    ),
}
# Ingress is refused only where no runner will ever read it without a start.
INGRESS_CLOSED = frozenset({State.STOPPED, State.FAILED, State.STOPPING})


def _locked_by_id(pipeline_id: int) -> Pipeline:
    return Pipeline.objects.select_for_update().get(pk=pipeline_id)


def _locked(user: AbstractBaseUser, name: str, team: str | None) -> Pipeline:
    """The visible pipeline `name` (of `team`), its row locked for the transaction."""
    return _locked_by_id(pipeline_get(user=user, name=name, team=team).pk)


@transaction.atomic
def pipeline_create(
    *,
    user: AbstractBaseUser,
    name: str,
    program: str,
    team: str | None = None,
    on_runner_failure: str = OnRunnerFailure.FAIL,
) -> Pipeline:
    """A pipeline on the latest version of `program`, in that program's team (`team` says
    which program when several of the user's teams have one of that name)."""
    version = program_latest_version(user=user, name=program, team=team)
    owner = version.program.team
    require_pipeline_room(owner)  # locks the team: its names are checked one create at a time
    if Pipeline.objects.filter(team=owner, name=name).exists():
        raise Conflict(f"Team '{owner.name}' already has a pipeline named '{name}'")
    _require_runnable(version)
    pipeline = Pipeline.objects.create(
        name=name,
        team=owner,
        program=version.program,
        program_version=version,
        on_runner_failure=on_runner_failure,
    )
    pumps_sync(pipeline=pipeline)
    return pipeline


def _require_runnable(version: ProgramVersion) -> None:
    if version.status != ProgramVersion.Status.OK:
        raise ApplicationError(
            f"Program '{version.program.name}' v{version.version} has errors",
            code="program_has_errors",
            details={"diagnostics": version.diagnostics},
        )
    problems = unsupported(version.plan or {})
    if problems:
        raise ApplicationError(
            f"Program '{version.program.name}' v{version.version} compiles, but the Spark "
            f"runtime cannot run it yet: {'; '.join(problems)}",
            code="program_not_runnable",
            details={"unsupported": problems},
        )


def pipeline_set_state(
    *,
    pipeline_id: int,
    to_state: str,
    actor: str,
    message: str = "",
    error: str | None = None,
    only_from: frozenset[str] | None = None,
) -> bool:
    """Record a transition (with its event) and tell the pipeline's watchers.

    With `only_from`, the transition happens only from one of those states; the
    answer says whether it happened.
    """
    with transaction.atomic():
        pipeline = _locked_by_id(pipeline_id)
        if only_from is not None and pipeline.state not in only_from:
            return False
        from_state = pipeline.state
        pipeline.state = to_state
        pipeline.error = error or ""
        if to_state == State.FAILED:
            pipeline.desired_state = DesiredState.STOPPED
        pipeline.save(update_fields=["state", "error", "desired_state", "updated_at"])
        run = pipeline.run
        transaction.on_commit(
            lambda: events.publish(
                pipeline_id,
                {"type": "state", "state": to_state, "error": error or None, "run": run},
            )
        )
        events.record_event(
            pipeline=pipeline,
            from_state=from_state,
            to_state=to_state,
            actor=actor,
            message=message or (error or ""),
        )
    return True


def pipeline_runner_exited(
    *, pipeline_id: int, actor: str, error: str | None = None, message: str = ""
) -> None:
    """The runner's last word, once its Spark query and session are stopped.

    Clearing `runner_pid` in the same transaction as the final state means a
    start that follows is never mistaken for the exiting runner.
    """
    with transaction.atomic():
        pipeline = _locked_by_id(pipeline_id)
        pipeline.runner_pid = None
        pipeline.save(update_fields=["runner_pid", "updated_at"])
        if error is not None:
            pipeline_set_state(
                pipeline_id=pipeline_id, to_state=State.FAILED, actor=actor, error=error
            )
        elif pipeline.state not in (State.STOPPED, State.FAILED):
            pipeline_set_state(
                pipeline_id=pipeline_id, to_state=State.STOPPED, actor=actor, message=message
            )


def pipeline_request_action(
    *, user: AbstractBaseUser, name: str, action: str, actor: str, team: str | None = None
) -> Pipeline:
    """Ask the runner for start, pause, resume or stop; a Celery task sees it through."""
    with transaction.atomic():
        pipeline = _locked(user, name, team)
        _request(pipeline, action, actor)
    pipeline.refresh_from_db()
    return pipeline


def pipeline_restart(*, pipeline_id: int, actor: str) -> None:
    """Start a pipeline again on behalf of Weir itself (after `make run` restarts)."""
    with transaction.atomic():
        _request(_locked_by_id(pipeline_id), "start", actor)


def _request(pipeline: Pipeline, action: str, actor: str) -> None:
    from worker import tasks  # the worker imports services; import here to avoid a cycle

    if action not in ACTIONS:
        raise NotFound(f"No pipeline action '{action}'")
    allowed, desired, transitional, awaited = ACTIONS[action]
    if pipeline.state not in allowed:
        raise Conflict(
            f"Cannot {action} pipeline '{pipeline.name}' while it is {pipeline.state}",
            details={"state": pipeline.state},
        )
    if action == "start":
        _require_runnable(pipeline.program_version)
    pipeline.desired_state = desired
    pipeline.save(update_fields=["desired_state", "updated_at"])
    pipeline_set_state(pipeline_id=pipeline.pk, to_state=transitional, actor=actor)
    pipeline_id = pipeline.pk
    if action == "start":
        transaction.on_commit(lambda: tasks.pipeline_start.delay(pipeline_id))
    else:
        transaction.on_commit(
            lambda: tasks.pipeline_await_state.delay(pipeline_id, transitional, awaited)
        )


def pipeline_configure(
    *,
    user: AbstractBaseUser,
    name: str,
    actor: str,
    config: Any = None,
    on_runner_failure: str | None = None,
    team: str | None = None,
) -> Pipeline:
    """Change a stopped (or failed) pipeline's runtime configuration.

    A new `storage_dir` takes the pipeline's checkpoint and state along with it, so
    the next start goes on from where the last run stopped.
    """
    with transaction.atomic():
        pipeline = _locked(user, name, team)
        if pipeline.state not in (State.STOPPED, State.FAILED):
            raise ApplicationError(
                f"Stop pipeline '{name}' before changing its configuration",
                code="pipeline_running",
                status=409,
                details={"state": pipeline.state},
            )
        changed = []
        if config is not None:
            new = validated_config(pipeline.config, config, pipeline.program_version.catalog)
            _move_run_files(
                storage_root(pipeline.pk, pipeline.config), storage_root(pipeline.pk, new)
            )
            changed = sorted(k for k in config if new.get(k) != pipeline.config.get(k))
            pipeline.config = new
        if on_runner_failure is not None and on_runner_failure != pipeline.on_runner_failure:
            pipeline.on_runner_failure = on_runner_failure
            changed.append("on_runner_failure")
        pipeline.save(update_fields=["config", "on_runner_failure", "updated_at"])
        if changed:
            events.record_event(
                pipeline=pipeline,
                from_state=pipeline.state,
                to_state=pipeline.state,
                actor=actor,
                message=f"configuration changed: {', '.join(changed)}",
            )
    return pipeline


def _move_run_files(old: Path, new: Path) -> None:
    """Move a run's checkpoint and state from `old` to `new` (both storage roots)."""
    if old.resolve() == new.resolve():
        return
    present = [part for part in RUN_FILES if (old / part).exists()]
    if not present:
        return
    taken = [part for part in RUN_FILES if (new / part).exists()]
    if taken:
        raise ApplicationError(
            f"config.storage_dir: {new} already holds a {taken[0]}; choose an empty directory",
            code="invalid_config",
            details={"key": "storage_dir"},
        )
    try:
        new.mkdir(parents=True, exist_ok=True)
        for part in present:
            shutil.move(old / part, new / part)
    except OSError as err:
        raise ApplicationError(
            f"config.storage_dir: cannot move the pipeline's state to {new}: {err.strerror}",
            code="invalid_config",
            details={"key": "storage_dir"},
        ) from err


def pipeline_deploy(
    *,
    user: AbstractBaseUser,
    name: str,
    actor: str,
    reset_state: bool = False,
    team: str | None = None,
) -> Pipeline:
    """Move a stopped pipeline to its program's latest version.

    The views' state belongs to the plan it was computed for. A new plan that
    keeps every input and view as it was and only adds (compat.py) keeps the
    state: the new views are filled at the next step. Any other change to the
    plan of a pipeline that has run answers 409 `state_reset_required`, naming
    the changes, unless `reset_state`; then the pipeline starts over: its steps,
    deltas, metrics, refused rows, checkpoint and state are cleared, and the next
    start processes every accepted input again (the input log keeps them all).
    """
    with transaction.atomic():
        pipeline = _locked(user, name, team)
        if pipeline.state not in (State.STOPPED, State.FAILED):
            raise Conflict(
                f"Stop pipeline '{name}' before deploying a new program version",
                details={"state": pipeline.state},
            )
        latest = program_latest_of(program=pipeline.program)
        _require_runnable(latest)
        previous = pipeline.program_version
        changes = plan_changes(previous.plan or {}, latest.plan or {})
        ran = pipeline.last_step > 0
        if changes.incompatible and ran and not reset_state:
            raise ApplicationError(
                f"Deploying v{latest.version} to '{name}' changes what its state was computed "
                f"for ({'; '.join(changes.incompatible)}): deploy with reset_state to process "
                "every accepted input again",
                code="state_reset_required",
                status=409,
                details={"changes": changes.incompatible, "version": latest.version},
            )
        messages = []
        if latest.pk != previous.pk:
            messages.append(f"deployed program version {latest.version} (was {previous.version})")
            pipeline.program_version = latest
        reset = reset_state or bool(changes.incompatible and ran)
        if reset:
            _reset_run(pipeline)
            messages.append("state reset: every accepted input is processed again")
        elif changes.added_views and ran:
            _backfill(pipeline, changes.added_views)
            messages.append(f"new views filled at the next step: {', '.join(changes.added_views)}")
        pipeline.save(update_fields=["program_version", "backfill_views", "updated_at"])
        pumps_sync(pipeline=pipeline, reset=reset)
        if messages:
            events.record_event(
                pipeline=pipeline,
                from_state=pipeline.state,
                to_state=pipeline.state,
                actor=actor,
                message="; ".join(messages),
            )
    return pipeline


def _backfill(pipeline: Pipeline, views: list[str]) -> None:
    """Have the next step fill `views` from the contents of what they read.

    A step needs input: a no-op entry (relation "", weight 0, read by no input)
    goes into the input log, so the next start runs that step at once.
    """
    pipeline.backfill_views = [*pipeline.backfill_views, *views]
    pipeline.ingested_seq += 1
    InputChange.objects.create(
        pipeline=pipeline, seq=pipeline.ingested_seq, relation="", weight=0, row={"deploy": views}
    )
    pipeline.save(update_fields=["ingested_seq"])


def _reset_run(pipeline: Pipeline) -> None:
    """Forget what the pipeline computed; keep what it was given (the input log).

    The next run numbers its steps from 1 again: it is a new `run`, and everything that
    follows the pipeline (websockets, egress streams) is told so once this commits, so
    it starts over instead of taking the new run's steps for ones it has sent.
    """
    PipelineStep.objects.filter(pipeline=pipeline).delete()
    ViewDelta.objects.filter(pipeline=pipeline).delete()
    DroppedRow.objects.filter(pipeline=pipeline).delete()
    PipelineMetric.objects.filter(pipeline=pipeline).delete()
    InputChange.objects.filter(pipeline=pipeline, dropped=True).update(dropped=False)
    pipeline.last_step = 0
    pipeline.processed_seq = 0
    pipeline.dropped_counts = {}
    pipeline.backfill_views = []
    pipeline.run += 1
    pipeline.save(
        update_fields=[
            "last_step",
            "processed_seq",
            "dropped_counts",
            "backfill_views",
            "run",
            "updated_at",
        ]
    )
    storage = storage_root(pipeline.pk, pipeline.config)
    transaction.on_commit(lambda: _remove_run_files(storage))
    pipeline_id, run = pipeline.pk, pipeline.run
    transaction.on_commit(lambda: events.publish(pipeline_id, {"type": "reset", "run": run}))


def _remove_run_files(storage: Path) -> None:
    for part in RUN_FILES:
        shutil.rmtree(storage / part, ignore_errors=True)


def pipeline_ingest(
    *,
    user: AbstractBaseUser,
    name: str,
    relation: str,
    changes: Any,
    format: str = "json",
    team: str | None = None,
) -> tuple[int, int]:
    """Append changes to the pipeline's durable input log; all or nothing.

    `changes` is parsed JSON, or CSV text (a header line, then rows to insert)
    when `format` is "csv". Answers (number of changes accepted, sequence
    number of the last one).
    """
    with transaction.atomic():
        # The row lock orders concurrent requests: sequence numbers commit in order,
        # so the runner never reads past a gap that a slower request fills later.
        pipeline = _locked(user, name, team)
        if pipeline.state in INGRESS_CLOSED:
            raise Conflict(
                f"Pipeline '{name}' is {pipeline.state}: start it before pushing data",
                details={"state": pipeline.state},
            )
        target = _input_relation(pipeline, relation)
        if format == "csv":
            changes = csv_changes(target, changes)
        if isinstance(changes, list) and len(changes) > settings.INGRESS_MAX_CHANGES:
            raise ApplicationError(
                f"At most {settings.INGRESS_MAX_CHANGES} changes per request; split the rest",
                code="too_many_changes",
            )
        rows = normalize_changes(target, changes)
        first = pipeline.ingested_seq + 1
        InputChange.objects.bulk_create(
            InputChange(pipeline=pipeline, seq=first + i, relation=target["name"], weight=w, row=r)
            for i, (w, r) in enumerate(rows)
        )
        pipeline.ingested_seq += len(rows)
        pipeline.save(update_fields=["ingested_seq", "updated_at"])
    return len(rows), pipeline.ingested_seq


def _input_relation(pipeline: Pipeline, relation: str) -> dict[str, Any]:
    found = relation_named(pipeline.program_version.catalog.get("relations", []), relation)
    if found is None:
        raise NotFound(f"Pipeline '{pipeline.name}' has no table or stream '{relation}'")
    if found["kind"] not in ("table", "stream"):
        raise ApplicationError(
            f"'{relation}' is a {found['kind']}; data can only be pushed into tables and streams",
            code="not_an_input",
        )
    return found


def _is_power_of_ten(n: int) -> bool:
    while n >= 10 and n % 10 == 0:
        n //= 10
    return n == 1


def _record_dropped(pipeline: Pipeline, step: int, dropped: list[dict[str, Any]]) -> None:
    """Count refused rows per relation; log the 1st, 10th, 100th, ... of each."""
    counts = dict(pipeline.dropped_counts)
    logged = []
    for item in dropped:
        ordinal = counts.get(item["relation"], 0) + 1
        counts[item["relation"]] = ordinal
        if _is_power_of_ten(ordinal):
            logged.append(
                DroppedRow(
                    pipeline=pipeline,
                    step=step,
                    relation=item["relation"],
                    row_json=json.dumps(item["row"]),
                    reason=item["reason"],
                    ordinal=ordinal,
                )
            )
            log.warning(
                "pipeline %s step %s: dropped %s row #%s of %s: %s",
                pipeline.name, step, item["reason"], ordinal, item["relation"], item["row"],
            )  # fmt: skip
    DroppedRow.objects.bulk_create(logged)
    pipeline.dropped_counts = counts


def pipeline_record_step(
    *,
    pipeline_id: int,
    batch_id: int,
    figures: StepFigures,
    deltas: dict[str, list[dict[str, Any]]],
    dropped: list[dict[str, Any]] | None = None,
    pumped: dict[str, int] | None = None,
    dropped_seqs: list[int] | None = None,
    backfilled: bool = False,
) -> int | None:
    """Store a completed step, its view deltas and its metrics sample, then publish them.

    Spark may run a micro-batch again after a crash (foreachBatch is at least
    once): a batch already recorded is not stored or published twice, and the
    answer is None. Otherwise the answer is the new step number. `backfilled`: the
    step filled the views a deploy added (they need no filling any more).
    """
    with transaction.atomic():
        pipeline = _locked_by_id(pipeline_id)
        if PipelineStep.objects.filter(pipeline=pipeline, batch_id=batch_id).exists():
            return None
        step = pipeline.last_step + 1
        PipelineStep.objects.create(
            pipeline=pipeline,
            step=step,
            batch_id=batch_id,
            input_rows=figures.input_rows,
            duration_ms=figures.duration_ms,
        )
        ViewDelta.objects.bulk_create(
            ViewDelta(pipeline=pipeline, step=step, view=view, changes_json=json.dumps(changes))
            for view, changes in deltas.items()
        )
        if dropped_seqs:
            InputChange.objects.filter(pipeline=pipeline, seq__in=dropped_seqs).update(dropped=True)
        pipeline.last_step = step
        pipeline.processed_seq = max(pipeline.processed_seq, figures.processed_seq)
        _record_dropped(pipeline, step, dropped or [])
        pumps_count_rows(pipeline_id=pipeline_id, pumped=pumped or {})
        record_sample(
            pipeline=pipeline,
            step=step,
            figures=figures,
            dropped=dropped or [],
            deltas=deltas,
        )
        if backfilled:
            pipeline.backfill_views = []
        run = pipeline.run
        pipeline.save(
            update_fields=[
                "last_step",
                "processed_seq",
                "dropped_counts",
                "backfill_views",
                "updated_at",
            ]
        )
    for view, changes in deltas.items():
        events.publish(
            pipeline_id,
            {"type": "delta", "run": run, "step": step, "view": view, "changes": changes},
        )
    return step


def pipeline_step_done(*, pipeline_id: int, batch_id: int) -> bool:
    """Has this Spark batch already been recorded as a step?"""
    return PipelineStep.objects.filter(pipeline_id=pipeline_id, batch_id=batch_id).exists()
