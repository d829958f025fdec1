"""Lifecycle tasks. Each takes a pipeline id, checks the stored state first, and is
safe to run twice (acks_late): the runner does the transition, the task sees it
through and marks the pipeline failed when the runner dies or does not answer."""

import time

from celery import shared_task
from django.conf import settings
from django.db import transaction

from backend.pipelines.config import effective_config
from backend.pipelines.models import DesiredState, OnRunnerFailure, Pipeline, State
from backend.pipelines.services import pipeline_restart, pipeline_set_state
from worker import launcher, spares

POLL_S = 0.2
TASK_ACTOR = "worker"
MONITOR_ACTOR = "monitor"
# States in which a runner must be alive; transitions have their own waiting tasks.
SETTLED_WITH_RUNNER = (State.RUNNING, State.PAUSED)


@shared_task(name="pipelines.start")
def pipeline_start(pipeline_id: int) -> str:
    pipeline = Pipeline.objects.get(pk=pipeline_id)
    if pipeline.state != State.STARTING or pipeline.desired_state != DesiredState.RUNNING:
        return f"not started: the pipeline is {pipeline.state}"
    if not launcher.runner_alive(pipeline.runner_pid, pipeline_id):
        config = effective_config(pipeline.config)
        pid = spares.take_spare(pipeline_id, config) or launcher.spawn_runner(pipeline_id)
        Pipeline.objects.filter(pk=pipeline_id).update(runner_pid=pid)
        spares.ensure_spare()  # so that the next start is warm
    return pipeline_await_state(pipeline_id, State.STARTING, State.RUNNING)


@shared_task(name="pipelines.await_state")
def pipeline_await_state(pipeline_id: int, transitional: str, target: str) -> str:
    """Wait until the runner moves the pipeline from `transitional` to `target`.

    Fails the pipeline if the runner dies or does not answer in time. Once the
    pipeline has left `transitional` some other way (a later action), this
    task's transition is over and it leaves the pipeline alone.
    """
    deadline = time.monotonic() + settings.PIPELINE_TRANSITION_TIMEOUT_S
    while time.monotonic() < deadline:
        pipeline = Pipeline.objects.get(pk=pipeline_id)
        if pipeline.state != transitional:
            return pipeline.state
        if not launcher.runner_alive(pipeline.runner_pid, pipeline_id):
            return _runner_gone(pipeline, transitional, target)
        time.sleep(POLL_S)
    pipeline = Pipeline.objects.get(pk=pipeline_id)
    if pipeline.state != transitional:
        return pipeline.state
    if target == State.STOPPED:
        launcher.kill_runner(pipeline.runner_pid or 0, pipeline_id)
        pipeline_set_state(
            pipeline_id=pipeline_id,
            to_state=State.STOPPED,
            actor=TASK_ACTOR,
            message="runner did not stop in time and was killed",
            only_from=frozenset({transitional}),
        )
        return State.STOPPED
    pipeline_set_state(
        pipeline_id=pipeline_id,
        to_state=State.FAILED,
        actor=TASK_ACTOR,
        error=f"runner did not reach '{target}' in time",
        only_from=frozenset({transitional}),
    )
    return State.FAILED


def _runner_gone(pipeline: Pipeline, transitional: str, target: str) -> str:
    """The runner is not running while the pipeline waits for it."""
    only_from = frozenset({transitional})  # unless it answered, then exited
    if target == State.STOPPED:
        pipeline_set_state(
            pipeline_id=pipeline.pk,
            to_state=State.STOPPED,
            actor=TASK_ACTOR,
            message="runner not running",
            only_from=only_from,
        )
    else:
        error = "Spark runner exited unexpectedly"
        tail = launcher.log_tail(pipeline.pk)
        pipeline_set_state(
            pipeline_id=pipeline.pk,
            to_state=State.FAILED,
            actor=TASK_ACTOR,
            error=f"{error}\n{tail}" if tail else error,
            only_from=only_from,
        )
    pipeline.refresh_from_db()
    return pipeline.state


@shared_task(name="pipelines.monitor")
def pipelines_monitor() -> list[str]:
    """Notice dead Spark runners (run every few seconds by Celery beat).

    A pipeline whose runner died is marked failed, or started again from its
    checkpoint when it is configured to restart.
    """
    noticed = []
    for pipeline in Pipeline.objects.filter(state__in=SETTLED_WITH_RUNNER):
        if launcher.runner_alive(pipeline.runner_pid, pipeline.pk):
            continue
        error = "Spark runner died"
        tail = launcher.log_tail(pipeline.pk)
        # One transaction: a pipeline that restarts is never seen resting in `failed`
        # (both transitions are still recorded as events).
        with transaction.atomic():
            failed = pipeline_set_state(
                pipeline_id=pipeline.pk,
                to_state=State.FAILED,
                actor=MONITOR_ACTOR,
                error=f"{error}\n{tail}" if tail else error,
                only_from=frozenset(SETTLED_WITH_RUNNER),
            )
            if failed and pipeline.on_runner_failure == OnRunnerFailure.RESTART:
                pipeline_restart(pipeline_id=pipeline.pk, actor=MONITOR_ACTOR)
        if failed:
            noticed.append(pipeline.name)
    return noticed
