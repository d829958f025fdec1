"""Names are unique within a team: finding the object a name means among a caller's teams."""

from typing import TypeVar

from django.db.models import Model, QuerySet

from backend.core.errors import ApplicationError, NotFound

M = TypeVar("M", bound=Model)


def one_named(visible: QuerySet[M], *, name: str, team: str | None, noun: str) -> M:
    """The object called `name` among `visible` (the caller's teams' objects, which have a
    `team`): names are unique within a team only, so a caller in several teams may see
    more than one; `team` then says which. Objects of other teams are never looked at,
    so the answer (404, or which of the caller's teams have the name) tells nothing about
    them.
    """
    found = visible.filter(name=name)
    if team is not None:
        found = found.filter(team__name=team)
    objects = list(found.select_related("team")[:100])
    if not objects:
        where = f" in team '{team}'" if team is not None else ""
        raise NotFound(f"No {noun} named '{name}'{where}")
    if len(objects) > 1:
        teams = sorted(obj.team.name for obj in objects)  # type: ignore[attr-defined]
        raise ApplicationError(
            f"Your teams {', '.join(teams)} each have a {noun} named '{name}': say which "
            "one with ?team=",
            code="team_required",
            details={"teams": teams},
        )
    return objects[0]
