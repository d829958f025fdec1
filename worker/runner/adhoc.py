"""The runner's side of ad-hoc queries (the protocol: backend/pipelines/querybus.py).

A plain SELECT is evaluated between steps (the runner's step lock is held) over
the contents of the relations it reads after the last recorded step
(contents.py). A SELECT STREAM must be stateless (filters, projections, unions,
HOP over the program's relations): it is then computed on each step's changes
along with the program's views, and its changes published after the step is
recorded.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db import close_old_connections
from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from redis.exceptions import RedisError

from backend.pipelines import querybus
from backend.pipelines.models import Pipeline
from worker.runner.blocks import released_blocks
from worker.runner.contents import Contents
from worker.runner.data_errors import data_error
from worker.runner.incremental import LINEAR, evaluate
from worker.runner.lower import scanned
from worker.runner.state import StateStore
from worker.runner.step import Change, _as_json, _consolidated, in_view_order

log = logging.getLogger("weir.runner")
STATELESS = LINEAR | {"union", "hop", "unnest"}


def stateless(rel: Any) -> bool:
    """Does a plan node keep no state (so that it can run on each step's changes alone)?"""
    if isinstance(rel, Mapping):
        if "op" in rel and rel["op"] not in STATELESS:
            return False
        return all(stateless(value) for value in rel.values())
    if isinstance(rel, list):
        return all(stateless(item) for item in rel)
    return True


class QueryServer:
    """Answers the plain SELECTs the web process asks this pipeline."""

    def __init__(
        self,
        spark: SparkSession,
        pipeline_id: int,
        plan: Mapping[str, Any],
        state: StateStore,
        lock: threading.Lock,
    ) -> None:
        self.spark = spark
        self.pipeline_id = pipeline_id
        self.plan = plan
        self.state = state
        self.lock = lock
        self.redis = querybus.client()

    def serve(self, timeout: float) -> None:
        """Answer one waiting request, or wait up to `timeout` seconds for one."""
        try:
            item = self.redis.blpop([querybus.requests_key(self.pipeline_id)], timeout=timeout)
        except RedisError as err:
            log.warning("cannot read query requests: %s", err)
            time.sleep(timeout)
            return
        if item is None:
            return
        request = json.loads(item[1])
        if request["deadline"] < time.time():
            return  # its asker has given up
        try:
            with self.lock, released_blocks(self.spark):
                answer = self.snapshot(request["view"])
        # A user's query may fail in Spark in many ways (overflow, a cast): the answer
        # says so; the runner and its pipeline go on.
        except Exception as err:
            log.warning("query %s failed: %s", request["id"], err)
            message = data_error(err) or (
                str(err).strip().splitlines()[0] if str(err).strip() else repr(err)
            )
            answer = {"error": message[:2000], "code": "query_failed"}
        key = querybus.answer_key(request["id"])
        try:
            self.redis.pipeline().rpush(key, json.dumps(answer)).expire(
                key, querybus.ANSWER_TTL_S
            ).execute()
        except RedisError as err:
            log.warning("cannot answer query %s: %s", request["id"], err)

    def snapshot(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """The view's rows after the last recorded step (at most QUERY_MAX_ROWS)."""
        close_old_connections()
        pipeline = Pipeline.objects.values("last_step", "processed_seq").get(pk=self.pipeline_id)
        last_step = pipeline["last_step"]
        contents = Contents(
            self.spark,
            self.pipeline_id,
            self.plan,
            self.state.load(before_step=last_step + 1),
            processed_seq=pipeline["processed_seq"],
            through_step=last_step,
        ).of(scanned(view["query"]))
        delta = evaluate(self.spark, view["query"], contents)
        rows = _as_json(view, _consolidated(delta, len(view["columns"])))
        limit = settings.QUERY_MAX_ROWS
        collected = rows.where(F.col("weight") > 0).limit(limit + 1).collect()
        changes: list[Change] = [
            {"insert": json.loads(r["row"])} for r in collected for _ in range(r["weight"])
        ]
        ordered = [change["insert"] for change in in_view_order(view, changes)]
        return {"step": last_step, "rows": ordered[:limit], "truncated": len(ordered) > limit}


class StreamRegistry:
    """The SELECT STREAM queries listening to this pipeline, and their publication."""

    def __init__(self, pipeline_id: int) -> None:
        self.key = querybus.streams_key(pipeline_id)
        self.redis = querybus.client()

    def active(self) -> list[dict[str, Any]]:
        """The registered views (named by query id) whose registration is current."""
        try:
            entries = self.redis.hgetall(self.key)
        except RedisError as err:
            log.warning("cannot read stream queries: %s", err)
            return []
        views = []
        now = time.time()
        for query_id, raw in entries.items():
            entry = json.loads(raw)
            if entry["expires"] < now or not stateless(entry["view"]["query"]):
                self.redis.hdel(self.key, query_id)
                continue
            views.append({**entry["view"], "name": query_id.decode()})
        return views

    def publish(self, step: int, changes: Mapping[str, list[Change]]) -> None:
        for query_id, query_changes in changes.items():
            message = json.dumps({"step": step, "changes": query_changes})
            try:
                self.redis.publish(querybus.stream_channel(query_id), message)
            except RedisError as err:
                log.warning("cannot publish stream query %s: %s", query_id, err)
