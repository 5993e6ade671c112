"""Celery tasks: take ids, call one service, safe to run twice. Each finishes its pending
work row (``infra.outbox``) in the same transaction as the work."""

from celery import shared_task

from club.models import FederationSeason, Season
from games.models import Tournament
from infra.outbox import TaskName, work_run

from . import services


@shared_task
def season_ranking_update(season_id: int) -> int | None:
    """Recompute a season's live ranking; returns the snapshot id (None: no such season)."""
    season = Season.objects.select_related("club").filter(pk=season_id).first()
    return work_run(
        TaskName.SEASON_RANKING_UPDATE,
        season_id,
        lambda: services.season_ranking_update(season).pk if season else None,
    )


@shared_task
def ranking_publish(season_id: int) -> int | None:
    """Publish the season's ranking once per request (a message delivered twice publishes
    once: the second finds the request done)."""
    season = Season.objects.select_related("club").filter(pk=season_id).first()
    return work_run(
        TaskName.RANKING_PUBLISH,
        season_id,
        lambda: services.ranking_publish(season).pk if season else None,
        pending_only=True,
    )


@shared_task
def ratings_update(tournament_id: int) -> int | None:
    """Rate a night and every later night of its club's game; returns the nights rated."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    return work_run(
        TaskName.RATINGS_UPDATE,
        tournament_id,
        lambda: services.ratings_update(tournament) if tournament else None,
    )


@shared_task
def federation_ranking_update(season_id: int) -> int | None:
    """Recompute a federation season's ranking; returns its id (None: no such season)."""
    season = FederationSeason.objects.select_related("federation").filter(pk=season_id).first()
    return work_run(
        TaskName.FEDERATION_RANKING_UPDATE,
        season_id,
        lambda: services.federation_ranking_update(season).pk if season else None,
    )
