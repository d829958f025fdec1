from django.core.management.base import BaseCommand

from backend.demo import DEMO_NAME, DEMO_SQL
from backend.pipelines.models import DesiredState, Pipeline, State
from backend.pipelines.services import pipeline_create, pipeline_request_action
from backend.programs.models import Program
from backend.programs.services import program_create

ACTOR = "make run"


class Command(BaseCommand):
    help = "Create the demo program and pipeline if missing, and start every pipeline meant to run."

    def handle(self, *args: object, **options: object) -> None:
        if not Program.objects.filter(name=DEMO_NAME).exists():
            program_create(name=DEMO_NAME, sql=DEMO_SQL)
        if not Pipeline.objects.filter(name=DEMO_NAME).exists():
            pipeline_create(name=DEMO_NAME, program=DEMO_NAME)
            Pipeline.objects.filter(name=DEMO_NAME).update(desired_state=DesiredState.RUNNING)
        # Pipelines left running by the previous `make run` come back from their checkpoints.
        for pipeline in Pipeline.objects.filter(
            desired_state=DesiredState.RUNNING, state__in=[State.STOPPED, State.FAILED]
        ):
            pipeline_request_action(name=pipeline.name, action="start", actor=ACTOR)
            self.stdout.write(f"weir: starting pipeline '{pipeline.name}'")
