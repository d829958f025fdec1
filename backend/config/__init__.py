# Load the Celery app with Django, so tasks queued by the web server use its broker.
from worker.app import app as celery_app

__all__ = ["celery_app"]
