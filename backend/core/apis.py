import json
from typing import Any

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.views import defaults
from drf_spectacular.utils import extend_schema, inline_serializer
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.core.errors import NotFound, error_body


class HealthApi(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(
        responses=inline_serializer("Health", {"status": serializers.CharField()}),
        operation_id="health",
    )
    def get(self, request: Request) -> Response:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return Response({"status": "ok"})


def frontend_index(request: HttpRequest) -> HttpResponse:
    """The single-page front end; its assets are served under /static/."""
    index = settings.FRONTEND_DIST / "index.html"
    if not index.exists():
        return HttpResponse(
            "The front end is not built: run `make install`.", status=503, content_type="text/plain"
        )
    return HttpResponse(index.read_bytes(), content_type="text/html")


class ErrorSerializer(serializers.Serializer):
    """The envelope of every error the API returns."""

    message = serializers.CharField()
    code = serializers.CharField()
    details = serializers.JSONField(allow_null=True)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """Django's CSRF refusal, in the API's error envelope."""
    body = error_body(f"CSRF check failed: {reason}", "csrf_failed")
    return JsonResponse(body, status=403)


class JsonErrors:
    """For views that answer something else than JSON (the schema's YAML, the docs' HTML):
    their errors are still the JSON envelope."""

    def finalize_response(
        self, request: Request, response: HttpResponseBase, *args: Any, **kwargs: Any
    ) -> HttpResponseBase:
        if isinstance(response, Response) and response.status_code >= 400:
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = JSONRenderer.media_type
        return super().finalize_response(request, response, *args, **kwargs)  # type: ignore[misc,no-any-return]


class SchemaApi(JsonErrors, SpectacularAPIView):
    """The OpenAPI schema (YAML, or JSON when asked for)."""


class SchemaDocsApi(JsonErrors, SpectacularSwaggerView):
    """The schema's browsable docs (Swagger UI)."""


API_PREFIX = "/api/"
TEAM_PARAMETER_HELP = (
    "the team whose object the name means: needed only when several of your teams have "
    "one of that name (400 team_required, details.teams, otherwise)"
)


def team_param(request: Request) -> str | None:
    """`?team=`: which of the caller's teams a name in the path means (docs/api.md, "Teams")."""
    team = request.query_params.get("team")
    if team and "\x00" in team:  # PostgreSQL text holds no NUL: no team is named so
        raise NotFound(f"No team named {team!r}")
    return team or None


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler404: a URL under /api/ that matches no route answers the error envelope."""
    if request.path.startswith(API_PREFIX):
        body = error_body(f"No API endpoint at {request.path}", "not_found")
        return JsonResponse(body, status=404)
    return defaults.page_not_found(request, exception or Exception())


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: an unhandled error under /api/ answers the error envelope (the
    traceback goes to the log, never to the client)."""
    if request.path.startswith(API_PREFIX):
        body = error_body("Internal server error", "server_error")
        return JsonResponse(body, status=500)
    return defaults.server_error(request)


class _TextRenderer(BaseRenderer):
    """For endpoints that answer text themselves (an HttpResponse): lets a client that
    accepts only that text type through content negotiation; errors are JSON text."""

    charset = "utf-8"

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None
    ) -> bytes:
        if isinstance(data, str):
            return data.encode()
        return json.dumps(data).encode()


class PlainTextRenderer(_TextRenderer):
    media_type = "text/plain"
    format = "txt"


class NdjsonRenderer(_TextRenderer):
    media_type = "application/x-ndjson"
    format = "ndjson"


def text_renderers(renderer: type[BaseRenderer]) -> list[type[BaseRenderer]]:
    """JSON first (errors, and clients that accept anything), then `renderer`."""
    return [JSONRenderer, renderer]
