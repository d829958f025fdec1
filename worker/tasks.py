"""Lifecycle tasks. Each takes a pipeline id, checks the stored state first, and is
safe to run twice (acks_late): the runner does the transition, the task sees it
through and marks the pipeline failed when the runner dies or does not answer.
While it runs a task holds the transition's lease (worker/inflight.py): a second
task for it does nothing, and the monitor queues again a transition whose task
died with its worker."""

import time
from functools import partial

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from backend.pipelines.config import effective_config
from backend.pipelines.events import record_event
from backend.pipelines.models import DesiredState, OnRunnerFailure, Pipeline, State
from backend.pipelines.services import pipeline_restart, pipeline_set_state
from worker import inflight, launcher, spares

POLL_S = 0.2
TASK_ACTOR = "worker"
MONITOR_ACTOR = "monitor"
# States in which a runner must be alive; transitions have their own waiting tasks.
SETTLED_WITH_RUNNER = (State.RUNNING, State.PAUSED)
# Each transitional state and the state its task awaits.
TRANSITIONS = {
    State.STARTING: State.RUNNING,
    State.PAUSING: State.PAUSED,
    State.RESUMING: State.RUNNING,
    State.STOPPING: State.STOPPED,
}
# A transition without a task in flight for this long is queued again: longer than a
# lease lives (a dead task's lease must have expired) and than a queued task waits for
# a free worker thread in the normal course.
REQUEUE_AFTER_S = inflight.LEASE_TTL_S


@shared_task(name="pipelines.start")
def pipeline_start(pipeline_id: int) -> str:
    with inflight.transition(pipeline_id, State.STARTING) as lease:
        if lease is None:
            return "another task is starting the pipeline"
        pipeline = Pipeline.objects.get(pk=pipeline_id)
        if pipeline.state != State.STARTING or pipeline.desired_state != DesiredState.RUNNING:
            return f"not started: the pipeline is {pipeline.state}"
        if not launcher.runner_alive(pipeline.runner_pid, pipeline_id):
            config = effective_config(pipeline.config)
            pid = spares.take_spare(pipeline_id, config) or launcher.spawn_runner(pipeline_id)
            Pipeline.objects.filter(pk=pipeline_id).update(runner_pid=pid)
            lease.renew()
            spares.ensure_spare()  # so that the next start is warm
        return _await_state(pipeline_id, State.STARTING, State.RUNNING, lease)


@shared_task(name="pipelines.await_state")
def pipeline_await_state(pipeline_id: int, transitional: str, target: str) -> str:
    """Wait until the runner moves the pipeline from `transitional` to `target`.

    Fails the pipeline if the runner dies or does not answer in time. Once the
    pipeline has left `transitional` some other way (a later action), this
    task's transition is over and it leaves the pipeline alone.
    """
    with inflight.transition(pipeline_id, transitional) as lease:
        if lease is None:
            return f"another task is seeing '{transitional}' through"
        return _await_state(pipeline_id, transitional, target, lease)


def _await_state(pipeline_id: int, transitional: str, target: str, lease: inflight.Lease) -> str:
    deadline = time.monotonic() + settings.PIPELINE_TRANSITION_TIMEOUT_S
    while time.monotonic() < deadline:
        pipeline = Pipeline.objects.get(pk=pipeline_id)
        if pipeline.state != transitional:
            return pipeline.state
        if not launcher.runner_alive(pipeline.runner_pid, pipeline_id):
            return _runner_gone(pipeline, transitional, target)
        lease.renew()
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
    """Notice dead Spark runners and lost lifecycle tasks (run every few seconds by
    Celery beat).

    A pipeline whose runner died is marked failed, or started again from its
    checkpoint when it is configured to restart. A transition no task is seeing
    through any more (its worker died) is queued again.
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
    return noticed + requeue_lost_transitions()


def _queue_transition(pipeline_id: int, transitional: str) -> None:
    if transitional == State.STARTING:
        pipeline_start.delay(pipeline_id)
    else:
        pipeline_await_state.delay(pipeline_id, transitional, TRANSITIONS[transitional])


def requeue_lost_transitions() -> list[str]:
    """Queue again each transition that no task holds the lease of (worker/inflight.py).

    Its task died with its worker (the broker would deliver it again only after its
    visibility timeout), or was lost. Only a transition that has waited REQUEUE_AFTER_S
    since the pipeline's last event is queued (a new one may not have been picked up
    yet), and each re-queue is an event: at most one per REQUEUE_AFTER_S. The tasks are
    idempotent: one delivered twice finds the lease held or the state moved on.
    """
    requeued = []
    now = timezone.now()
    for pipeline in Pipeline.objects.filter(state__in=TRANSITIONS):
        last_event = pipeline.events.order_by("-id").values_list("created_at", flat=True).first()
        since = last_event or pipeline.updated_at
        if (now - since).total_seconds() < REQUEUE_AFTER_S:
            continue
        if inflight.in_flight(pipeline.pk, pipeline.state):
            continue
        with transaction.atomic():
            record_event(
                pipeline=pipeline,
                from_state=pipeline.state,
                to_state=pipeline.state,
                actor=MONITOR_ACTOR,
                message=f"no task was seeing '{pipeline.state}' through (its worker died?): "
                "queued it again",
            )
            transaction.on_commit(partial(_queue_transition, pipeline.pk, pipeline.state))
        requeued.append(pipeline.name)
    return requeued
