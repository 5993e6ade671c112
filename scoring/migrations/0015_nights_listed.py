"""Each stored night line gets the player's poules won and played of that night and his
tournament points exactly (as ``services.ratings`` now writes them), and every season summary is written again by today's
service (``services.season_stats.season_stats_store``), so that it lists his nights as « Mes
résultats » shows them (``statistics.seasons.season_summary``'s ``listed``): the page reads them
at once after the upgrade instead of his standings. The lines go through the historical models;
the summaries through the service, not a copy frozen here (as 0013). Going back leaves the
lines and summaries as they are (the keys added are read by nothing older)."""

from django.db import migrations

BATCH = 200  # nights a step: their lines and standings held in memory at once


def nights_listed(apps, schema_editor):
    night_stats = apps.get_model("scoring", "PlayerNightStats")
    standings = apps.get_model("scoring", "TournamentStanding")
    nights = list(night_stats.objects.order_by().values_list("tournament_id", flat=True).distinct())
    for start in range(0, len(nights), BATCH):
        batch = nights[start : start + BATCH]
        figures = {
            (tournament, player): ([won, played], str(points))
            for tournament, player, won, played, points in standings.objects.filter(
                tournament__in=batch
            ).values_list(
                "tournament_id", "player_id", "poules_won", "poules_played", "tournament_points"
            )
        }
        lines = list(night_stats.objects.filter(tournament__in=batch))
        for line in lines:
            # A line of a player without standings at that night: none, as the service writes.
            poules, points = figures.get((line.tournament_id, line.player_id), ([0, 0], "0"))
            line.data["poules"] = poules
            line.data["tournament_points"] = points
        night_stats.objects.bulk_update(lines, ["data"], batch_size=1000)
    seasons = set(
        night_stats.objects.order_by().values_list("tournament__season_id", flat=True).distinct()
    )
    seasons.discard(None)
    if not seasons:
        return
    from scoring.services.season_stats import season_stats_store

    for season in sorted(seasons):
        season_stats_store([season])


class Migration(migrations.Migration):
    dependencies = [("scoring", "0014_season_nights")]

    operations = [migrations.RunPython(nights_listed, migrations.RunPython.noop)]
