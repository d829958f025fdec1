from django.urls import re_path

from backend.pipelines.consumers import PipelineConsumer

websocket_urlpatterns = [
    re_path(r"^ws/pipelines/(?P<name>[-\w]+)/$", PipelineConsumer.as_asgi()),
]
