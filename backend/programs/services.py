"""Writes to programs: every save is a new version with its compile result."""

import time
from typing import Any

from django.db import transaction

from backend.compiler import compile_program
from backend.core.errors import Conflict, NotFound
from backend.programs.models import Program, ProgramVersion


def program_validate(*, sql: str) -> dict[str, Any]:
    """Compile text without saving it: diagnostics and catalog."""
    result = compile_program(sql).to_json()
    return {"diagnostics": result["diagnostics"], "catalog": result["catalog"]}


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


@transaction.atomic
def program_create(*, name: str, sql: str) -> ProgramVersion:
    if Program.objects.filter(name=name).exists():
        raise Conflict(f"A program named '{name}' already exists")
    program = Program.objects.create(name=name)
    return _compiled_version(program=program, version=1, sql=sql)


@transaction.atomic
def program_update(*, name: str, sql: str) -> ProgramVersion:
    """Save a new version of the program (the previous ones are kept)."""
    program = Program.objects.select_for_update().filter(name=name).first()
    if program is None:
        raise NotFound(f"No program named '{name}'")
    latest = program.versions.order_by("-version").first()
    version = _compiled_version(
        program=program, version=(latest.version + 1 if latest else 1), sql=sql
    )
    program.save(update_fields=["updated_at"])
    return version
