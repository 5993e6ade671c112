"""Season rankings: each player's season summed by the database and ranked by the engine,
the live ranking kept in a snapshot, and its publication. The recomputation and the
publication run as tasks once the change that asks for them is committed (``infra.outbox``).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Q, QuerySet, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from club.models import Federation, Membership, Player, Season
from club.services import published_pages_changed
from games.models import COUNTED_STATUSES, Tournament
from infra.outbox import TaskName, work_pending, work_queue
from scoring.engine.ranking import RankingRules, SeasonTotals, rank_season

from ..fields import POINT_UNITS
from ..models import RankingLine, RankingSnapshot, TournamentStanding


def season_guests(season: Season) -> QuerySet[Membership]:
    """The season's guests: players whose membership of the club says guest and who have no
    other membership of it (a guest turned member is a member, with all his results)."""
    members = Membership.objects.filter(club=season.club_id).exclude(status=Membership.Status.GUEST)
    return (
        Membership.objects.filter(club=season.club_id, status=Membership.Status.GUEST)
        .exclude(player__in=members.values("player"))
        .values("player")
    )


def season_nights(season: Season) -> Q:
    """Which nights a club season's ranking counts (a filter on standings): the season's own
    nights, and the inter-club nights of the club's federations within its dates when the
    club's rules say so (``Club.ranking_interclub``; for its members only: a visitor is ranked
    by his own club). Without that rule an inter-club night counts in its federation's ranking
    only, even at the club that hosted it."""
    own = Q(tournament__season=season)
    ordinary = Q(tournament__federation_season__isnull=True)
    if not season.club.ranking_interclub:
        return own & ordinary
    members = Membership.objects.filter(club=season.club_id).values("player")
    # The club's federations as a subquery: a join through their clubs would repeat each of
    # the season's own standings once per club of the federation under the OR below.
    federations = Federation.objects.filter(clubs=season.club_id).values("pk")
    visited = Q(
        tournament__federation_season__federation__in=federations,
        tournament__date__range=(season.start, season.end),
    ) & ~Q(tournament__club=season.club_id)
    return (own & ordinary) | ((own | visited) & Q(player__in=members))


def season_totals(
    season: Season, rules: RankingRules, *, guests: bool | None = None
) -> dict[int, SeasonTotals]:
    """Each player's season summed by the database, for the engine to rank; tied players are
    listed by name. ``guests``: whether guests are ranked (default: the season's rule); a
    season that ranks members only leaves them out of its ranking, not out of the nights."""
    # A join, as the plain SQL would write it (a subquery of the nights was slower on SQLite).
    standings = TournamentStanding.objects.filter(
        season_nights(season), tournament__status__in=COUNTED_STATUSES
    ).order_by()
    if not (season.ranking_guests if guests is None else guests):
        standings = standings.exclude(player__in=season_guests(season))
    return standings_totals(standings, rules)


def standings_totals(
    standings: QuerySet[TournamentStanding], rules: RankingRules
) -> dict[int, SeasonTotals]:
    """Each player's nights among ``standings`` summed by the database (a club's season, a
    federation's), for the engine to rank.

    Tournament points are summed exactly as whole units (``fields.POINT_UNITS``). With the
    best N nights only, a player's nights are grouped by their points and taken best first;
    where the N-th night falls inside a group, that group's nights are read to keep those with
    the most game points (the engine's order: tournament points, then game points).
    """
    sums = {"game": Sum("game_points"), "played": Count("pk"), "won": Count("pk", filter=Q(rank=1))}
    totals: dict[int, SeasonTotals] = {}
    if rules.best_n is None:
        for player, units, game_points, played, won in (
            standings.values("player_id")
            .annotate(units=Sum("points_units"), **sums)
            .values_list("player_id", "units", "game", "played", "won")
        ):
            totals[player] = SeasonTotals(
                Fraction(units, POINT_UNITS), game_points, played, played, won
            )
        return _listed_by_name(totals, rules)

    groups: dict[int, list[tuple[int, int, int, int]]] = {}
    for player, units, game_points, played, won in (
        standings.values("player_id", "points_units")
        .annotate(**sums)
        .values_list("player_id", "points_units", "game", "played", "won")
    ):
        groups.setdefault(player, []).append((units, game_points, played, won))
    boundaries: dict[tuple[int, int], int] = {}
    for player, values in groups.items():
        played = sum(group[2] for group in values)
        left = counted = min(rules.best_n, played)
        units, game_points = 0, 0
        for value, game, n, _won in sorted(values, reverse=True):
            if n <= left:
                units, game_points, left = units + value * n, game_points + game, left - n
            elif left:  # the N-th night is in this group: its best nights by game points, later
                units, boundaries[(player, value)], left = units + value * left, left, 0
        totals[player] = SeasonTotals(
            tournament_points=Fraction(units, POINT_UNITS),
            game_points=game_points,
            tournaments_played=played,
            tournaments_counted=counted,
            tournaments_won=sum(group[3] for group in values),
        )
    if boundaries:
        best: dict[tuple[int, int], list[int]] = {}
        for player, units, game in (
            standings.filter(player_id__in={player for player, _units in boundaries})
            .order_by("-game_points")
            .values_list("player_id", "points_units", "game_points")
        ):
            best.setdefault((player, units), []).append(game)
        for (player, units), left in boundaries.items():
            totals[player] = dataclasses.replace(
                totals[player],
                game_points=totals[player].game_points + sum(best[(player, units)][:left]),
            )
    return _listed_by_name(totals, rules)


def _listed_by_name(
    totals: dict[int, SeasonTotals], rules: RankingRules
) -> dict[int, SeasonTotals]:
    """The totals with tied players in the order of their names: the engine lists tied players
    in the order it is given them. Only tied players' names are read (most seasons have no
    tie: no query at all)."""
    players_by_key: dict[tuple[Any, ...], list[int]] = {}
    for player, sums in totals.items():
        key = tuple(getattr(sums, metric) for metric in rules.precedence)
        players_by_key.setdefault(key, []).append(player)
    tied = [player for group in players_by_key.values() if len(group) > 1 for player in group]
    if not tied:
        return totals
    names = dict(Player.objects.filter(pk__in=tied).values_list("pk", "sort_key"))
    # Players of one tie group all have a name; the others keep any order (the engine sorts).
    return {
        player: totals[player] for player in sorted(totals, key=lambda p: (names.get(p, ""), p))
    }


def _write_snapshot(snapshot: RankingSnapshot, season: Season) -> RankingSnapshot:
    rules = season.ranking_rules()
    totals = season_totals(season, rules)
    snapshot.rules = {
        "best_n": rules.best_n,
        "min_tournaments": rules.min_tournaments,
        "precedence": list(rules.precedence),
        "guests": season.ranking_guests,
    }
    counted = TournamentStanding.objects.filter(
        season_nights(season), tournament__status__in=COUNTED_STATUSES
    )
    snapshot.tournaments = (
        counted.values("tournament").distinct().count()
        if season.club.ranking_interclub
        else Tournament.objects.filter(season=season, federation_season__isnull=True)
        .counted()
        .count()
    )
    snapshot.computed_at = timezone.now()
    snapshot.save()
    snapshot.lines.all().delete()
    ranked = rank_season(totals, rules)
    RankingLine.objects.bulk_create(RankingLine.lines_of(ranked, snapshot=snapshot))
    return snapshot


def season_ranking_queue(season_id: int) -> None:
    """Have a season's live ranking recomputed once the current transaction commits: recorded
    with the change (``infra.outbox``), so a broker that is down only delays it."""
    work_queue(TaskName.SEASON_RANKING_UPDATE, season_id)


def ranking_pending(season: Season) -> bool:
    """Whether the season's ranking is still being computed or published (the page says so)."""
    return work_pending([TaskName.SEASON_RANKING_UPDATE, TaskName.RANKING_PUBLISH], season.pk)


@transaction.atomic
def season_ranking_update(season: Season) -> RankingSnapshot:
    """Recompute the season's live (unpublished) ranking from its closed nights."""
    # One ranking of the season at a time; the rows keyed to the season that other work
    # writes meanwhile (the cote's season summaries, holding the club's row that this marks
    # changed below) are let through: FOR UPDATE made the two wait for each other.
    Season.objects.select_for_update(no_key=True).filter(pk=season.pk).first()
    snapshot = RankingSnapshot.objects.filter(season=season, published_at__isnull=True).first()
    published_pages_changed(season.club_id)  # the club admins' view of the ranking
    return _write_snapshot(snapshot or RankingSnapshot(season=season), season)


def ranking_publish_check(season: Season) -> None:
    """A ranking is published from closed nights: a season without one has nothing to show."""
    if not Tournament.objects.filter(season=season).counted().exists():
        raise ValidationError(_("Aucune soirée clôturée dans cette saison : rien à publier."))


@transaction.atomic
def ranking_publish_queue(season: Season) -> None:
    """A club admin asks to publish the season's ranking: refused at once when there is nothing
    to publish, else recorded and done by a task once committed (``ranking_publish``)."""
    ranking_publish_check(season)
    work_queue(TaskName.RANKING_PUBLISH, season.pk)
    # The page says the publication is under way until it is done.
    published_pages_changed(season.club_id)


@transaction.atomic
def ranking_publish(season: Season) -> RankingSnapshot:
    """Freeze the season ranking as it stands now, with today's date."""
    ranking_publish_check(season)
    snapshot = _write_snapshot(RankingSnapshot(season=season, published_at=timezone.now()), season)
    snapshot.published_at = snapshot.computed_at
    snapshot.save(update_fields=["published_at"])
    published_pages_changed(season.club_id)
    # Its share picture, the podium drawn once (clubsite.share).
    work_queue(TaskName.SEASON_SHARE_PICTURE, season.pk)
    return snapshot
