"""HTTP API for pipelines: create, read, lifecycle actions, deploys, ingress, stored deltas."""

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.accounts.models import ApiKey
from backend.core.apis import ErrorSerializer
from backend.core.errors import ApplicationError
from backend.pipelines import selectors, services
from backend.pipelines.config import effective_config
from backend.pipelines.models import DesiredState, OnRunnerFailure, Pipeline, State


class ConnectorSerializer(serializers.Serializer):
    view = serializers.CharField()
    type = serializers.ChoiceField(choices=["file", "postgres"])
    path = serializers.CharField(required=False, help_text="file: an absolute directory")
    format = serializers.ChoiceField(choices=["jsonl"], required=False)
    url = serializers.CharField(required=False, help_text="postgres: postgresql://...")
    table = serializers.CharField(required=False)


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


class PipelineSerializer(serializers.Serializer):
    name = serializers.CharField()
    program = serializers.CharField(source="program.name")
    program_version = serializers.IntegerField(source="program_version.version")
    desired_state = serializers.ChoiceField(choices=DesiredState.choices)
    state = serializers.ChoiceField(choices=State.choices)
    error = serializers.CharField(allow_blank=True)
    last_step = serializers.IntegerField()
    on_runner_failure = serializers.ChoiceField(choices=OnRunnerFailure.choices)
    runner_pid = serializers.IntegerField(
        allow_null=True, help_text="The Spark runner's process id, while one runs."
    )
    config = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()

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
        pipelines = selectors.pipeline_list(user=request.user)
        return Response(PipelineSerializer(pipelines, many=True).data)

    @extend_schema(
        request=PipelineCreateSerializer,
        responses={201: PipelineSerializer, 400: ErrorSerializer, 409: ErrorSerializer},
        operation_id="pipelines_create",
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
            PipelineSerializer(selectors.pipeline_get(user=request.user, name=name)).data
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
            actor=_actor(request),
            config=body.get("config"),
            on_runner_failure=failure,
        )
        return Response(PipelineSerializer(pipeline).data)


class PipelineActionApi(APIView):
    @extend_schema(
        request=None,
        responses={202: PipelineSerializer, 404: ErrorSerializer, 409: ErrorSerializer},
        operation_id="pipelines_action",
    )
    def post(self, request: Request, name: str, action: str) -> Response:
        pipeline = services.pipeline_request_action(
            user=request.user, name=name, action=action, actor=_actor(request)
        )
        return Response(PipelineSerializer(pipeline).data, status=status.HTTP_202_ACCEPTED)


class PipelineDeployApi(APIView):
    @extend_schema(
        request=None,
        responses={200: PipelineSerializer, 404: ErrorSerializer, 409: ErrorSerializer},
        operation_id="pipelines_deploy",
    )
    def post(self, request: Request, name: str) -> Response:
        pipeline = services.pipeline_deploy(user=request.user, name=name, actor=_actor(request))
        return Response(PipelineSerializer(pipeline).data)


class PipelineIngressApi(APIView):
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
        if format_ == "csv":
            try:
                payload: Any = request.body.decode("utf-8")
            except UnicodeDecodeError as err:
                raise ApplicationError("The CSV body is not UTF-8 text") from err
        else:
            payload = request.data
        accepted, seq = services.pipeline_ingest(
            user=request.user, name=name, relation=relation, changes=payload, format=format_
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
        body = request.data
        if not isinstance(body, dict) or "bound" not in body:
            raise ApplicationError('Expected a rowtime bound {"bound": time, "strict": false}')
        accepted, seq = services.pipeline_ingest(
            user=request.user, name=name, relation=relation, changes=[body]
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
        pipeline = selectors.pipeline_get(user=request.user, name=name)
        deltas = selectors.pipeline_deltas(pipeline=pipeline, after_step=after_step)
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
        pipeline = selectors.pipeline_get(user=request.user, name=name)
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
        pipeline = selectors.pipeline_get(user=request.user, name=name)
        return Response(
            PipelineEventSerializer(selectors.pipeline_events(pipeline=pipeline), many=True).data
        )
