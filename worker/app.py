"""The Celery app: lifecycle tasks that start and watch Spark runners."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backend.config.settings.dev")

app = Celery("weir")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["worker"], related_name="tasks")
