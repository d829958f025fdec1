"""Reads of programs."""

from django.db.models import QuerySet

from backend.core.errors import NotFound
from backend.programs.models import Program, ProgramVersion


def program_latest_version(*, name: str) -> ProgramVersion:
    version = (
        ProgramVersion.objects.select_related("program")
        .filter(program__name=name)
        .order_by("-version")
        .first()
    )
    if version is None:
        raise NotFound(f"No program named '{name}'")
    return version


def program_latest_versions() -> list[ProgramVersion]:
    programs = Program.objects.order_by("name").prefetch_related("versions")
    return [max(p.versions.all(), key=lambda v: v.version) for p in programs if p.versions.all()]


def program_versions(*, name: str) -> QuerySet[ProgramVersion]:
    if not Program.objects.filter(name=name).exists():
        raise NotFound(f"No program named '{name}'")
    return ProgramVersion.objects.filter(program__name=name).order_by("version")
