"""HTTP API for pipelines: create, read, lifecycle actions, deploys, ingress, stored deltas."""

from collections.abc import AsyncIterator
from typing import Any

from django.http import HttpResponse, HttpResponseBase, StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser, JSONParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.accounts.models import ApiKey
from backend.core.apis import (
    ErrorSerializer,
    NdjsonRenderer,
    PlainTextRenderer,
    team_param,
    text_renderers,
)
from backend.core.errors import ApplicationError, NotFound
from backend.pipelines import prometheus, pumps, queries, selectors, services, stats, view_stats
from backend.pipelines.config import effective_config
from backend.pipelines.egress import Egress, run_param, start_step
from backend.pipelines.ingress import relation_named
from backend.pipelines.models import (
    DesiredState,
    OnRunnerFailure,
    Pipeline,
    PipelineMetric,
    Pump,
    State,
)


class ConnectorSerializer(serializers.Serializer):
    view = serializers.CharField()
    type = serializers.ChoiceField(choices=["file", "postgres"])
    path = serializers.CharField(required=False, help_text="file: an absolute directory")
    format = serializers.ChoiceField(choices=["jsonl", "csv"], required=False)
    url = serializers.CharField(required=False, help_text="postgres: postgresql://...")
    table = serializers.CharField(required=False)
    mode = serializers.ChoiceField(
        choices=["content", "changes"],
        required=False,
        help_text="postgres: keep the view's content, or append every change",
    )


class PipelineConfigSerializer(serializers.Serializer):
    spark_master = serializers.CharField(help_text="local[N], spark://host:port, ...")
    cores = serializers.IntegerField(min_value=1)
    memory = serializers.CharField(help_text="the driver's and executors' heap, e.g. 1g")
    trigger_interval_ms = serializers.IntegerField(
        min_value=0, help_text="0: a step starts as soon as input waits"
    )
    storage_dir = serializers.CharField(
        allow_null=True, help_text="where the checkpoint and state live (null: the default)"
    )
    connectors = ConnectorSerializer(many=True)


class PipelineSummarySerializer(serializers.Serializer):
    input_rows_per_second = serializers.FloatField()
    processed_rows_per_second = serializers.FloatField()
    lag_rows = serializers.IntegerField()
    late_rows = serializers.IntegerField()
    errors = serializers.IntegerField(help_text="how many times the pipeline failed")
    last_step_duration_ms = serializers.FloatField(allow_null=True)


class PipelineSerializer(serializers.Serializer):
    """A pipeline; list it with context {"summaries": stats.pipeline_summaries(...)}."""

    name = serializers.CharField()
    team = serializers.CharField(source="team.name", help_text="its program's team")
    program = serializers.CharField(source="program.name")
    program_version = serializers.IntegerField(source="program_version.version")
    desired_state = serializers.ChoiceField(choices=DesiredState.choices)
    state = serializers.ChoiceField(choices=State.choices)
    error = serializers.CharField(allow_blank=True)
    run = serializers.IntegerField(
        help_text="the run its steps belong to: a deploy with reset_state starts the next, "
        "numbered from step 1 again"
    )
    last_step = serializers.IntegerField(help_text="of the current run")
    on_runner_failure = serializers.ChoiceField(choices=OnRunnerFailure.choices)
    runner_pid = serializers.IntegerField(
        allow_null=True, help_text="The Spark runner's process id, while one runs."
    )
    config = serializers.SerializerMethodField()
    summary = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()

    @extend_schema_field(PipelineSummarySerializer)
    def get_summary(self, pipeline: Pipeline) -> dict[str, Any]:
        summaries = self.context.get("summaries") or stats.pipeline_summaries([pipeline])
        return summaries[pipeline.pk]  # type: ignore[no-any-return]

    @extend_schema_field(PipelineConfigSerializer)
    def get_config(self, pipeline: Pipeline) -> dict[str, Any]:
        return effective_config(pipeline.config)


class PipelinePatchSerializer(serializers.Serializer):
    config = PipelineConfigSerializer(
        partial=True, required=False, help_text="only the keys to change"
    )
    on_runner_failure = serializers.ChoiceField(choices=OnRunnerFailure.choices, required=False)


class PipelineCreateSerializer(serializers.Serializer):
    name = serializers.SlugField(max_length=100)
    program = serializers.SlugField(max_length=100)
    team = serializers.SlugField(
        max_length=100,
        required=False,
        help_text="the program's team (and so the pipeline's), when several of your teams "
        "have a program of that name",
    )
    on_runner_failure = serializers.ChoiceField(
        choices=OnRunnerFailure.choices, default=OnRunnerFailure.FAIL
    )


class IngressResultSerializer(serializers.Serializer):
    accepted = serializers.IntegerField()
    seq = serializers.IntegerField()


class DeltaSerializer(serializers.Serializer):
    step = serializers.IntegerField()
    view = serializers.CharField()
    changes = serializers.ListField(child=serializers.DictField())


class PipelineEventSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="increases with time; websocket events carry it too")
    from_state = serializers.CharField()
    to_state = serializers.CharField()
    actor = serializers.CharField()
    message = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()


def _actor(request: Request) -> str:
    via = f" (key {request.auth.prefix})" if isinstance(request.auth, ApiKey) else ""
    return f"{request.user.get_username()}{via}"


class PipelineListApi(APIView):
    @extend_schema(responses=PipelineSerializer(many=True), operation_id="pipelines_list")
    def get(self, request: Request) -> Response:
        pipelines = list(selectors.pipeline_list(user=request.user))
        summaries = stats.pipeline_summaries(pipelines)
        return Response(
            PipelineSerializer(pipelines, many=True, context={"summaries": summaries}).data
        )

    @extend_schema(
        request=PipelineCreateSerializer,
        responses={
            201: PipelineSerializer,
            400: ErrorSerializer,
            404: ErrorSerializer,
            409: ErrorSerializer,
        },
        operation_id="pipelines_create",
        description="The pipeline goes to its program's team. 404 when there is no such "
        "program; 400 team_required when several of your teams have a program of that name "
        "and `team` names none; 409 when the team has a pipeline of that name.",
    )
    def post(self, request: Request) -> Response:
        data = PipelineCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        pipeline = services.pipeline_create(user=request.user, **data.validated_data)
        return Response(PipelineSerializer(pipeline).data, status=status.HTTP_201_CREATED)


class PipelineDetailApi(APIView):
    @extend_schema(
        responses={200: PipelineSerializer, 404: ErrorSerializer}, operation_id="pipelines_retrieve"
    )
    def get(self, request: Request, name: str) -> Response:
        return Response(
            PipelineSerializer(
                selectors.pipeline_get(user=request.user, name=name, team=team_param(request))
            ).data
        )

    @extend_schema(
        request=PipelinePatchSerializer,
        responses={
            200: PipelineSerializer,
            400: ErrorSerializer,
            404: ErrorSerializer,
            409: ErrorSerializer,
        },
        operation_id="pipelines_update",
    )
    def patch(self, request: Request, name: str) -> Response:
        selectors.pipeline_get(
            user=request.user, name=name, team=team_param(request)
        )  # another team's: 404 first
        body = request.data
        if not isinstance(body, dict):
            raise ApplicationError("Expected a JSON object {config, on_runner_failure}")
        unknown = sorted(set(body) - {"config", "on_runner_failure"})
        if unknown:
            raise ApplicationError(
                f"Unknown field '{unknown[0]}'; the fields are config and on_runner_failure",
                details={"field": unknown[0]},
            )
        failure = body.get("on_runner_failure")
        if failure is not None and failure not in OnRunnerFailure.values:
            raise ApplicationError(
                "on_runner_failure must be fail or restart", details={"field": "on_runner_failure"}
            )
        pipeline = services.pipeline_configure(
            user=request.user,
            name=name,
            team=team_param(request),
            actor=_actor(request),
            config=body.get("config"),
            on_runner_failure=failure,
        )
        return Response(PipelineSerializer(pipeline).data)


def _action_parameter(description: str) -> OpenApiParameter:
    return OpenApiParameter(
        "action",
        str,
        OpenApiParameter.PATH,
        enum=["start", "pause", "resume", "stop"],
        description=description,
    )


class PipelineActionApi(APIView):
    @extend_schema(
        request=None,
        parameters=[_action_parameter("the lifecycle action (docs/api.md)")],
        responses={
            202: PipelineSerializer,
            400: ErrorSerializer,
            404: ErrorSerializer,
            409: ErrorSerializer,
        },
        operation_id="pipelines_action",
        description="409 when the pipeline's state does not allow the action "
        "(details.state); start also 400 program_has_errors or program_not_runnable.",
    )
    def post(self, request: Request, name: str, action: str) -> Response:
        pipeline = services.pipeline_request_action(
            user=request.user,
            name=name,
            team=team_param(request),
            action=action,
            actor=_actor(request),
        )
        return Response(PipelineSerializer(pipeline).data, status=status.HTTP_202_ACCEPTED)


class DeploySerializer(serializers.Serializer):
    reset_state = serializers.BooleanField(
        default=False,
        help_text="start over (clear steps, deltas and state; process every input again) "
        "even when the new plan keeps the state right",
    )


class PipelineDeployApi(APIView):
    @extend_schema(
        request=DeploySerializer,
        responses={
            200: PipelineSerializer,
            400: ErrorSerializer,
            404: ErrorSerializer,
            409: ErrorSerializer,
        },
        operation_id="pipelines_deploy",
        description="409 state_reset_required (details.changes) when the new plan changes "
        "an input or a view of a pipeline that has run, unless reset_state is true.",
    )
    def post(self, request: Request, name: str) -> Response:
        body = DeploySerializer(data=request.data if request.data is not None else {})
        body.is_valid(raise_exception=True)
        pipeline = services.pipeline_deploy(
            user=request.user,
            name=name,
            team=team_param(request),
            actor=_actor(request),
            reset_state=body.validated_data["reset_state"],
        )
        return Response(PipelineSerializer(pipeline).data)


class CsvTextParser(BaseParser):
    """`text/csv` bodies as text. A browser session's CSRF check reads the body
    through DRF's parsers before the view runs, so CSV needs a parser of its own."""

    media_type = "text/csv"

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> str:
        try:
            return str(stream.read().decode("utf-8"))
        except UnicodeDecodeError as err:
            raise ParseError("The CSV body is not UTF-8 text") from err


class PipelineIngressApi(APIView):
    parser_classes = [JSONParser, CsvTextParser]

    @extend_schema(
        request={
            "application/json": {"type": "array", "items": {"type": "object"}},
            "text/csv": {"type": "string"},
        },
        parameters=[OpenApiParameter("format", str, enum=["json", "csv"], required=False)],
        responses={
            200: IngressResultSerializer,
            400: ErrorSerializer,
            404: ErrorSerializer,
            409: ErrorSerializer,
        },
        operation_id="pipelines_ingress",
    )
    def post(self, request: Request, name: str, relation: str) -> Response:
        format_ = request.query_params.get("format", "json")
        if format_ not in ("json", "csv"):
            raise ApplicationError("format must be json or csv")
        if format_ == "csv" and request.content_type.startswith(CsvTextParser.media_type):
            payload: Any = request.data
        elif format_ == "csv":
            try:
                payload = request.body.decode("utf-8")
            except UnicodeDecodeError as err:
                raise ApplicationError("The CSV body is not UTF-8 text") from err
        else:
            payload = request.data
        accepted, seq = services.pipeline_ingest(
            user=request.user,
            name=name,
            team=team_param(request),
            relation=relation,
            changes=payload,
            format=format_,
        )
        return Response({"accepted": accepted, "seq": seq})


class BoundSerializer(serializers.Serializer):
    bound = serializers.JSONField(help_text="a time, e.g. '2020-01-01 10:00:00'")
    strict = serializers.BooleanField(
        default=False, help_text="true: no later row will have this time either"
    )


class PipelineBoundApi(APIView):
    @extend_schema(
        request=BoundSerializer,
        responses={
            200: IngressResultSerializer,
            400: ErrorSerializer,
            404: ErrorSerializer,
            409: ErrorSerializer,
        },
        operation_id="pipelines_ingress_bound",
    )
    def post(self, request: Request, name: str, relation: str) -> Response:
        selectors.pipeline_get(
            user=request.user, name=name, team=team_param(request)
        )  # another team's: 404 first
        body = request.data
        if not isinstance(body, dict) or "bound" not in body:
            raise ApplicationError('Expected a rowtime bound {"bound": time, "strict": false}')
        accepted, seq = services.pipeline_ingest(
            user=request.user,
            name=name,
            team=team_param(request),
            relation=relation,
            changes=[body],
        )
        return Response({"accepted": accepted, "seq": seq})


class PipelineDeltasApi(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("after_step", int, required=False)],
        responses=DeltaSerializer(many=True),
        operation_id="pipelines_deltas",
    )
    def get(self, request: Request, name: str) -> Response:
        try:
            after_step = int(request.query_params.get("after_step", "0"))
        except ValueError as err:
            raise ApplicationError("after_step must be an integer") from err
        pipeline = selectors.pipeline_get(user=request.user, name=name, team=team_param(request))
        deltas = selectors.pipeline_deltas(pipeline_id=pipeline.pk, after_step=after_step)
        return Response(DeltaSerializer(deltas, many=True).data)


class DroppedRowSerializer(serializers.Serializer):
    step = serializers.IntegerField()
    relation = serializers.CharField()
    reason = serializers.ChoiceField(choices=["late", "out_of_order"])
    ordinal = serializers.IntegerField(help_text="the how-many-th refused row of its relation")
    row = serializers.DictField()


class LateRowsSerializer(serializers.Serializer):
    counts = serializers.DictField(child=serializers.IntegerField())
    logged = DroppedRowSerializer(many=True)


class PipelineLateRowsApi(APIView):
    @extend_schema(responses=LateRowsSerializer, operation_id="pipelines_late_rows")
    def get(self, request: Request, name: str) -> Response:
        pipeline = selectors.pipeline_get(user=request.user, name=name, team=team_param(request))
        logged = selectors.pipeline_dropped_rows(pipeline=pipeline)
        return Response(
            {
                "counts": pipeline.dropped_counts,
                "logged": DroppedRowSerializer(logged, many=True).data,
            }
        )


class PipelineEventsApi(APIView):
    @extend_schema(responses=PipelineEventSerializer(many=True), operation_id="pipelines_events")
    def get(self, request: Request, name: str) -> Response:
        pipeline = selectors.pipeline_get(user=request.user, name=name, team=team_param(request))
        return Response(
            PipelineEventSerializer(selectors.pipeline_events(pipeline=pipeline), many=True).data
        )


class StepDurationSerializer(serializers.Serializer):
    last = serializers.FloatField(allow_null=True)
    p50 = serializers.FloatField(allow_null=True)
    p95 = serializers.FloatField(allow_null=True)


class ViewStatsSerializer(serializers.Serializer):
    """A published view's figures; its inputs' where a step computes all views at once
    (docs/api.md, "Stats and metrics")."""

    name = serializers.CharField()
    inputs = serializers.ListField(
        child=serializers.CharField(), help_text="the tables and streams it reads, at any depth"
    )
    rows = serializers.IntegerField()
    inserts_total = serializers.IntegerField()
    deletes_total = serializers.IntegerField()
    input_rows_per_second = serializers.FloatField(
        help_text="its inputs' changes accepted per second"
    )
    processed_rows_per_second = serializers.FloatField(
        help_text="its inputs' changes processed per second"
    )
    step_duration_ms = serializers.FloatField(
        allow_null=True, help_text="the latest step that brought its inputs changes"
    )
    state_rows = serializers.IntegerField(help_text="rows its own stateful operators keep")
    late_rows = serializers.IntegerField(help_text="rows its inputs refused as late")
    lag_rows = serializers.IntegerField(help_text="its inputs' changes not processed yet")
    lag_ms = serializers.FloatField(help_text="how long the oldest of them has waited")
    waterlines = serializers.DictField(
        child=serializers.CharField(), help_text="its inputs' and its own, by relation.column"
    )


class PipelineStatsSerializer(serializers.Serializer):
    pipeline = serializers.CharField()
    team = serializers.CharField()
    state = serializers.ChoiceField(choices=State.choices)
    run = serializers.IntegerField()
    last_step = serializers.IntegerField()
    input_rows_total = serializers.IntegerField()
    ingested_seq = serializers.IntegerField()
    processed_seq = serializers.IntegerField()
    lag_rows = serializers.IntegerField()
    lag_ms = serializers.FloatField()
    input_rows_per_second = serializers.FloatField()
    processed_rows_per_second = serializers.FloatField()
    step_duration_ms = StepDurationSerializer()
    state_rows = serializers.IntegerField()
    late_rows = serializers.DictField(child=serializers.IntegerField())
    late_rows_total = serializers.IntegerField()
    waterlines = serializers.DictField(child=serializers.CharField())
    views = ViewStatsSerializer(many=True)
    errors = serializers.IntegerField()


class MetricSampleSerializer(serializers.Serializer):
    time = serializers.DateTimeField()
    step = serializers.IntegerField()
    input_rows = serializers.IntegerField()
    input_rows_per_second = serializers.FloatField()
    processed_rows_per_second = serializers.FloatField()
    step_duration_ms = serializers.FloatField(source="duration_ms")
    state_rows = serializers.IntegerField()
    late_rows = serializers.IntegerField()
    lag_rows = serializers.IntegerField()
    lag_ms = serializers.FloatField()
    waterlines = serializers.DictField(child=serializers.CharField())
    views = serializers.SerializerMethodField(
        help_text="each published view's figures after this step (late_rows: refused in it)"
    )

    @extend_schema_field(ViewStatsSerializer(many=True))
    def get_views(self, sample: PipelineMetric) -> list[dict[str, Any]]:
        return view_stats.sample_views(self.context["plan"], sample)


class MetricsQuerySerializer(serializers.Serializer):
    since = serializers.DateTimeField(required=False)
    limit = serializers.IntegerField(required=False, min_value=1, max_value=10_000, default=300)


class PipelineStatsApi(APIView):
    @extend_schema(
        responses={200: PipelineStatsSerializer, 404: ErrorSerializer},
        operation_id="pipelines_stats",
    )
    def get(self, request: Request, name: str) -> Response:
        pipeline = selectors.pipeline_get(user=request.user, name=name, team=team_param(request))
        return Response(stats.pipeline_stats(pipeline=pipeline))


class PipelineMetricsApi(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("since", OpenApiTypes.DATETIME, required=False),
            OpenApiParameter(
                "limit", int, required=False, description="default 300, at most 10000"
            ),
        ],
        responses={
            200: MetricSampleSerializer(many=True),
            400: ErrorSerializer,
            404: ErrorSerializer,
        },
        operation_id="pipelines_metrics",
    )
    def get(self, request: Request, name: str) -> Response:
        pipeline = selectors.pipeline_get(user=request.user, name=name, team=team_param(request))
        params = MetricsQuerySerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        samples = stats.pipeline_metric_series(pipeline=pipeline, **params.validated_data)
        context = {"plan": pipeline.program_version.plan or {}}
        return Response(MetricSampleSerializer(samples, many=True, context=context).data)


class PrometheusApi(APIView):
    renderer_classes = text_renderers(PlainTextRenderer)

    @extend_schema(
        responses={(200, "text/plain"): OpenApiTypes.STR},
        operation_id="metrics_prometheus",
        description="Every visible pipeline's figures in Prometheus' text format.",
    )
    def get(self, request: Request) -> HttpResponse:
        text = prometheus.prometheus_text(selectors.pipeline_list(user=request.user))
        return HttpResponse(text, content_type="text/plain; version=0.0.4; charset=utf-8")


def _published_view(pipeline: Pipeline, name: str) -> dict[str, Any]:
    """The program's published (non-LOCAL) view `name` names (as SQL matches names)."""
    relations = pipeline.program_version.catalog.get("relations", [])
    view = relation_named([r for r in relations if r["kind"] == "view"], name)
    if view is None or view.get("local"):
        raise NotFound(f"Pipeline '{pipeline.name}' has no published view '{name}'")
    return view


class PipelineEgressApi(APIView):
    renderer_classes = text_renderers(NdjsonRenderer)

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "from", str, required=False,
                description="now (default): changes after the last step; a step k: after k",
            ),
            OpenApiParameter(
                "snapshot", bool, required=False,
                description="first send the view's rows after the starting step",
            ),
            OpenApiParameter(
                "run", int, required=False,
                description="the run `from` counts in (default: the current one); of a run "
                "that is over, the stream sends a reset line and the current run from its "
                "start",
            ),
        ],
        responses={
            (200, "application/x-ndjson"): OpenApiTypes.STR,
            400: ErrorSerializer,
            404: ErrorSerializer,
        },
        operation_id="pipelines_egress",
        description="A view's changes as JSON lines, until the client disconnects: "
        'optionally {"snapshot": true, "run": r, "step": n, "rows": [...]}, then '
        '{"run": r, "step": n, "changes": [...]} for each later step that changed the view, '
        'and {"reset": true, "run": r} when a deploy with reset_state starts a new run.',
    )  # fmt: skip
    def get(self, request: Request, name: str, view: str) -> StreamingHttpResponse:
        pipeline = selectors.pipeline_get(user=request.user, name=name, team=team_param(request))
        snapshot = request.query_params.get("snapshot", "false")
        if snapshot not in ("true", "false"):
            raise ApplicationError("snapshot must be true or false", details={"field": "snapshot"})
        found = _published_view(pipeline, view)
        from_ = request.query_params.get("from", "now")
        run = run_param(request.query_params.get("run"))
        if run is None or run == pipeline.run:  # `from` counts in the current run
            start_step(last_step=pipeline.last_step, from_=from_)  # a bad `from` is a 400 now
        elif from_ != "now" and not from_.isdigit():
            raise ApplicationError("from must be 'now' or a step", details={"field": "from"})
        egress = Egress(
            request.user,
            pipeline.pk,
            found["name"],
            from_,
            snapshot == "true",
            run=pipeline.run if run is None else run,
        )
        return _ndjson(egress.lines())


def _ndjson(lines: AsyncIterator[bytes]) -> StreamingHttpResponse:
    response = StreamingHttpResponse(lines, content_type="application/x-ndjson")
    # Proxies must pass each line on as it comes.
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


class QueryRequestSerializer(serializers.Serializer):
    sql = serializers.CharField(help_text="SELECT ... or SELECT STREAM ...")


class QueryColumnSerializer(serializers.Serializer):
    name = serializers.CharField()
    type = serializers.CharField()


class QueryResultSerializer(serializers.Serializer):
    step = serializers.IntegerField(help_text="the rows are the content after this step")
    columns = QueryColumnSerializer(many=True)
    rows = serializers.ListField(child=serializers.DictField())
    truncated = serializers.BooleanField(help_text="more rows than WEIR_QUERY_MAX_ROWS")


class PipelineQueryApi(APIView):
    renderer_classes = text_renderers(NdjsonRenderer)

    @extend_schema(
        request=QueryRequestSerializer,
        responses={
            (200, "application/json"): QueryResultSerializer,
            (200, "application/x-ndjson"): OpenApiTypes.STR,
            400: ErrorSerializer,
            404: ErrorSerializer,
            409: ErrorSerializer,
            504: ErrorSerializer,
        },
        operation_id="pipelines_query",
        description="A plain SELECT answers the rows of the current snapshot (JSON). A "
        'SELECT STREAM streams JSON lines: {"columns": [...]}, then {"step": n, '
        '"changes": [...]} for each step from now on, until the client disconnects.',
    )
    def post(self, request: Request, name: str) -> HttpResponseBase:
        pipeline = selectors.pipeline_get(user=request.user, name=name, team=team_param(request))
        body = request.data
        if not isinstance(body, dict) or set(body) != {"sql"}:
            raise ApplicationError('Expected {"sql": "SELECT ..."}', details={"field": "sql"})
        view, stream = queries.compile_query(pipeline, body["sql"])
        if stream:
            return _ndjson(queries.stream_query(request.user, pipeline.pk, view))
        return Response(queries.snapshot_query(pipeline, view))


class PipelinePumpSerializer(serializers.Serializer):
    name = serializers.CharField()
    target = serializers.CharField(help_text="the stream or table it inserts into")
    sources = serializers.ListField(child=serializers.CharField())
    state = serializers.ChoiceField(choices=Pump.State.choices)
    processed_rows = serializers.IntegerField(help_text="rows it inserted so far")


class PipelinePumpsApi(APIView):
    @extend_schema(responses=PipelinePumpSerializer(many=True), operation_id="pipelines_pumps")
    def get(self, request: Request, name: str) -> Response:
        return Response(
            PipelinePumpSerializer(
                pumps.pump_list(user=request.user, name=name, team=team_param(request)), many=True
            ).data
        )


class PipelinePumpActionApi(APIView):
    @extend_schema(
        request=None,
        parameters=[_action_parameter("the pump action")],
        responses={202: PipelinePumpSerializer, 404: ErrorSerializer, 409: ErrorSerializer},
        operation_id="pipelines_pump_action",
    )
    def post(self, request: Request, name: str, pump: str, action: str) -> Response:
        shaped = pumps.pump_request_action(
            user=request.user,
            name=name,
            team=team_param(request),
            pump=pump,
            action=action,
            actor=_actor(request),
        )
        return Response(PipelinePumpSerializer(shaped).data, status=status.HTTP_202_ACCEPTED)
