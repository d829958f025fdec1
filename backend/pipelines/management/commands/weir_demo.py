from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from backend.accounts.services import user_ensure
from backend.demo import DEMO_NAME, DEMO_SQL
from backend.pipelines.models import DesiredState, Pipeline, State
from backend.pipelines.services import pipeline_create, pipeline_restart
from backend.programs.models import Program
from backend.programs.services import program_create

ACTOR = "make run"
DEMO_USER = "admin"


class Command(BaseCommand):
    help = (
        "Create the demo user, program and pipeline if missing, "
        "and start every pipeline meant to run."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--password-file", type=Path, required=True)

    def handle(self, *args: Any, **options: Any) -> None:
        password = options["password_file"].read_text().strip()
        user = user_ensure(username=DEMO_USER, password=password, team=DEMO_NAME)
        if not Program.objects.filter(team__name=DEMO_NAME, name=DEMO_NAME).exists():
            program_create(user=user, name=DEMO_NAME, sql=DEMO_SQL, team=DEMO_NAME)
        demo = Pipeline.objects.filter(team__name=DEMO_NAME, name=DEMO_NAME)
        if not demo.exists():
            pipeline_create(user=user, name=DEMO_NAME, program=DEMO_NAME, team=DEMO_NAME)
            demo.update(desired_state=DesiredState.RUNNING)
        # Pipelines left running by the previous `make run` come back from their checkpoints.
        for pipeline in Pipeline.objects.filter(
            desired_state=DesiredState.RUNNING, state__in=[State.STOPPED, State.FAILED]
        ):
            pipeline_restart(pipeline_id=pipeline.pk, actor=ACTOR)
            self.stdout.write(f"weir: starting pipeline '{pipeline.name}'")
