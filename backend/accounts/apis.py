"""HTTP API for signing in, teams and API keys."""

from typing import Any

from django.contrib.auth import authenticate, login, logout
from django.utils.decorators import method_decorator
from django.views.decorators.csrf import csrf_protect, ensure_csrf_cookie
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.accounts import selectors, services
from backend.accounts.models import ApiKey
from backend.core.apis import ErrorSerializer
from backend.core.errors import ApplicationError


class UserSerializer(serializers.Serializer):
    username = serializers.CharField()
    teams = serializers.ListField(child=serializers.CharField())


class SessionSerializer(serializers.Serializer):
    user = UserSerializer(allow_null=True)


class LoginSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=200, trim_whitespace=False)


class ApiKeySerializer(serializers.Serializer):
    name = serializers.CharField()
    prefix = serializers.CharField()
    scope = serializers.ChoiceField(choices=ApiKey.Scope.choices)
    created_at = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(allow_null=True)
    revoked = serializers.SerializerMethodField()

    def get_revoked(self, api_key: ApiKey) -> bool:
        return api_key.revoked_at is not None


class ApiKeyCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    scope = serializers.ChoiceField(choices=ApiKey.Scope.choices)


class ApiKeyCreatedSerializer(ApiKeySerializer):
    key = serializers.CharField(help_text="The key itself: shown this once, never again.")


class TeamSerializer(serializers.Serializer):
    name = serializers.CharField()


def _user_json(user: Any) -> dict[str, Any] | None:
    if not (user and user.is_authenticated):
        return None
    teams = [team.name for team in selectors.user_teams(user=user)]
    return {"username": user.get_username(), "teams": teams}


@method_decorator(ensure_csrf_cookie, name="dispatch")
class SessionApi(APIView):
    """Who is signed in (null when nobody); also hands the browser its CSRF cookie."""

    permission_classes = [AllowAny]

    @extend_schema(responses=SessionSerializer, operation_id="auth_session")
    def get(self, request: Request) -> Response:
        return Response({"user": _user_json(request.user)})


@method_decorator(csrf_protect, name="dispatch")
class LoginApi(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(
        request=LoginSerializer,
        responses={200: SessionSerializer, 400: ErrorSerializer},
        operation_id="auth_login",
    )
    def post(self, request: Request) -> Response:
        data = LoginSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = authenticate(request._request, **data.validated_data)
        if user is None:
            raise ApplicationError("Wrong user name or password", code="login_failed")
        login(request._request, user)
        return Response({"user": _user_json(user)})


class LogoutApi(APIView):
    @extend_schema(request=None, responses=SessionSerializer, operation_id="auth_logout")
    def post(self, request: Request) -> Response:
        logout(request._request)
        return Response({"user": None})


class TeamListApi(APIView):
    @extend_schema(responses=TeamSerializer(many=True), operation_id="teams_list")
    def get(self, request: Request) -> Response:
        return Response(TeamSerializer(selectors.user_teams(user=request.user), many=True).data)


class ApiKeyListApi(APIView):
    @extend_schema(responses=ApiKeySerializer(many=True), operation_id="api_keys_list")
    def get(self, request: Request) -> Response:
        keys = selectors.api_keys_of(user=request.user)
        return Response(ApiKeySerializer(keys, many=True).data)

    @extend_schema(
        request=ApiKeyCreateSerializer,
        responses={201: ApiKeyCreatedSerializer, 400: ErrorSerializer},
        operation_id="api_keys_create",
    )
    def post(self, request: Request) -> Response:
        data = ApiKeyCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        api_key, key = services.api_key_create(user=request.user, **data.validated_data)
        body = {**ApiKeySerializer(api_key).data, "key": key}
        return Response(body, status=status.HTTP_201_CREATED)


class ApiKeyDetailApi(APIView):
    @extend_schema(
        request=None,
        responses={200: ApiKeySerializer, 404: ErrorSerializer},
        operation_id="api_keys_revoke",
    )
    def delete(self, request: Request, prefix: str) -> Response:
        api_key = services.api_key_revoke(user=request.user, prefix=prefix)
        return Response(ApiKeySerializer(api_key).data)
