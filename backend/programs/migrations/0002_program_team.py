import django.db.models.deletion
from django.db import migrations, models


def to_default_team(apps, schema_editor):
    """Programs made before teams existed go to a team named 'default'."""
    Program = apps.get_model("programs", "Program")
    Team = apps.get_model("accounts", "Team")
    if Program.objects.filter(team=None).exists():
        team, _ = Team.objects.get_or_create(name="default")
        Program.objects.filter(team=None).update(team=team)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        ("programs", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="program",
            name="team",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="programs",
                to="accounts.team",
            ),
        ),
        migrations.RunPython(to_default_team, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="program",
            name="team",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="programs",
                to="accounts.team",
            ),
        ),
    ]
