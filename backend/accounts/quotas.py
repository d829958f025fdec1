"""How many programs and pipelines a team may keep (settings TEAM_MAX_*).

Programs and pipelines belong to teams (a pipeline to its program's team), so
the limits are per team. The team's row is locked while counting, so two
concurrent creates cannot both take the last place (nor both take one name).
"""

from django.conf import settings

from backend.accounts.models import Team
from backend.core.errors import ApplicationError


def _require_room(team: Team, count: int, limit: int, noun: str) -> None:
    if count >= limit:
        raise ApplicationError(
            f"Team '{team.name}' has reached its limit of {limit} {noun}s; delete one "
            f"first, or raise WEIR_TEAM_MAX_{noun.upper()}S",
            code="quota_exceeded",
            status=403,
            details={"limit": limit},
        )


def _lock(team: Team) -> None:
    list(Team.objects.select_for_update().filter(pk=team.pk).values_list("pk", flat=True))


def require_program_room(team: Team) -> None:
    """Call inside the transaction that creates the program."""
    from backend.programs.models import Program

    _lock(team)
    count = Program.objects.filter(team=team).count()
    _require_room(team, count, settings.TEAM_MAX_PROGRAMS, "program")


def require_pipeline_room(team: Team) -> None:
    """Call inside the transaction that creates the pipeline."""
    from backend.pipelines.models import Pipeline

    _lock(team)
    count = Pipeline.objects.filter(team=team).count()
    _require_room(team, count, settings.TEAM_MAX_PIPELINES, "pipeline")
