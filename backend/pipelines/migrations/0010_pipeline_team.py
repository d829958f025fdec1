import django.db.models.deletion
from django.db import migrations, models


def to_program_team(apps, schema_editor):
    """A pipeline belongs to its program's team."""
    Pipeline = apps.get_model("pipelines", "Pipeline")
    Program = apps.get_model("programs", "Program")
    for program_id, team_id in Program.objects.values_list("pk", "team_id"):
        Pipeline.objects.filter(program_id=program_id).update(team_id=team_id)


class Migration(migrations.Migration):
    """A pipeline's name is unique within its team (its program's), no longer across all
    teams: the pipeline keeps its team beside its name."""

    dependencies = [
        ("accounts", "0001_initial"),
        ("programs", "0003_program_name_per_team"),
        ("pipelines", "0009_metrics_per_relation"),
    ]

    operations = [
        migrations.AddField(
            model_name="pipeline",
            name="team",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="pipelines",
                to="accounts.team",
            ),
        ),
        migrations.RunPython(to_program_team, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="pipeline",
            name="team",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="pipelines",
                to="accounts.team",
            ),
        ),
        migrations.AlterField(
            model_name="pipeline",
            name="name",
            field=models.SlugField(max_length=100),
        ),
        migrations.AddConstraint(
            model_name="pipeline",
            constraint=models.UniqueConstraint(
                fields=("team", "name"), name="unique_pipeline_name_per_team"
            ),
        ),
    ]
