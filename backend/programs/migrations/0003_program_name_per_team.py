from django.db import migrations, models


class Migration(migrations.Migration):
    """A program's name is unique within its team, no longer across all teams."""

    dependencies = [
        ("accounts", "0001_initial"),
        ("programs", "0002_program_team"),
    ]

    operations = [
        migrations.AlterField(
            model_name="program",
            name="name",
            field=models.SlugField(max_length=100),
        ),
        migrations.AddConstraint(
            model_name="program",
            constraint=models.UniqueConstraint(
                fields=("team", "name"), name="unique_program_name_per_team"
            ),
        ),
    ]
