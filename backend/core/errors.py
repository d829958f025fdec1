"""One error type for user-visible failures, one envelope for every API error.

Every error the API returns has the shape {"message", "code", "details"}.
"""

from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.db import InterfaceError, OperationalError, connection
from django.http import Http404
from rest_framework import exceptions as drf_exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler


class ApplicationError(Exception):
    """A failure the user can act on; mapped to a 4xx response."""

    def __init__(
        self, message: str, *, code: str = "invalid", status: int = 400, details: Any = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = status
        self.details = details


class NotFound(ApplicationError):
    def __init__(self, message: str) -> None:
        super().__init__(message, code="not_found", status=404)


class Conflict(ApplicationError):
    def __init__(self, message: str, *, details: Any = None) -> None:
        super().__init__(message, code="conflict", status=409, details=details)


def error_body(message: str, code: str, details: Any = None) -> dict[str, Any]:
    return {"message": message, "code": code, "details": details}


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ApplicationError):
        return Response(error_body(exc.message, exc.code, exc.details), status=exc.status)
    if isinstance(exc, OperationalError | InterfaceError):
        # The database is down or restarting: nothing was applied, try again.
        connection.close_if_unusable_or_obsolete()
        return Response(
            error_body("The database is unavailable; try again shortly", "unavailable"), 503
        )
    if isinstance(exc, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        return Response(error_body(f"The request is larger than {limit} bytes", "too_large"), 413)
    if isinstance(exc, Http404):
        exc = drf_exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = drf_exceptions.PermissionDenied()
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, drf_exceptions.ValidationError):
        response.data = error_body("Invalid request", "invalid", response.data)
    elif isinstance(exc, drf_exceptions.APIException):
        detail = exc.detail
        message = str(detail) if not isinstance(detail, (dict, list)) else "Request failed"
        response.data = error_body(
            message, exc.get_codes() if isinstance(exc.get_codes(), str) else exc.default_code
        )
    return response
