from django.apps import AppConfig


class ProgramsConfig(AppConfig):
    name = "backend.programs"
    label = "programs"
