"""Lifecycle tasks. Each takes a pipeline id, checks the stored state first, and is
safe to run twice (acks_late): the runner does the transition, the task sees it
through and marks the pipeline failed when the runner dies or does not answer."""

import time

from celery import shared_task
from django.conf import settings

from backend.pipelines.models import DesiredState, Pipeline, State
from backend.pipelines.services import pipeline_set_state
from worker import launcher

POLL_S = 0.2
TASK_ACTOR = "worker"


@shared_task(name="pipelines.start")
def pipeline_start(pipeline_id: int) -> str:
    pipeline = Pipeline.objects.get(pk=pipeline_id)
    if pipeline.desired_state != DesiredState.RUNNING:
        return f"not started: desired state is {pipeline.desired_state}"
    if not launcher.runner_alive(pipeline.runner_pid, pipeline_id):
        pid = launcher.spawn_runner(pipeline_id)
        Pipeline.objects.filter(pk=pipeline_id).update(runner_pid=pid)
    return pipeline_await_state(pipeline_id, State.RUNNING)


@shared_task(name="pipelines.await_state")
def pipeline_await_state(pipeline_id: int, target: str) -> str:
    """Wait until the runner reports `target`; fail the pipeline if it cannot."""
    deadline = time.monotonic() + settings.PIPELINE_TRANSITION_TIMEOUT_S
    while time.monotonic() < deadline:
        pipeline = Pipeline.objects.get(pk=pipeline_id)
        if pipeline.state in (target, State.FAILED):
            return pipeline.state
        if not launcher.runner_alive(pipeline.runner_pid, pipeline_id):
            return _runner_gone(pipeline, target)
        time.sleep(POLL_S)
    pipeline = Pipeline.objects.get(pk=pipeline_id)
    if target == State.STOPPED:
        launcher.kill_runner(pipeline.runner_pid or 0, pipeline_id)
        pipeline_set_state(
            pipeline_id=pipeline_id,
            to_state=State.STOPPED,
            actor=TASK_ACTOR,
            message="runner did not stop in time and was killed",
        )
        return State.STOPPED
    pipeline_set_state(
        pipeline_id=pipeline_id,
        to_state=State.FAILED,
        actor=TASK_ACTOR,
        error=f"runner did not reach '{target}' in time",
    )
    return State.FAILED


def _runner_gone(pipeline: Pipeline, target: str) -> str:
    pipeline.refresh_from_db()
    if pipeline.state in (target, State.FAILED):  # it answered, then exited
        return pipeline.state
    if target == State.STOPPED:
        pipeline_set_state(
            pipeline_id=pipeline.pk,
            to_state=State.STOPPED,
            actor=TASK_ACTOR,
            message="runner not running",
        )
        return State.STOPPED
    error = "Spark runner exited unexpectedly"
    tail = launcher.log_tail(pipeline.pk)
    pipeline_set_state(
        pipeline_id=pipeline.pk,
        to_state=State.FAILED,
        actor=TASK_ACTOR,
        error=f"{error}\n{tail}" if tail else error,
    )
    return State.FAILED
