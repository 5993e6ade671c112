"""The « cote » rewritten on its scale without drift: every stored rating and night statistic
recomputed by today's service (``scoring.services.ratings_rebuild``), so that the demo and every
existing site show the new numbers and the change of each night as soon as they upgrade.

It calls the service, not a copy of it frozen here: the cote is what the service computes. The
service reads only the columns it needs; this migration comes after every app's migrations of
its time so that they exist. Going back leaves the numbers as they are (run ``manage.py
ratings_rebuild`` with the older code to have its numbers again).
"""

from django.db import migrations


def rewrite_the_cote(apps, schema_editor):
    if not apps.get_model("games", "Tournament").objects.exists():
        return
    from scoring.services.ratings import ratings_rebuild

    # The season summaries' table comes later (0010); 0011 fills it from these lines.
    ratings_rebuild(season_summaries=False)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0008_rating_change_and_moves"),
        ("games", "0016_unnamed_nights_default_name"),
        ("club", "0018_merge_ended_roles"),
    ]

    operations = [migrations.RunPython(rewrite_the_cote, migrations.RunPython.noop)]
