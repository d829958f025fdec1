"""Which lifecycle transitions a task is seeing through right now.

A task that starts, pauses, resumes or stops a pipeline holds a lease in Redis for
(pipeline, transitional state) while it runs, and renews it while it waits for the
runner. A worker that dies mid-task leaves its message unacknowledged in the broker
until the visibility timeout (minutes), but its lease expires within `LEASE_TTL_S`:
the monitor then queues the transition again (tasks.py: `requeue_lost_transitions`).
A second task for a transition whose lease is held leaves it to the holder, so two
tasks never start two runners for one pipeline.

When Redis does not answer, a task goes on without a lease (the broker is Redis too:
its message came from there a moment ago) and the monitor queues nothing again.
"""

from __future__ import annotations

import contextlib
import logging
import time
import uuid
from collections.abc import Iterator

import redis
from django.conf import settings

log = logging.getLogger("weir.worker")
LEASE_TTL_S = 30  # a dead task's transition is free again after this long at most
RENEW_S = 3  # how often a waiting task renews its lease
# Compare-and-delete / compare-and-renew: a task only ever touches its own lease (one
# whose TTL passed may already be another task's).
_RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end"
_RENEW = (
    "if redis.call('get', KEYS[1]) == ARGV[1] then "
    "return redis.call('expire', KEYS[1], ARGV[2]) end"
)


def _client() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=5)


def lease_key(pipeline_id: int, transitional: str) -> str:
    # The database names the installation: installations may share a Redis server.
    database = settings.DATABASES["default"]["NAME"]
    return f"weir:transition:{database}:{pipeline_id}:{transitional}"


class Lease:
    """A task's hold on one transition; `renew()` while waiting (cheap when recent)."""

    def __init__(self, key: str, token: str) -> None:
        self.key = key
        self.token = token
        self.renewed = time.monotonic()

    def renew(self) -> None:
        if time.monotonic() - self.renewed < RENEW_S:
            return
        self.renewed = time.monotonic()
        try:
            _client().eval(_RENEW, 1, self.key, self.token, LEASE_TTL_S)
        except redis.RedisError as err:
            log.warning("could not renew %s: %s", self.key, err)


@contextlib.contextmanager
def transition(pipeline_id: int, transitional: str) -> Iterator[Lease | None]:
    """Hold the lease of the pipeline's transition while the block runs; None when another
    task holds it (then leave the transition to that task)."""
    key, token = lease_key(pipeline_id, transitional), uuid.uuid4().hex
    try:
        acquired = bool(_client().set(key, token, nx=True, ex=LEASE_TTL_S))
    except redis.RedisError as err:
        log.warning("could not take %s, going on without it: %s", key, err)
        acquired = True
    if not acquired:
        yield None
        return
    try:
        yield Lease(key, token)
    finally:
        with contextlib.suppress(redis.RedisError):
            _client().eval(_RELEASE, 1, key, token)


def in_flight(pipeline_id: int, transitional: str) -> bool:
    """Is a task seeing this transition through? True when Redis cannot tell."""
    try:
        return bool(_client().exists(lease_key(pipeline_id, transitional)))
    except redis.RedisError:
        return True
