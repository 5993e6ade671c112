"""Point tables now belong to ``games`` (games 0005): gone from this app's state only."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0001_initial"),
        ("games", "0005_point_table_moves_to_games"),
        ("club", "0004_default_rules"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="PointTable")],
            database_operations=[],
        ),
    ]
