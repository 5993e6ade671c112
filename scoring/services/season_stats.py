"""Each player's season summed once (``PlayerSeasonStats``), kept in step with his nights'
lines: whenever a night's lines are written again (closed, corrected, its cote rewritten, a
merge) or its state moves (published, taken back, reopened), in the same transaction, the
seasons of those nights are added up again for the players concerned.

The statistics page and « Mes résultats » then read a row a season: measured on PostgreSQL
(a player's 10 seasons × 40 nights, ``manage.py bench``) the page's first view went from
adding up 400 stored nights to adding up 10 rows."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable
from typing import Any

from django.db.models import QuerySet

from games.models import COUNTED_STATUSES, Tournament
from infra.rows import rows_insert

from ..models import PlayerNightStats, PlayerSeasonStats
from ..statistics.seasons import season_summary

SEASON_STATS_COLUMNS = ("player_id", "season_id", "published_only", "data")

Players = Collection[int] | QuerySet | None


def season_stats_store(seasons: Iterable[int], players: Players = None) -> None:
    """The summaries of ``seasons`` written again from the stored night lines, for
    ``players`` (ids or a query of them; None: every player of those seasons). A player with
    no night left in a season keeps no summary of it. Three queries."""
    seasons = set(seasons)
    if not seasons:
        return
    lines = PlayerNightStats.objects.filter(
        tournament__season__in=seasons, tournament__status__in=COUNTED_STATUSES
    )
    stale = PlayerSeasonStats.objects.filter(season__in=seasons)
    if players is not None:
        lines = lines.filter(player__in=players)
        stale = stale.filter(player__in=players)
    counted: dict[tuple[int, int], list[Any]] = defaultdict(list)
    published: dict[tuple[int, int], list[Any]] = defaultdict(list)
    for player, season, tournament, date, name, status, data in lines.order_by(
        "tournament__date", "tournament_id"
    ).values_list(
        "player_id",
        "tournament__season_id",
        "tournament_id",
        "tournament__date",
        "tournament__name",
        "tournament__status",
        "data",
    ):
        night = (tournament, date, name, data)
        counted[player, season].append(night)
        if status == Tournament.Status.PUBLISHED:
            published[player, season].append(night)
    stale.delete()
    rows_insert(
        PlayerSeasonStats,
        SEASON_STATS_COLUMNS,
        [
            (player, season, only, season_summary(nights))
            for only, by_season in ((False, counted), (True, published))
            for (player, season), nights in by_season.items()
        ],
    )


def night_season_stats_store(night_ids: Collection[int], players: Players = None) -> None:
    """The summaries of the seasons of these nights written again (``season_stats_store``)
    for ``players``, by default the players of the nights' stored lines."""
    if players is None:
        players = PlayerNightStats.objects.filter(tournament__in=night_ids).values("player_id")
    seasons = Tournament.objects.filter(pk__in=night_ids).values_list("season_id", flat=True)
    season_stats_store(set(seasons), players)
