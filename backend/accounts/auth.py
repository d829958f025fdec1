"""Who is calling: a browser session (CSRF enforced) or an API key (`Authorization: Bearer`)."""

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from rest_framework.authentication import BaseAuthentication
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request

from backend.accounts.models import ApiKey
from backend.accounts.selectors import api_key_verify


def bearer_key(authorization: str) -> str | None:
    scheme, _, value = authorization.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


class ApiKeyAuthentication(BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[AbstractBaseUser, ApiKey] | None:
        key = bearer_key(request.headers.get("Authorization", ""))
        if key is None:
            return None
        api_key = api_key_verify(key=key)
        if api_key is None:
            raise AuthenticationFailed("Invalid or revoked API key")
        return api_key.user, api_key

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="weir"'


class IsAuthenticatedWithScope(BasePermission):
    """Signed in; a request made with a read-scoped API key may only read."""

    message = "This API key may only read (its scope is 'read')"

    def has_permission(self, request: Request, view: Any) -> bool:
        if not (request.user and request.user.is_authenticated):
            return False
        api_key = request.auth if isinstance(request.auth, ApiKey) else None
        return api_key is None or request.method in SAFE_METHODS or api_key.scope == "write"
