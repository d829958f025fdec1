from django.db import models

from backend.accounts.models import Team


class Program(models.Model):
    """A named program; its text lives in versions, the newest is current."""

    # Unique within its team only: teams do not see (or collide with) each other's names.
    name = models.SlugField(max_length=100)
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="programs")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["team", "name"], name="unique_program_name_per_team")
        ]

    def __str__(self) -> str:
        return self.name


class ProgramVersion(models.Model):
    """One saved text of a program and what the compiler said about it."""

    class Status(models.TextChoices):
        OK = "ok"
        ERROR = "error"

    program = models.ForeignKey(Program, on_delete=models.CASCADE, related_name="versions")
    version = models.PositiveIntegerField()
    sql = models.TextField()
    status = models.CharField(max_length=10, choices=Status.choices)
    diagnostics = models.JSONField(default=list)
    catalog = models.JSONField(default=dict)
    plan = models.JSONField(null=True)
    compile_ms = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["program", "version"], name="unique_program_version")
        ]
        ordering = ["program", "version"]

    def __str__(self) -> str:
        return f"{self.program.name} v{self.version}"
