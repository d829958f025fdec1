from django.urls import path

import backend.core.converters  # noqa: F401  (registers <text:...>)
from backend.accounts import apis

urlpatterns = [
    path("auth/session", apis.SessionApi.as_view(), name="auth-session"),
    path("auth/login", apis.LoginApi.as_view(), name="auth-login"),
    path("auth/logout", apis.LogoutApi.as_view(), name="auth-logout"),
    path("teams", apis.TeamListApi.as_view(), name="teams"),
    path("api_keys", apis.ApiKeyListApi.as_view(), name="api-keys"),
    path("api_keys/<text:prefix>", apis.ApiKeyDetailApi.as_view(), name="api-key"),
]
