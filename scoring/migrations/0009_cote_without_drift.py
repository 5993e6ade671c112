"""The « cote » on its scale without drift. Its rewrite of every stored rating and night
statistic by today's service (``scoring.services.ratings_rebuild``) now runs in 0013, after the
columns today's service writes exist.

It calls the service, not a copy of it frozen here: the cote is what the service computes. The
service reads only the columns it needs; this migration comes after every app's migrations of
its time so that they exist. Going back leaves the numbers as they are (run ``manage.py
ratings_rebuild`` with the older code to have its numbers again).
"""

from django.db import migrations


def rewrite_the_cote(apps, schema_editor):
    """Left to 0013: today's service writes columns that come after this migration (the rest of
    each night's change, 0010; the season summaries, 0011), so the one rewrite of the cote runs
    once they all exist. A site that ran this migration before is rewritten there again."""


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0008_rating_change_and_moves"),
        ("games", "0016_unnamed_nights_default_name"),
        ("club", "0018_merge_ended_roles"),
    ]

    operations = [migrations.RunPython(rewrite_the_cote, migrations.RunPython.noop)]
