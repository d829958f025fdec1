from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("pipelines", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="viewdelta",
            name="changes_json",
            field=models.TextField(default="[]"),
            preserve_default=False,
        ),
        migrations.RunSQL(
            "UPDATE pipelines_viewdelta SET changes_json = changes::text",
            reverse_sql=migrations.RunSQL.noop,
        ),
        migrations.RemoveField(model_name="viewdelta", name="changes"),
    ]
