"""HTTP API for pipelines: create, read, lifecycle actions, deploys, ingress, stored deltas."""

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser, JSONParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.accounts.models import ApiKey
from backend.core.apis import ErrorSerializer
from backend.core.errors import ApplicationError
from backend.pipelines import pumps, selectors, services
from backend.pipelines.models import DesiredState, OnRunnerFailure, Pump, State


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
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


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
            user=request.user, name=name, relation=relation, changes=payload, format=format_
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
            PipelinePumpSerializer(pumps.pump_list(user=request.user, name=name), many=True).data
        )


class PipelinePumpActionApi(APIView):
    @extend_schema(
        request=None,
        responses={202: PipelinePumpSerializer, 404: ErrorSerializer, 409: ErrorSerializer},
        operation_id="pipelines_pump_action",
    )
    def post(self, request: Request, name: str, pump: str, action: str) -> Response:
        shaped = pumps.pump_request_action(
            user=request.user, name=name, pump=pump, action=action, actor=_actor(request)
        )
        return Response(PipelinePumpSerializer(shaped).data, status=status.HTTP_202_ACCEPTED)
