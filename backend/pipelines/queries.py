"""Ad-hoc queries on a live pipeline (`POST /pipelines/{name}/query`).

The query is compiled as a view appended to the pipeline's program
(backend/compiler/adhoc.py), then its runner evaluates it (querybus.py): a plain
SELECT on the state after its last step, answered once; a SELECT STREAM on each
step's changes from the next step on, streamed as JSON lines. A SELECT STREAM
here must keep no state (filters and projections, UNION ALL, HOP over streams
and streaming views); a stateful one is a view to define in the program.
"""

import asyncio
import contextlib
import json
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

import redis.asyncio
from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from redis.exceptions import RedisError

from backend.compiler.adhoc import STREAM_QUERY, Query, compile_with_queries, query_diagnostics
from backend.core.errors import ApplicationError
from backend.pipelines import querybus, selectors
from backend.pipelines.models import Pipeline, State
from worker.runner.adhoc import stateless
from worker.runner.support import unsupported

RUNNING = frozenset({State.RUNNING, State.PAUSED})
MAX_QUERY_CHARS = 100_000


def _require_running(pipeline: Pipeline) -> None:
    if pipeline.state not in RUNNING:
        raise ApplicationError(
            f"Pipeline '{pipeline.name}' is {pipeline.state}: queries need it running or paused",
            code="pipeline_not_running",
            status=409,
            details={"state": pipeline.state},
        )


def compile_query(pipeline: Pipeline, sql: Any) -> tuple[dict[str, Any], bool]:
    """The query as a view of the pipeline's plan, and whether it is a SELECT STREAM."""
    _require_running(pipeline)
    if not isinstance(sql, str) or not sql.strip():
        raise ApplicationError('Expected {"sql": "SELECT ..."}', details={"field": "sql"})
    if len(sql) > MAX_QUERY_CHARS:
        raise ApplicationError(f"A query has at most {MAX_QUERY_CHARS} characters")
    version = pipeline.program_version
    taken = {r["name"].lower() for r in version.catalog.get("relations", [])}
    name = next(f"query_{i}" for i in range(1, len(taken) + 2) if f"query_{i}" not in taken)
    query = Query(name, sql.rstrip().rstrip(";").rstrip(), bool(STREAM_QUERY.match(sql)))
    result = compile_with_queries(version.sql, [query])
    diagnostics = query_diagnostics(result, query)
    if result.has_errors:
        raise ApplicationError(
            "The query has errors",
            code="query_has_errors",
            details={"diagnostics": [d for d in diagnostics if d["severity"] == "error"]},
        )
    plan = result.to_json()["plan"]
    old = version.plan or {}
    view = plan["views"][-1]
    if _names(plan["inputs"]) != _names(old.get("inputs", [])) or _names(plan["views"]) != [
        *_names(old.get("views", [])),
        name,
    ]:
        raise ApplicationError(
            "A query is one SELECT statement (it may not define tables or views)",
            code="query_has_errors",
            details={"diagnostics": diagnostics},
        )
    problems = unsupported({"version": plan["version"], "inputs": [], "views": [view]})
    if problems:
        raise ApplicationError(
            f"The Spark runtime cannot run this query yet: {'; '.join(problems)}",
            code="query_not_supported",
            details={"unsupported": problems},
        )
    if query.stream and (not stateless(view["query"]) or view.get("emit_final") is not None):
        raise ApplicationError(
            "An ad-hoc SELECT STREAM may only filter and project (WHERE, expressions, "
            "UNION ALL, HOP) streams and streaming views; one that aggregates, joins, sorts "
            "or keeps other state is a view: define it in the program",
            code="query_not_supported",
        )
    return view, query.stream


def _names(relations: list[dict[str, Any]]) -> list[str]:
    return [relation["name"] for relation in relations]


def columns_of(view: dict[str, Any]) -> list[dict[str, str]]:
    return [{"name": c["name"], "type": c["type"]} for c in view["columns"]]


def snapshot_query(pipeline: Pipeline, view: dict[str, Any]) -> dict[str, Any]:
    """Ask the runner for the view's rows now; 504 when it does not answer in time."""
    query_id = uuid.uuid4().hex
    timeout = settings.QUERY_TIMEOUT_S
    request = {"id": query_id, "view": view, "deadline": time.time() + timeout}
    client = querybus.client(blocking_s=timeout)
    try:
        client.rpush(querybus.requests_key(pipeline.pk), json.dumps(request))
        item = client.blpop([querybus.answer_key(query_id)], timeout=timeout)
    except RedisError as err:
        raise ApplicationError(
            f"Redis is unavailable ({err}); try again shortly", code="unavailable", status=503
        ) from err
    finally:
        client.close()
    if item is None:
        raise ApplicationError(
            f"Pipeline '{pipeline.name}' did not answer within {timeout:g} s",
            code="query_timeout",
            status=504,
        )
    answer = json.loads(item[1])
    if "error" in answer:
        raise ApplicationError(f"The query failed: {answer['error']}", code=answer["code"])
    return {"step": answer["step"], "columns": columns_of(view), **answer}


async def stream_query(
    user: AbstractBaseUser, pipeline_id: int, view: dict[str, Any]
) -> AsyncIterator[bytes]:
    """The JSON lines of a SELECT STREAM: its columns, then each step's changes.

    It ends when the client leaves, or when `user` may no longer see the pipeline
    (checked at each renewal of the registration).
    """
    query_id = uuid.uuid4().hex
    client = redis.asyncio.Redis.from_url(
        settings.REDIS_URL, socket_timeout=5 + querybus.STREAM_RENEW_S
    )
    pubsub = client.pubsub()
    key = querybus.streams_key(pipeline_id)

    async def register() -> None:
        entry = {"view": view, "expires": time.time() + querybus.STREAM_TTL_S}
        await client.hset(key, query_id, json.dumps(entry))

    try:
        # Listen before registering: no step published after the runner sees it is missed.
        await pubsub.subscribe(querybus.stream_channel(query_id))
        await register()
        yield json.dumps({"columns": columns_of(view)}).encode() + b"\n"
        renewed = time.monotonic()
        while True:
            message = await pubsub.get_message(
                ignore_subscribe_messages=True, timeout=querybus.STREAM_RENEW_S
            )
            if message is not None:
                yield bytes(message["data"]) + b"\n"
            if time.monotonic() - renewed >= querybus.STREAM_RENEW_S:
                if not await _still_visible(user, pipeline_id):
                    return
                await register()
                renewed = time.monotonic()
    finally:
        with contextlib.suppress(RedisError, OSError, asyncio.CancelledError):
            await asyncio.shield(_unregister(client, pubsub, key, query_id))


@database_sync_to_async
def _still_visible(user: AbstractBaseUser, pipeline_id: int) -> bool:
    visible = selectors.visible_pipelines(user=user).filter(pk=pipeline_id)
    return bool(user.is_active and visible.exists())


async def _unregister(
    client: "redis.asyncio.Redis[bytes]", pubsub: Any, key: str, query_id: str
) -> None:
    await client.hdel(key, query_id)
    await pubsub.aclose()
    await client.aclose()
