"""Each player's season summed once (``PlayerSeasonStats``), kept in step with his nights'
lines: whenever a night's lines are written again (closed, corrected, its cote rewritten, a
merge) or its state moves (published, taken back, reopened), in the same transaction, the
seasons of those nights are added up again for the players concerned.

The statistics page and « Mes résultats » then read a row a season: measured on PostgreSQL
(a player's 10 seasons × 40 nights, ``manage.py bench``) the page's first view went from
adding up 400 stored nights to adding up 10 rows.

With a night's standings or its publication (closed, corrected, published, taken back,
reopened, a merge) the club's side of « Mes résultats »' chart is written again for its season
(``SeasonNights``): every member's first view of the page reads it instead of summing the
season's standings. An import's nights, rated by their batch's cote alone, leave it to the
next such change: until then the page counts it (``scoring.statistics.chart``).

His own summary of a season also keeps his cote after his latest rated night of it (``cote``:
the cote, its change, the night, its date), read with his night lines: « Mes résultats » gives
his cote at the club from his seasons' summaries instead of asking for his latest rating."""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from typing import Any

from django.db.models import F, FilteredRelation, Q, QuerySet

from games.models import COUNTED_STATUSES, Tournament
from infra.rows import rows_insert

from ..models import PlayerNightStats, PlayerSeasonStats, SeasonNights
from ..statistics.chart import season_nights
from ..statistics.seasons import season_summary

SEASON_STATS_COLUMNS = ("player_id", "season_id", "published_only", "data")

Players = Collection[int] | QuerySet | None


# A night line as the summaries read it: player, season, night, date, name, state, its data,
# and his cote after the night with its change (None, None while the night is not rated).
Line = tuple[int, int, int, datetime.date, str, str, dict[str, Any], float | None, float | None]


def season_stats_store(
    seasons: Iterable[int], players: Players = None, written: Sequence[Line] = ()
) -> None:
    """The summaries of ``seasons`` written again from the stored night lines, for
    ``players`` (ids or a query of them; None: every player of those seasons). A player with
    no night left in a season keeps no summary of it. Three queries. ``written``: the lines
    of the nights the caller has just written (every line of those nights, the cote's, with
    his cote after each), taken as they are rather than read back."""
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
    if written:
        lines = lines.exclude(tournament__in={line[2] for line in written})
    counted: dict[tuple[int, int], list[Any]] = defaultdict(list)
    published: dict[tuple[int, int], list[Any]] = defaultdict(list)
    # His cote after his latest rated night of the season: [cote, change, night, date].
    cotes: dict[tuple[int, int], list[Any]] = {}
    read = (
        lines.order_by()
        # His rating of the line's night, as stored by the cote (none before it runs): joined
        # by the night and the player (one a night at most).
        .annotate(
            rated=FilteredRelation(
                "tournament__ratings", condition=Q(tournament__ratings__player=F("player"))
            )
        )
        .values_list(
            "player_id",
            "tournament__season_id",
            "tournament_id",
            "tournament__date",
            "tournament__name",
            "tournament__status",
            "data",
            "rated__mu",
            "rated__change",
        )
    )
    # In the order the nights were played (by date, then id).
    every = sorted([*read, *written], key=lambda line: (line[3], line[2]))
    for player, season, tournament, date, name, status, data, cote, change in every:
        if season is None or season not in seasons or status not in COUNTED_STATUSES:
            continue
        night = (tournament, date, name, data)
        counted[player, season].append(night)
        if status == Tournament.Status.PUBLISHED:
            published[player, season].append(night)
        if cote is not None:
            cotes[player, season] = [cote, change, tournament, date.isoformat()]
    stale.delete()
    rows_insert(
        PlayerSeasonStats,
        SEASON_STATS_COLUMNS,
        [
            # The public's summary neither lists his nights nor keeps his cote.
            (
                player,
                season,
                only,
                season_summary(nights, listed=not only, cote=cotes.get((player, season))),
            )
            for only, by_season in ((False, counted), (True, published))
            for (player, season), nights in by_season.items()
        ],
    )


def season_nights_store(seasons: Collection[int]) -> None:
    """Each season's published nights with what the club average of « Mes résultats »' chart
    adds up (``statistics.chart.season_nights``), written again: one to three queries a
    season (one while none has a night published), and one."""
    rows = [
        SeasonNights(
            season_id=season,
            nights=[
                [pk, awarded, newcomers]
                for pk, _date, _name, awarded, newcomers in season_nights(season)
            ],
        )
        for season in sorted(seasons)
    ]
    SeasonNights.objects.bulk_create(
        rows, update_conflicts=True, unique_fields=["season"], update_fields=["nights"]
    )


def night_season_stats_store(night_ids: Collection[int], players: Players = None) -> None:
    """The summaries of the seasons of these nights written again (``season_stats_store``)
    for ``players``, by default the players of the nights' stored lines; and the seasons'
    published nights for the chart (``season_nights_store``)."""
    if players is None:
        players = PlayerNightStats.objects.filter(tournament__in=night_ids).values("player_id")
    seasons = set(Tournament.objects.filter(pk__in=night_ids).values_list("season_id", flat=True))
    season_stats_store(seasons, players)
    # A night's standings or its publication moved: the chart's side of the club with them
    # (the cote, rewritten alone, moves neither).
    season_nights_store(seasons)
