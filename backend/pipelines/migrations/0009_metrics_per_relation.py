from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('pipelines', '0008_pumps'),
    ]

    operations = [
        migrations.AddField(
            model_name='pipelinemetric',
            name='relations',
            field=models.JSONField(default=dict),
        ),
        migrations.AddField(
            model_name='pipelinemetric',
            name='state_by',
            field=models.JSONField(default=dict),
        ),
    ]
