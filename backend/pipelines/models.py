import json
from typing import Any

from django.db import models
from django.utils import timezone

from backend.accounts.models import Team
from backend.programs.models import Program, ProgramVersion


class State(models.TextChoices):
    STOPPED = "stopped"
    STARTING = "starting"
    RUNNING = "running"
    PAUSING = "pausing"
    PAUSED = "paused"
    RESUMING = "resuming"
    STOPPING = "stopping"
    FAILED = "failed"


class DesiredState(models.TextChoices):
    STOPPED = "stopped"
    RUNNING = "running"
    PAUSED = "paused"


class OnRunnerFailure(models.TextChoices):
    FAIL = "fail"
    RESTART = "restart"


class Pipeline(models.Model):
    """A deployed program version and the Spark runner that executes it.

    `desired_state` is what the operator asked for; `state` is what the runner
    last acknowledged. The runner moves `state` towards `desired_state`.
    """

    # Unique within its team only (a pipeline's team is its program's).
    name = models.SlugField(max_length=100)
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="pipelines")
    program = models.ForeignKey(Program, on_delete=models.PROTECT, related_name="pipelines")
    program_version = models.ForeignKey(ProgramVersion, on_delete=models.PROTECT)
    desired_state = models.CharField(
        max_length=10, choices=DesiredState.choices, default=DesiredState.STOPPED
    )
    state = models.CharField(max_length=10, choices=State.choices, default=State.STOPPED)
    error = models.TextField(blank=True, default="")
    runner_pid = models.IntegerField(null=True, blank=True)
    # What the monitor does when the Spark runner dies: mark the pipeline failed,
    # or start it again from its checkpoint.
    on_runner_failure = models.CharField(
        max_length=10, choices=OnRunnerFailure.choices, default=OnRunnerFailure.FAIL
    )
    # Highest input sequence number committed by the ingress; the runner's
    # source reads up to here, so a step never sees half of a request.
    ingested_seq = models.BigIntegerField(default=0)
    # Highest input sequence number the last recorded step consumed.
    processed_seq = models.BigIntegerField(default=0)
    last_step = models.BigIntegerField(default=0)
    # Which run of the pipeline its steps belong to: a deploy with reset_state starts a new
    # run (one more), whose steps are numbered from 1 again. Followers (websockets, egress)
    # tell the runs apart by it (sequencing.py).
    run = models.PositiveIntegerField(default=1)
    # Input rows refused so far, per relation ({"orders": 12}); DroppedRow logs some.
    dropped_counts = models.JSONField(default=dict)
    # Views a compatible deploy added to a pipeline that has run: the next step fills
    # them from the current contents of what they read (worker/runner/contents.py).
    backfill_views = models.JSONField(default=list)
    # Runtime configuration as set by PATCH (backend/pipelines/config.py fills in defaults).
    config = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["team", "name"], name="unique_pipeline_name_per_team")
        ]

    def __str__(self) -> str:
        return self.name


class PipelineEvent(models.Model):
    """A state transition (or other notable fact) with who caused it and when."""

    pipeline = models.ForeignKey(Pipeline, on_delete=models.CASCADE, related_name="events")
    from_state = models.CharField(max_length=10, choices=State.choices)
    to_state = models.CharField(max_length=10, choices=State.choices)
    actor = models.CharField(max_length=100)
    message = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]


class InputChange(models.Model):
    """One accepted input change: the pipeline's durable input log."""

    pipeline = models.ForeignKey(Pipeline, on_delete=models.CASCADE, related_name="inputs")
    seq = models.BigIntegerField()
    relation = models.CharField(max_length=200)
    weight = models.SmallIntegerField()  # +1 insert, -1 delete, 0 a rowtime bound
    row = models.JSONField()
    accepted_at = models.DateTimeField(default=timezone.now)
    # Refused by the step that read it (late, out of order): not part of its table.
    dropped = models.BooleanField(default=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["pipeline", "seq"], name="unique_input_seq")]


class PipelineStep(models.Model):
    """A step the runner completed; `batch_id` de-duplicates Spark's re-runs."""

    pipeline = models.ForeignKey(Pipeline, on_delete=models.CASCADE, related_name="steps")
    step = models.BigIntegerField()
    batch_id = models.BigIntegerField()
    input_rows = models.IntegerField()
    duration_ms = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["pipeline", "step"], name="unique_pipeline_step"),
            models.UniqueConstraint(fields=["pipeline", "batch_id"], name="unique_pipeline_batch"),
        ]


class ViewDelta(models.Model):
    """The changes one step made to one view: [{"insert": row} | {"delete": row}]."""

    pipeline = models.ForeignKey(Pipeline, on_delete=models.CASCADE, related_name="deltas")
    step = models.BigIntegerField()
    view = models.CharField(max_length=200)
    # JSON text, not jsonb: jsonb reorders object keys, and rows keep the view's column order.
    changes_json = models.TextField()

    @property
    def changes(self) -> list[dict[str, Any]]:
        return json.loads(self.changes_json)  # type: ignore[no-any-return]

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["pipeline", "step", "view"], name="unique_view_delta")
        ]
        ordering = ["step", "id"]


class DroppedRow(models.Model):
    """A logged refused input row: below a LATENESS waterline, or older than a stream's clock.

    Every refused row is counted (Pipeline.dropped_counts); the 1st, 10th, 100th, ...
    of each relation is kept here with its row, as the semantic contract asks.
    """

    class Reason(models.TextChoices):
        LATE = "late"
        OUT_OF_ORDER = "out_of_order"

    pipeline = models.ForeignKey(Pipeline, on_delete=models.CASCADE, related_name="dropped_rows")
    step = models.BigIntegerField()
    relation = models.CharField(max_length=200)
    row_json = models.TextField()
    reason = models.CharField(max_length=12, choices=Reason.choices)
    # The how-many-th dropped row of its relation this is (1-based).
    ordinal = models.BigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    @property
    def row(self) -> dict[str, Any]:
        return json.loads(self.row_json)  # type: ignore[no-any-return]


class Pump(models.Model):
    """A pump of the pipeline's program (CREATE PUMP) and the state an operator set.

    The runner reads the state at each step: running pumps move rows into their
    target, paused ones hold their input (nothing is lost), stopped ones ignore it
    (worker/runner/pumps.py).
    """

    class State(models.TextChoices):
        RUNNING = "running"
        PAUSED = "paused"
        STOPPED = "stopped"

    pipeline = models.ForeignKey(Pipeline, on_delete=models.CASCADE, related_name="pumps")
    name = models.CharField(max_length=200)
    state = models.CharField(max_length=10, choices=State.choices)
    processed_rows = models.BigIntegerField(default=0)  # rows it inserted into its target
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["pipeline", "name"], name="unique_pipeline_pump")
        ]
        ordering = ["id"]


class PipelineMetric(models.Model):
    """What one step did and how the pipeline stood after it (docs/api.md, "Metrics").

    Written in the step's transaction; only the latest METRICS_KEEP_SAMPLES are kept.
    Rates are over the time since the previous sample.
    """

    pipeline = models.ForeignKey(Pipeline, on_delete=models.CASCADE, related_name="metrics")
    step = models.BigIntegerField()
    time = models.DateTimeField(default=timezone.now)
    input_rows = models.IntegerField()
    duration_ms = models.FloatField()
    state_rows = models.BigIntegerField()
    late_rows = models.IntegerField()  # refused in this step
    processed_seq = models.BigIntegerField()
    ingested_seq = models.BigIntegerField()
    lag_ms = models.FloatField()
    input_rows_per_second = models.FloatField()
    processed_rows_per_second = models.FloatField()
    waterlines = models.JSONField(default=dict)
    # {view: [rows, inserts_total, deletes_total]} after this step, for published views.
    views = models.JSONField(default=dict)
    # Per input (table or stream): {"ingested_total", "processed_total", "step_rows",
    # "late_rows", "input_rows_per_second", "processed_rows_per_second", "lag_ms"}; input-log
    # entries (rows, deletes, bounds) of that relation. Views' figures are their inputs'.
    relations = models.JSONField(default=dict)
    # Rows kept by stateful operators after this step, per view, input or pump owning them.
    state_by = models.JSONField(default=dict)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["pipeline", "step"], name="unique_pipeline_metric")
        ]
        ordering = ["step"]

    @property
    def lag_rows(self) -> int:
        return self.ingested_seq - self.processed_seq
