from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "backend.core"
    label = "core"
