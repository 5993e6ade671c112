"""Every stored rating, night statistic and season summary rewritten by today's service
(``scoring.services.ratings_rebuild``), once every column it writes exists: the cote on its
scale without drift (0009), the rest of each night's change (0010) and the season summaries
(0011). It calls the service, not a copy frozen here: the cote is what the service computes.
Going back leaves the numbers as they are."""

from django.db import migrations


def rewrite_the_cote(apps, schema_editor):
    if not apps.get_model("games", "Tournament").objects.exists():
        return
    from scoring.services.ratings import ratings_rebuild

    ratings_rebuild()


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0012_player_season_stats_filled"),
        ("games", "0019_names_follow_one_rule"),
        ("club", "0027_ranking_follows_nights"),
    ]

    operations = [migrations.RunPython(rewrite_the_cote, migrations.RunPython.noop)]
