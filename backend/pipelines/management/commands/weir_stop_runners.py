import os
import signal
import time

from django.core.management.base import BaseCommand

from backend.pipelines.models import Pipeline
from worker import launcher, spares

GRACE_S = 30


class Command(BaseCommand):
    help = (
        "Stop every Spark runner of this installation (their checkpoints are kept) "
        "and its warm spares."
    )

    def handle(self, *args: object, **options: object) -> None:
        spares.stop_spares()
        alive = [
            (p.runner_pid, p.pk)
            for p in Pipeline.objects.exclude(runner_pid=None)
            if launcher.runner_alive(p.runner_pid, p.pk)
        ]
        for pid, _ in alive:
            os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + GRACE_S
        while time.monotonic() < deadline and any(launcher.runner_alive(*a) for a in alive):
            time.sleep(0.2)
        for pid, pipeline_id in alive:
            launcher.kill_runner(pid, pipeline_id)
