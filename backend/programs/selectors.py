"""Reads of programs: a user sees the programs of their teams only."""

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet

from backend.core.errors import NotFound
from backend.programs.models import Program, ProgramVersion


def visible_programs(*, user: AbstractBaseUser) -> QuerySet[Program]:
    return Program.objects.filter(team__members=user)


def program_latest_version(*, user: AbstractBaseUser, name: str) -> ProgramVersion:
    version = (
        ProgramVersion.objects.select_related("program", "program__team")
        .filter(program__in=visible_programs(user=user), program__name=name)
        .order_by("-version")
        .first()
    )
    if version is None:
        raise NotFound(f"No program named '{name}'")
    return version


def program_latest_versions(*, user: AbstractBaseUser) -> list[ProgramVersion]:
    programs = visible_programs(user=user).order_by("name").prefetch_related("versions")
    return [max(p.versions.all(), key=lambda v: v.version) for p in programs if p.versions.all()]


def program_versions(*, user: AbstractBaseUser, name: str) -> QuerySet[ProgramVersion]:
    if not visible_programs(user=user).filter(name=name).exists():
        raise NotFound(f"No program named '{name}'")
    return ProgramVersion.objects.filter(program__name=name).order_by("version")


def program_version(*, user: AbstractBaseUser, name: str, version: int) -> ProgramVersion:
    """One saved version of a visible program, with its compile result."""
    found = (
        ProgramVersion.objects.select_related("program")
        .filter(program__in=visible_programs(user=user), program__name=name, version=version)
        .first()
    )
    if found is None:
        if not visible_programs(user=user).filter(name=name).exists():
            raise NotFound(f"No program named '{name}'")
        raise NotFound(f"Program '{name}' has no version {version}")
    return found
