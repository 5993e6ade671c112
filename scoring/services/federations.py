"""A federation's seasons ranked across its clubs, and the rankings a night's change reaches.

A federation season counts its inter-club nights only (``championship``) or every night of its
clubs within its dates (``all``), of its game, once the host club has published them: the
federation's ranking is public, and shows nothing its club has not shown first. It is
recomputed by a task once the change that asks for it commits (``infra.outbox``), like a club's.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from club.models import Club, FederationSeason, Season
from club.services import federation_pages_changed
from games.models import Tournament
from infra.outbox import TaskName, work_pending, work_queue
from scoring.engine.ranking import rank_season

from ..models import FederationRanking, FederationRankingLine, TournamentStanding
from .rankings import season_ranking_queue, standings_totals


def federation_nights(season: FederationSeason) -> QuerySet[Tournament]:
    """The nights that count in a federation season: published, of its game, and either
    inter-club nights of the season or, where it counts them all, any night of its clubs
    within its dates."""
    nights = Tournament.objects.filter(status=Tournament.Status.PUBLISHED, game=season.game)
    championship = Q(federation_season=season)
    if season.counts == FederationSeason.Counts.ALL:
        clubs = season.federation.clubs.values("pk")
        championship |= Q(club__in=clubs, date__range=(season.start, season.end))
    return nights.filter(championship)


def federation_seasons_of(tournament: Tournament) -> QuerySet[FederationSeason]:
    """The federation seasons whose ranking a night counts in (or would, once published)."""
    return FederationSeason.objects.filter(
        Q(pk=tournament.federation_season_id)
        | Q(
            counts=FederationSeason.Counts.ALL,
            federation__clubs=tournament.club_id,
            start__lte=tournament.date,
            end__gte=tournament.date,
        ),
        game=tournament.game,
    ).distinct()


def interclub_seasons_of(tournament: Tournament) -> QuerySet[Season]:
    """The other clubs' seasons an inter-club night counts in (their rule says so)."""
    if not tournament.federation_season_id:
        return Season.objects.none()
    clubs = Club.objects.filter(
        federations__seasons=tournament.federation_season_id, ranking_interclub=True
    ).exclude(pk=tournament.club_id)
    return Season.objects.filter(
        club__in=clubs, start__lte=tournament.date, end__gte=tournament.date
    )


def night_rankings_queue(tournament: Tournament, *, published_changed: bool) -> None:
    """A night's results changed (closed, corrected, reopened) or its publication did: the
    other clubs' rankings it counts in follow, and, when its published results changed, the
    federation's. Queued with the change, done by tasks once it commits."""
    for season_id in interclub_seasons_of(tournament).values_list("pk", flat=True):
        season_ranking_queue(season_id)
    if published_changed:
        for season_id in federation_seasons_of(tournament).values_list("pk", flat=True):
            work_queue(TaskName.FEDERATION_RANKING_UPDATE, season_id)


def federation_ranking_queue(season_id: int) -> None:
    """Have a federation season's ranking recomputed once the current transaction commits:
    its rules or dates changed (the change and the request are committed together)."""
    work_queue(TaskName.FEDERATION_RANKING_UPDATE, season_id)


def federation_ranking_pending(season: FederationSeason) -> bool:
    return work_pending([TaskName.FEDERATION_RANKING_UPDATE], season.pk)


@transaction.atomic
def federation_ranking_update(season: FederationSeason) -> FederationRanking:
    """Recompute a federation season's ranking from the nights that count in it."""
    FederationSeason.objects.select_for_update().filter(pk=season.pk).first()
    nights = federation_nights(season)
    standings = TournamentStanding.objects.filter(tournament__in=nights.values("pk")).order_by()
    rules = season.ranking_rules()
    totals = standings_totals(standings, rules)
    clubs_played = dict(
        standings.values("player_id")
        .annotate(clubs=Count("tournament__club", distinct=True))
        .values_list("player_id", "clubs")
    )
    ranking = FederationRanking.objects.filter(season=season).first() or FederationRanking(
        season=season
    )
    ranking.computed_at = timezone.now()
    ranking.rules = {
        "best_n": rules.best_n,
        "min_tournaments": rules.min_tournaments,
        "precedence": list(rules.precedence),
        "counts": season.counts,
    }
    ranking.tournaments = nights.count()
    ranking.clubs = nights.values("club").distinct().count()
    ranking.save()
    ranking.lines.all().delete()
    lines = FederationRankingLine.lines_of(rank_season(totals, rules), ranking=ranking)
    for line in lines:
        line.clubs_played = clubs_played.get(line.player_id, 1)
    FederationRankingLine.objects.bulk_create(lines)
    federation_pages_changed(season.federation_id)
    return ranking
