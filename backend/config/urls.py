from django.urls import include, path, re_path

from backend.core.apis import HealthApi, SchemaApi, SchemaDocsApi, frontend_index

api_v1 = [
    path("health", HealthApi.as_view(), name="health"),
    path("schema", SchemaApi.as_view(), name="schema"),
    path("docs", SchemaDocsApi.as_view(url_name="schema"), name="docs"),
    path("", include("backend.accounts.urls")),
    path("", include("backend.programs.urls")),
    path("", include("backend.pipelines.urls")),
]

# URLs under /api/ that match no route, and unhandled errors there, answer the API's
# error envelope instead of Django's HTML pages (with DEBUG off, as in production).
handler404 = "backend.core.apis.not_found"
handler500 = "backend.core.apis.server_error"

urlpatterns = [
    path("api/v1/", include(api_v1)),
    re_path(r"^(?!api/|ws/|static/).*$", frontend_index, name="frontend"),
]
