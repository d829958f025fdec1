"""Bringing a pipeline's output connectors up to date from its stored deltas
(worker/runner/connectors.py has the connectors themselves)."""

import logging
from collections.abc import Sequence
from typing import Any

from backend.pipelines.events import record_event
from backend.pipelines.models import Pipeline, ViewDelta
from worker.runner.connectors import Change, Sink, bring_up_to_date, sink_for

log = logging.getLogger("weir.connectors")


class Connectors:
    """The connectors of one pipeline, kept by its runner between steps."""

    def __init__(self, pipeline: Pipeline, specs: Sequence[dict[str, Any]]) -> None:
        self.pipeline_id = pipeline.pk
        columns = {v["name"]: v["columns"] for v in (pipeline.program_version.plan or {})["views"]}
        self.sinks = [(spec["view"], sink_for(pipeline.name, spec, columns[spec["view"]]))
                      for spec in specs]  # fmt: skip
        self.failing: set[str] = set()

    def deliver(self) -> None:
        """Deliver every step each connector misses. A connector that fails (its database
        is down, say) is tried again after the next step; the pipeline goes on."""
        if not self.sinks:
            return
        last_step = Pipeline.objects.values_list("last_step", flat=True).get(pk=self.pipeline_id)
        for view, sink in self.sinks:
            try:
                bring_up_to_date(sink, last_step, lambda a, b, view=view: self._changes(view, a, b))
            except Exception as err:  # any failure of an outside system
                self._record(sink, f"{sink.name} of view {view} failed: {err}", failing=True)
            else:
                self._record(sink, f"{sink.name} of view {view} delivers again", failing=False)

    def _changes(self, view: str, after: int, up_to: int) -> list[tuple[int, list[Change]]]:
        deltas = ViewDelta.objects.filter(
            pipeline_id=self.pipeline_id, view=view, step__gt=after, step__lte=up_to
        ).order_by("step")
        return [(delta.step, delta.changes) for delta in deltas]

    def _record(self, sink: Sink, message: str, *, failing: bool) -> None:
        """An event when a connector starts or stops failing (not one per step)."""
        if failing == (sink.name in self.failing):
            return
        if failing:
            self.failing.add(sink.name)
            log.warning("pipeline %s: %s", self.pipeline_id, message)
        else:
            self.failing.discard(sink.name)
        pipeline = Pipeline.objects.only("name", "state").get(pk=self.pipeline_id)
        record_event(
            pipeline=pipeline,
            from_state=pipeline.state,
            to_state=pipeline.state,
            actor="runner",
            message=message,
        )
