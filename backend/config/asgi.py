"""ASGI entry point: HTTP (API, front end, static files) and websockets."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backend.config.settings.dev")

from django.core.asgi import get_asgi_application

django_http = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402

from backend.accounts.websocket import authenticated_websockets  # noqa: E402
from backend.pipelines.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": ASGIStaticFilesHandler(django_http),
        "websocket": authenticated_websockets(URLRouter(websocket_urlpatterns)),
    }
)
