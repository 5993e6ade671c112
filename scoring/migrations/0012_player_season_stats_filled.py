"""Each player's seasons summed from the nights' lines already stored (``PlayerNightStats``),
as ``scoring.services.season_stats`` sums them from now on: the statistics pages and « Mes
résultats » read the summaries at once after the upgrade. The summing is the pure function the
service calls (``scoring.statistics.seasons.season_summary``); the rows go through the
historical models. Going back drops the summaries with their table."""

from itertools import groupby

from django.db import migrations

COUNTED = ("closed", "published")
BATCH = 1000


def summaries_filled(apps, schema_editor):
    from scoring.statistics.seasons import season_summary

    night_stats = apps.get_model("scoring", "PlayerNightStats")
    season_stats = apps.get_model("scoring", "PlayerSeasonStats")
    lines = (
        night_stats.objects.filter(tournament__status__in=COUNTED)
        .order_by("tournament__season_id", "player_id", "tournament__date", "tournament_id")
        .values_list(
            "tournament__season_id",
            "player_id",
            "tournament_id",
            "tournament__date",
            "tournament__name",
            "tournament__status",
            "data",
        )
    )
    rows = []
    for (season, player), nights in groupby(lines.iterator(), key=lambda line: line[:2]):
        nights = [(t, date, name, status, data) for _s, _p, t, date, name, status, data in nights]
        published = [night for night in nights if night[3] == "published"]
        for only, chosen in ((False, nights), (True, published)):
            if chosen:
                summary = season_summary((t, d, n, data) for t, d, n, _st, data in chosen)
                rows.append(
                    season_stats(
                        player_id=player, season_id=season, published_only=only, data=summary
                    )
                )
        if len(rows) >= BATCH:
            season_stats.objects.bulk_create(rows)
            rows = []
    season_stats.objects.bulk_create(rows)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0011_player_season_stats")]

    operations = [migrations.RunPython(summaries_filled, migrations.RunPython.noop)]
