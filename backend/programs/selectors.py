"""Reads of programs: a user sees the programs of their teams only.

Program names are unique within a team: a user in several teams names the team
(`team`) when more than one of them has a program of that name.
"""

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet

from backend.accounts.naming import one_named
from backend.core.errors import NotFound
from backend.programs.models import Program, ProgramVersion


def visible_programs(*, user: AbstractBaseUser) -> QuerySet[Program]:
    return Program.objects.filter(team__members=user)


def program_get(*, user: AbstractBaseUser, name: str, team: str | None = None) -> Program:
    """The visible program `name` (of `team`): 404 when there is none, 400 team_required
    when several of the user's teams have one."""
    return one_named(visible_programs(user=user), name=name, team=team, noun="program")


def program_latest_of(*, program: Program) -> ProgramVersion:
    version = (
        ProgramVersion.objects.select_related("program", "program__team")
        .filter(program=program)
        .order_by("-version")
        .first()
    )
    if version is None:
        raise NotFound(f"Program '{program.name}' has no version")
    return version


def program_latest_version(
    *, user: AbstractBaseUser, name: str, team: str | None = None
) -> ProgramVersion:
    return program_latest_of(program=program_get(user=user, name=name, team=team))


def program_latest_versions(*, user: AbstractBaseUser) -> list[ProgramVersion]:
    programs = (
        visible_programs(user=user)
        .select_related("team")
        .order_by("name", "team__name")
        .prefetch_related("versions")
    )
    return [max(p.versions.all(), key=lambda v: v.version) for p in programs if p.versions.all()]


def program_versions(
    *, user: AbstractBaseUser, name: str, team: str | None = None
) -> QuerySet[ProgramVersion]:
    program = program_get(user=user, name=name, team=team)
    return ProgramVersion.objects.filter(program=program).order_by("version")


def program_version(
    *, user: AbstractBaseUser, name: str, version: int, team: str | None = None
) -> ProgramVersion:
    """One saved version of a visible program, with its compile result."""
    program = program_get(user=user, name=name, team=team)
    found = ProgramVersion.objects.select_related("program").filter(
        program=program, version=version
    )
    first = found.first()
    if first is None:
        raise NotFound(f"Program '{name}' has no version {version}")
    return first
