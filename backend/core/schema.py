"""The OpenAPI schema declares, for every operation, the errors it can answer, all in the
one error envelope (backend/core/errors.py): what authentication, CSRF, scopes, bodies,
path names and the database can refuse, besides what each view declares itself."""

from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiParameter
from rest_framework.permissions import AllowAny

UNSAFE_METHODS = ("POST", "PUT", "PATCH", "DELETE")
DESCRIPTIONS = {
    "400": "invalid input (details say where)",
    "401": "not signed in: no session and no valid API key",
    "403": "not allowed: a read-only key, a failed CSRF check, a team's quota",
    "404": "no such object, or not your team's",
    "409": "the state forbids it (details.state), or the name is taken",
    "413": "the request body is larger than WEIR_MAX_REQUEST_BYTES",
    "503": "the database is unavailable: nothing was applied, try again",
    "504": "the pipeline's runner did not answer in time",
}


# Routes whose path names a program or a pipeline: names are unique within a team only.
NAMED_BY_TEAM = ("/api/v1/programs/{name}", "/api/v1/pipelines/{name}")


class ApiAutoSchema(AutoSchema):  # type: ignore[misc]
    def get_override_parameters(self) -> list[Any]:
        """Every route keyed by a program's or pipeline's name takes `?team=`."""
        from backend.core.apis import TEAM_PARAMETER_HELP

        parameters: list[Any] = list(super().get_override_parameters())
        if self.path.startswith(NAMED_BY_TEAM):
            parameters.append(
                OpenApiParameter("team", str, required=False, description=TEAM_PARAMETER_HELP)
            )
        return parameters

    def _get_response_bodies(self, direction: str = "response") -> dict[str, Any]:
        # Not at import: apis.py's decorators need this class, so it imports after it.
        from backend.core.apis import ErrorSerializer

        responses: dict[str, Any] = super()._get_response_bodies(direction)
        for code in self.error_responses():
            if code not in responses:
                responses[code] = self._get_response_for_code(
                    ErrorSerializer, code, direction=direction
                )
        for code, response in responses.items():
            if int(code) >= 400 and not response.get("description"):
                response["description"] = DESCRIPTIONS.get(code, "refused")
        return dict(sorted(responses.items()))

    def error_responses(self) -> list[str]:
        """The error statuses every operation of this shape can answer."""
        codes = ["503"]
        signed_in = not any(isinstance(p, AllowAny) for p in self.view.get_permissions())
        has_body = self.method in UNSAFE_METHODS and self.get_request_serializer() is not None
        if has_body or any(p["in"] == "query" for p in self._get_parameters()):
            codes.append("400")
        if signed_in:
            codes.append("401")
        if self.method in UNSAFE_METHODS:
            codes.append("403")
        if "{" in self.path:
            codes.append("404")
        if has_body:
            codes.append("413")
        return codes
