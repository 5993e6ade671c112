# The outbox's and the throttle's tables, club's until the plumbing had an app of its own: taken
# over in Django's state only (club/migrations/0022 let them go), their tables kept as they are
# under their names (db_table), so that the database is not touched. Their content types follow
# them, so that a permission granted on them is kept.

import django.utils.timezone
from django.db import migrations, models

MODELS = ['pendingwork', 'throttleevent']


def content_types_to_infra(apps, schema_editor):
    ContentType = apps.get_model('contenttypes', 'ContentType')
    ContentType.objects.using(schema_editor.connection.alias).filter(
        app_label='club', model__in=MODELS
    ).update(app_label='infra')


def content_types_to_club(apps, schema_editor):
    ContentType = apps.get_model('contenttypes', 'ContentType')
    ContentType.objects.using(schema_editor.connection.alias).filter(
        app_label='infra', model__in=MODELS
    ).update(app_label='club')


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('club', '0023_infra_models_to_infra'),
        ('contenttypes', '0002_remove_content_type_name'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='PendingWork',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('task', models.CharField(max_length=100)),
                        ('key', models.BigIntegerField()),
                        ('requested_at', models.DateTimeField(default=django.utils.timezone.now)),
                        ('sent_at', models.DateTimeField(blank=True, null=True)),
                        ('attempts', models.PositiveIntegerField(default=0)),
                    ],
                    options={
                        'db_table': 'club_pendingwork',
                        'indexes': [models.Index(fields=['requested_at'], name='pending_work_oldest')],
                        'constraints': [models.UniqueConstraint(fields=('task', 'key'), name='pending_work_once_per_object')],
                    },
                ),
                migrations.CreateModel(
                    name='ThrottleEvent',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('scope', models.CharField(max_length=30)),
                        ('key', models.CharField(max_length=200)),
                        ('at', models.DateTimeField(auto_now_add=True, db_index=True)),
                    ],
                    options={
                        'verbose_name': 'tentative comptée',
                        'verbose_name_plural': 'tentatives comptées',
                        'db_table': 'club_throttleevent',
                        'indexes': [models.Index(fields=['scope', 'key', 'at'], name='throttle_scope_key_at')],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_types_to_infra, content_types_to_club),
    ]
