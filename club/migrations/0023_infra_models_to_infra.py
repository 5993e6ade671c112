# The outbox's and the throttle's tables became the infra app's models (infra/models.py): club
# forgets them in Django's state only; their tables stay as they are, under their names, and
# infra/migrations/0001_initial takes them over.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('club', '0022_player_name_key'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name='PendingWork'),
                migrations.DeleteModel(name='ThrottleEvent'),
            ],
            database_operations=[],
        ),
    ]
