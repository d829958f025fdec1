"""HTTP API for programs: validate, create, read, save new versions."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.core.apis import ErrorSerializer, team_param
from backend.programs import selectors, services
from backend.programs.models import ProgramVersion

MAX_SQL_CHARS = 1_000_000


class SpanSerializer(serializers.Serializer):
    """1-based lines and columns, end exclusive (as Monaco counts them)."""

    start_line_number = serializers.IntegerField()
    start_column = serializers.IntegerField()
    end_line_number = serializers.IntegerField()
    end_column = serializers.IntegerField()


class DiagnosticNoteSerializer(SpanSerializer):
    message = serializers.CharField()


class DiagnosticSerializer(SpanSerializer):
    code = serializers.CharField()
    severity = serializers.ChoiceField(choices=["error", "warning"])
    message = serializers.CharField()
    snippet = serializers.CharField(allow_blank=True)
    hint = serializers.CharField(allow_null=True)
    notes = DiagnosticNoteSerializer(many=True)


class ColumnSerializer(serializers.Serializer):
    name = serializers.CharField()
    type = serializers.CharField()
    nullable = serializers.BooleanField()
    lateness = serializers.JSONField(allow_null=True, help_text="a constant expression")
    watermark = serializers.JSONField(allow_null=True, help_text="a constant expression")
    waterline = serializers.BooleanField(help_text="the compiler inferred a waterline")


class RelationSerializer(serializers.Serializer):
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=["table", "stream", "view"])
    columns = ColumnSerializer(many=True)
    primary_key = serializers.ListField(child=serializers.CharField())
    append_only = serializers.BooleanField()
    materialized = serializers.BooleanField()
    local = serializers.BooleanField()
    emit_final = serializers.IntegerField(allow_null=True, help_text="views: the column index")
    output_mode = serializers.ChoiceField(
        choices=["append", "update"], allow_null=True, help_text="views only"
    )


class PumpSerializer(serializers.Serializer):
    name = serializers.CharField()
    target = serializers.CharField()
    started = serializers.BooleanField()
    sources = serializers.ListField(child=serializers.CharField())


class CatalogSerializer(serializers.Serializer):
    relations = RelationSerializer(many=True)
    pumps = PumpSerializer(many=True, default=list)


class SqlInputSerializer(serializers.Serializer):
    sql = serializers.CharField(allow_blank=True, trim_whitespace=False, max_length=MAX_SQL_CHARS)


class ProgramCreateSerializer(SqlInputSerializer):
    name = serializers.SlugField(max_length=100)
    team = serializers.SlugField(max_length=100, required=False)


class ValidateOutputSerializer(serializers.Serializer):
    diagnostics = DiagnosticSerializer(many=True)
    catalog = CatalogSerializer()
    plan = serializers.JSONField(
        allow_null=True, help_text="the plan (docs/contracts.md); null when there are errors"
    )


class ProgramSerializer(serializers.Serializer):
    name = serializers.CharField(source="program.name")
    team = serializers.CharField(source="program.team.name")
    sql = serializers.CharField()
    version = serializers.IntegerField()
    status = serializers.ChoiceField(choices=ProgramVersion.Status.choices)
    diagnostics = DiagnosticSerializer(many=True)
    catalog = CatalogSerializer()
    compile_ms = serializers.FloatField()
    created_at = serializers.DateTimeField(source="program.created_at")
    updated_at = serializers.DateTimeField(source="created_at")


class ProgramVersionSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    sql = serializers.CharField()
    status = serializers.ChoiceField(choices=ProgramVersion.Status.choices)
    diagnostics = DiagnosticSerializer(many=True)
    compile_ms = serializers.FloatField()
    created_at = serializers.DateTimeField()


class ProgramVersionDetailSerializer(ProgramVersionSerializer):
    catalog = CatalogSerializer()
    plan = serializers.JSONField(
        allow_null=True,
        help_text="the plan a pipeline on this version runs (docs/contracts.md); null when "
        "the version has errors",
    )


class ValidateApi(APIView):
    @extend_schema(
        request=SqlInputSerializer,
        responses={200: ValidateOutputSerializer, 400: ErrorSerializer},
        operation_id="validate",
    )
    def post(self, request: Request) -> Response:
        data = SqlInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(
            services.program_validate(sql=data.validated_data["sql"], user=request.user)
        )


class ProgramListApi(APIView):
    @extend_schema(responses=ProgramSerializer(many=True), operation_id="programs_list")
    def get(self, request: Request) -> Response:
        versions = selectors.program_latest_versions(user=request.user)
        return Response(ProgramSerializer(versions, many=True).data)

    @extend_schema(
        request=ProgramCreateSerializer,
        responses={
            201: ProgramSerializer,
            400: ErrorSerializer,
            404: ErrorSerializer,
            409: ErrorSerializer,
        },
        operation_id="programs_create",
        description="400 team_required when you are in several teams and name none; 404 "
        "when you are not in the team named; 409 when the team has a program of that name.",
    )
    def post(self, request: Request) -> Response:
        data = ProgramCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        version = services.program_create(user=request.user, **data.validated_data)
        return Response(ProgramSerializer(version).data, status=status.HTTP_201_CREATED)


class ProgramDetailApi(APIView):
    @extend_schema(
        responses={200: ProgramSerializer, 404: ErrorSerializer}, operation_id="programs_retrieve"
    )
    def get(self, request: Request, name: str) -> Response:
        version = selectors.program_latest_version(
            user=request.user, name=name, team=team_param(request)
        )
        return Response(ProgramSerializer(version).data)

    @extend_schema(
        request=SqlInputSerializer,
        responses={200: ProgramSerializer, 400: ErrorSerializer, 404: ErrorSerializer},
        operation_id="programs_update",
    )
    def put(self, request: Request, name: str) -> Response:
        data = SqlInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        version = services.program_update(
            user=request.user, name=name, sql=data.validated_data["sql"], team=team_param(request)
        )
        return Response(ProgramSerializer(version).data)


class ProgramVersionListApi(APIView):
    @extend_schema(responses=ProgramVersionSerializer(many=True), operation_id="programs_versions")
    def get(self, request: Request, name: str) -> Response:
        versions = selectors.program_versions(
            user=request.user, name=name, team=team_param(request)
        )
        return Response(ProgramVersionSerializer(versions, many=True).data)


class ProgramVersionDetailApi(APIView):
    @extend_schema(
        responses={200: ProgramVersionDetailSerializer, 404: ErrorSerializer},
        operation_id="programs_version",
        description="One saved version with its compile result: diagnostics, catalog and plan.",
    )
    def get(self, request: Request, name: str, version: int) -> Response:
        found = selectors.program_version(
            user=request.user, name=name, version=version, team=team_param(request)
        )
        return Response(ProgramVersionDetailSerializer(found).data)
