"""Websocket authentication: the browser's session cookie, or an API key header."""

from typing import Any

from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.middleware import BaseMiddleware
from channels.security.websocket import OriginValidator
from django.conf import settings
from django.contrib.auth.models import AnonymousUser

from backend.accounts.auth import bearer_key
from backend.accounts.selectors import api_key_verify


class ApiKeyMiddleware(BaseMiddleware):  # type: ignore[misc]
    """`Authorization: Bearer <key>` on the handshake replaces the session's user."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        headers = dict(scope.get("headers", []))
        key = bearer_key(headers.get(b"authorization", b"").decode("latin-1"))
        if key is not None:
            api_key = await database_sync_to_async(api_key_verify)(key=key)
            scope = {**scope, "user": api_key.user if api_key else AnonymousUser()}
        return await super().__call__(scope, receive, send)


class BrowserOriginValidator(OriginValidator):  # type: ignore[misc]
    """A browser always sends Origin: it must be this site. Other clients send none."""

    def valid_origin(self, parsed_origin: Any) -> bool:
        return parsed_origin is None or bool(super().valid_origin(parsed_origin))


def authenticated_websockets(inner: Any) -> Any:
    return BrowserOriginValidator(
        AuthMiddlewareStack(ApiKeyMiddleware(inner)), settings.ALLOWED_HOSTS
    )
