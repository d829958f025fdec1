"""Writes to programs: every save is a new version with its compile result."""

import time
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from backend.accounts.models import Team
from backend.accounts.quotas import require_program_room
from backend.accounts.selectors import user_teams
from backend.compiler import compile_program
from backend.core.errors import ApplicationError, Conflict, NotFound
from backend.programs import compile_caches
from backend.programs.models import Program, ProgramVersion
from backend.programs.selectors import program_get


def program_validate(*, sql: str, user: AbstractBaseUser | None = None) -> dict[str, Any]:
    """Compile text without saving it: diagnostics, catalog and plan (the IDE draws its graph).

    The editor validates on every keystroke: the user's compile cache keeps what
    the statements that did not change compiled to.
    """
    cache = None
    if user is not None and len(sql) <= compile_caches.MAX_CHARS:
        cache = compile_caches.CACHES.of(user.pk)
    result = compile_program(sql, cache).to_json()
    return {
        "diagnostics": result["diagnostics"],
        "catalog": result["catalog"],
        "plan": result["plan"],
    }


def _compiled_version(*, program: Program, version: int, sql: str) -> ProgramVersion:
    started = time.perf_counter()
    result = compile_program(sql).to_json()
    compile_ms = (time.perf_counter() - started) * 1000
    has_errors = any(d["severity"] == "error" for d in result["diagnostics"])
    return ProgramVersion.objects.create(
        program=program,
        version=version,
        sql=sql,
        status=ProgramVersion.Status.ERROR if has_errors else ProgramVersion.Status.OK,
        diagnostics=result["diagnostics"],
        catalog=result["catalog"],
        plan=result["plan"],
        compile_ms=round(compile_ms, 3),
    )


def _owning_team(user: AbstractBaseUser, team: str | None) -> Team:
    """The team a new object goes to: the one named, or the user's only team."""
    teams = list(user_teams(user=user))
    if team is not None:
        for candidate in teams:
            if candidate.name == team:
                return candidate
        raise NotFound(f"You are not in a team named '{team}'")
    if len(teams) != 1:
        raise ApplicationError(
            "Say which team this belongs to ('team')" if teams else "You are in no team",
            code="team_required",
            details={"teams": [t.name for t in teams]},
        )
    return teams[0]


@transaction.atomic
def program_create(
    *, user: AbstractBaseUser, name: str, sql: str, team: str | None = None
) -> ProgramVersion:
    owner = _owning_team(user, team)
    require_program_room(owner)  # locks the team: its names are checked one create at a time
    if Program.objects.filter(team=owner, name=name).exists():
        raise Conflict(f"Team '{owner.name}' already has a program named '{name}'")
    program = Program.objects.create(name=name, team=owner)
    return _compiled_version(program=program, version=1, sql=sql)


@transaction.atomic
def program_update(
    *, user: AbstractBaseUser, name: str, sql: str, team: str | None = None
) -> ProgramVersion:
    """Save a new version of the program (the previous ones are kept)."""
    found = program_get(user=user, name=name, team=team)
    program = Program.objects.select_for_update().get(pk=found.pk)
    latest = program.versions.order_by("-version").first()
    version = _compiled_version(
        program=program, version=(latest.version + 1 if latest else 1), sql=sql
    )
    program.save(update_fields=["updated_at"])
    return version
