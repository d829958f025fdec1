"""How the web process asks a pipeline's runner about its live state, over Redis.

- A plain SELECT: the web pushes `{"id", "view", "deadline"}` on the list
  `requests_key(pipeline)`; the runner, between steps, evaluates it on the
  state after its last step and pushes `{"step", "rows", "truncated"}` (or
  `{"error", "code"}`) on `answer_key(id)`, which the web pops with a timeout.
  A request whose deadline passed is dropped unanswered.
- A SELECT STREAM: the web registers `{"view", "expires"}` under the query's id
  in the hash `streams_key(pipeline)` (and renews it while its client listens);
  at every step the runner computes each registered view on the step's changes
  and publishes `{"step", "changes"}` on `stream_channel(id)`. A registration
  that is not renewed expires, so a web process that died leaves nothing behind.
"""

import redis
from django.conf import settings

ANSWER_TTL_S = 60
STREAM_TTL_S = 30  # a stream registration lives this long unless renewed
STREAM_RENEW_S = 10


def requests_key(pipeline_id: int) -> str:
    return f"weir:queries:{pipeline_id}"


def answer_key(query_id: str) -> str:
    return f"weir:answer:{query_id}"


def streams_key(pipeline_id: int) -> str:
    return f"weir:streams:{pipeline_id}"


def stream_channel(query_id: str) -> str:
    return f"weir:stream:{query_id}"


def client(*, blocking_s: float = 0) -> "redis.Redis[bytes]":
    """A client whose reads may wait `blocking_s` seconds (BLPOP) beyond redis-py's
    default socket timeout."""
    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=5 + blocking_s)
