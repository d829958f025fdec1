import os

from .base import *  # noqa: F403

SECRET_KEY = os.environ["WEIR_SECRET_KEY"]
SESSION_COOKIE_SECURE = os.environ.get("WEIR_SECURE_COOKIES", "true") == "true"
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
