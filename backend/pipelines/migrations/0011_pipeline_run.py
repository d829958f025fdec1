from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("pipelines", "0010_pipeline_team"),
    ]

    operations = [
        migrations.AddField(
            model_name="pipeline",
            name="run",
            field=models.PositiveIntegerField(default=1),
        ),
    ]
