"""Lifecycle tasks survive a worker that dies mid-task: the broker's visibility timeout,
the transition leases (worker/inflight.py) and the monitor's re-queue (worker/tasks.py).
Against the test Redis and database; the live kill -9 is in tests/integration/test_faults.py.
"""

import contextlib
import datetime as dt
import time
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone

from backend.accounts.services import user_ensure
from backend.pipelines.models import Pipeline, PipelineEvent, State
from backend.pipelines.services import pipeline_create
from backend.programs.services import program_create
from worker import inflight, launcher, spares, tasks

PROGRAM = "CREATE TABLE t (x INT);\nCREATE VIEW v AS SELECT x FROM t;\n"


def a_pipeline(name: str, state: str, waited_s: float) -> Pipeline:
    """A pipeline left in `state`, its last event `waited_s` ago."""
    user = user_ensure(username="ops", password=None, team="ops")
    program_create(user=user, name=name, sql=PROGRAM)
    pipeline = pipeline_create(user=user, name=name, program=name)
    desired = "paused" if state == State.PAUSING else "running"
    Pipeline.objects.filter(pk=pipeline.pk).update(state=state, desired_state=desired)
    PipelineEvent.objects.create(pipeline=pipeline, from_state="stopped", to_state=state, actor="u")
    PipelineEvent.objects.filter(pipeline=pipeline).update(
        created_at=timezone.now() - dt.timedelta(seconds=waited_s)
    )
    return Pipeline.objects.get(pk=pipeline.pk)


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """The lifecycle tasks queued, instead of sending them to a broker."""
    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(tasks.pipeline_start, "delay", lambda *a: calls.append(("start", *a)))
    monkeypatch.setattr(tasks.pipeline_await_state, "delay", lambda *a: calls.append(("await", *a)))
    return calls


def test_the_broker_delivers_a_lost_task_again_after_the_longest_task_not_after_an_hour() -> None:
    from worker.app import app

    timeout = app.conf.broker_transport_options["visibility_timeout"]
    longest_task = settings.PIPELINE_TRANSITION_TIMEOUT_S + 2 * spares.ASSIGN_WAIT_S + 5
    assert longest_task < timeout <= 600, "a running task is never delivered twice"
    assert app.conf.task_acks_late


def test_a_transition_has_one_lease_and_only_its_holder_releases_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert not inflight.in_flight(1, "starting")
    with inflight.transition(1, "starting") as lease:
        assert lease is not None and inflight.in_flight(1, "starting")
        with inflight.transition(1, "starting") as second:
            assert second is None, "the holder sees it through"
        with inflight.transition(1, "stopping") as other:
            assert other is not None, "a stop while starting has a lease of its own"
        assert inflight.in_flight(1, "starting"), "the refused task released nothing"
    assert not inflight.in_flight(1, "starting")

    # A dead task's lease expires (it renews no more): another task takes the transition,
    # and the dead one's late release cannot take it away from it.
    monkeypatch.setattr(inflight, "LEASE_TTL_S", 1)
    with contextlib.ExitStack() as dead:
        assert dead.enter_context(inflight.transition(2, "starting")) is not None
        deadline = time.monotonic() + 10
        while inflight.in_flight(2, "starting"):
            assert time.monotonic() < deadline, "the lease did not expire"
            time.sleep(0.1)
        monkeypatch.setattr(inflight, "LEASE_TTL_S", 30)
        taken = contextlib.ExitStack()
        assert taken.enter_context(inflight.transition(2, "starting")) is not None
    assert inflight.in_flight(2, "starting"), "the expired holder's release left it alone"
    taken.close()
    assert not inflight.in_flight(2, "starting")


@pytest.mark.django_db(transaction=True)
def test_the_monitor_queues_again_a_transition_no_task_sees_through(
    queued: list[tuple[Any, ...]],
) -> None:
    starting = a_pipeline("lost-start", State.STARTING, waited_s=tasks.REQUEUE_AFTER_S + 5)
    pausing = a_pipeline("lost-pause", State.PAUSING, waited_s=tasks.REQUEUE_AFTER_S + 5)
    assert sorted(tasks.pipelines_monitor()) == ["lost-pause", "lost-start"]
    assert sorted(queued) == [
        ("await", pausing.pk, "pausing", "paused"),
        ("start", starting.pk),
    ]
    event = starting.events.order_by("id").last()
    assert event is not None
    assert (event.actor, event.to_state) == ("monitor", "starting")
    assert "queued it again" in event.message
    assert tasks.requeue_lost_transitions() == [], "not again before REQUEUE_AFTER_S"


@pytest.mark.django_db(transaction=True)
def test_the_monitor_leaves_a_transition_in_flight_or_just_asked_for(
    queued: list[tuple[Any, ...]],
) -> None:
    a_pipeline("new-start", State.STARTING, waited_s=1)  # its task may be on its way
    held = a_pipeline("held-stop", State.STOPPING, waited_s=tasks.REQUEUE_AFTER_S + 5)
    with inflight.transition(held.pk, State.STOPPING):
        assert tasks.requeue_lost_transitions() == []
    assert queued == []


@pytest.mark.django_db(transaction=True)
def test_a_task_whose_transition_another_task_holds_does_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pipeline = a_pipeline("twice", State.STARTING, waited_s=0)

    def spawn(pipeline_id: int) -> int:
        raise AssertionError("a second runner for one pipeline")

    monkeypatch.setattr(launcher, "spawn_runner", spawn)
    with inflight.transition(pipeline.pk, State.STARTING):
        assert tasks.pipeline_start(pipeline.pk) == "another task is starting the pipeline"
        assert "another task" in tasks.pipeline_await_state(pipeline.pk, "starting", "running")
    assert Pipeline.objects.get(pk=pipeline.pk).state == State.STARTING
