from django.apps import AppConfig


class PipelinesConfig(AppConfig):
    name = "backend.pipelines"
    label = "pipelines"
