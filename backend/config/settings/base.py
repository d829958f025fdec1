"""Settings shared by every environment.

Services are found through DATABASE_URL and REDIS_URL. When they are not set,
the embedded services that `make run` / `make test` start leave their URLs in
`.state/services.env` (see backend.devstack), and that file is read instead.
"""

import os
from pathlib import Path

import dj_database_url

from backend.embedded import read_env_file

REPO_DIR = Path(__file__).resolve().parents[3]
STATE_DIR = Path(os.environ.get("WEIR_STATE_DIR", REPO_DIR / ".state"))
SERVICES_ENV = STATE_DIR / "services.env"


def service_url(name: str) -> str:
    value = os.environ.get(name) or read_env_file(SERVICES_ENV).get(name)
    if not value:
        raise RuntimeError(
            f"{name} is not set and no embedded service is running: "
            "start Weir with `make run`, or set DATABASE_URL and REDIS_URL."
        )
    return value


SECRET_KEY = os.environ.get("WEIR_SECRET_KEY", "weir-dev-secret-key-change-me-in-production")
DEBUG = False
ALLOWED_HOSTS = os.environ.get("WEIR_ALLOWED_HOSTS", "127.0.0.1,localhost").split(",")

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "backend.core",
    "backend.accounts",
    "backend.programs",
    "backend.pipelines",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]

ROOT_URLCONF = "backend.config.urls"
ASGI_APPLICATION = "backend.config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
    }
]

DATABASE_URL = service_url("DATABASE_URL")
# Connections are kept for a minute, and checked before reuse: after a database restart
# a stale one is replaced instead of failing the request that finds it.
DATABASES = {
    "default": dj_database_url.parse(DATABASE_URL, conn_max_age=60, conn_health_checks=True)
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = service_url("REDIS_URL")
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": None}]},
    }
}

# How long a lifecycle task waits for the Spark runner to acknowledge a transition.
PIPELINE_TRANSITION_TIMEOUT_S = float(os.environ.get("WEIR_TRANSITION_TIMEOUT", "180"))
# What a start task spends besides waiting for the runner: handing the pipeline to warm
# spares (10 s each at most), spawning a runner, starting the next spare.
LIFECYCLE_TASK_SETUP_S = 60

CELERY_BROKER_URL = REDIS_URL
# A task that is not acknowledged this long after delivery is delivered again (Redis's
# default is an hour). Tasks are acknowledged when done (acks_late), so it must be longer
# than a lifecycle task runs, or a running task would be delivered a second time: the
# transition timeout plus setup, with room to spare. The monitor queues again a
# transition whose task died long before this (worker/inflight.py).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(PIPELINE_TRANSITION_TIMEOUT_S + 2 * LIFECYCLE_TASK_SETUP_S)
}
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
PIPELINE_MONITOR_INTERVAL_S = float(os.environ.get("WEIR_MONITOR_INTERVAL", "2"))
CELERY_BEAT_SCHEDULE = {
    "monitor-pipelines": {
        "task": "pipelines.monitor",
        "schedule": PIPELINE_MONITOR_INTERVAL_S,
        "options": {"expires": PIPELINE_MONITOR_INTERVAL_S},
    }
}

TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "/static/"
FRONTEND_DIST = REPO_DIR / "frontend" / "dist"
STATICFILES_DIRS = [FRONTEND_DIST] if FRONTEND_DIST.exists() else []

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "backend.core.schema.ApiAutoSchema",
    "EXCEPTION_HANDLER": "backend.core.errors.api_exception_handler",
    # API keys first: an unauthenticated request then gets 401 with a Bearer challenge.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "backend.accounts.auth.ApiKeyAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["backend.accounts.auth.IsAuthenticatedWithScope"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # `?format=` belongs to the API (ingress takes format=json|csv), not to DRF.
    "URL_FORMAT_OVERRIDE": None,
}

# Ingress requests: bytes per request body, changes per request.
DATA_UPLOAD_MAX_MEMORY_SIZE = int(os.environ.get("WEIR_MAX_REQUEST_BYTES", 16 * 1024 * 1024))
INGRESS_MAX_CHANGES = int(os.environ.get("WEIR_INGRESS_MAX_CHANGES", 100_000))
# Each pipeline is a Spark driver when it runs: a team's count is what one machine can hold.
TEAM_MAX_PROGRAMS = int(os.environ.get("WEIR_TEAM_MAX_PROGRAMS", 1_000))
TEAM_MAX_PIPELINES = int(os.environ.get("WEIR_TEAM_MAX_PIPELINES", 100))
CSRF_FAILURE_VIEW = "backend.core.apis.csrf_failure"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"

SPECTACULAR_SETTINGS = {
    "TITLE": "Weir API",
    "DESCRIPTION": "Control plane for streaming SQL pipelines on Apache Spark.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["backend.accounts.auth.IsAuthenticatedWithScope"],
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI from the installed package: no page may load anything off-origin.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Pipelines and pumps both have a `state`: name each set of choices.
    "ENUM_NAME_OVERRIDES": {
        "PipelineStateEnum": "backend.pipelines.models.State",
        # The states an operator asks for, of a pipeline or of a pump.
        "RunStateEnum": "backend.pipelines.models.DesiredState",
    },
}

# Pipelines: where each pipeline keeps its Spark checkpoints and runner log.
PIPELINE_STORAGE_DIR = Path(os.environ.get("WEIR_PIPELINE_STORAGE", STATE_DIR / "pipelines"))
SPARK_MASTER = os.environ.get("WEIR_SPARK_MASTER", "local[2]")
# Ad-hoc queries: how long a plain SELECT waits for the runner, and the most rows it answers.
QUERY_TIMEOUT_S = float(os.environ.get("WEIR_QUERY_TIMEOUT", "60"))
QUERY_MAX_ROWS = int(os.environ.get("WEIR_QUERY_MAX_ROWS", 10_000))
# Metrics samples kept per pipeline (one per step; older ones are deleted).
METRICS_KEEP_SAMPLES = int(os.environ.get("WEIR_METRICS_KEEP_SAMPLES", 1000))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"timed": {"format": "%(asctime)s %(name)s %(levelname)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "timed"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
    "loggers": {"weir": {"level": "INFO"}},
}
