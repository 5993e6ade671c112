"""Celery tasks: take ids, call one service, safe to run twice."""

from celery import shared_task

from club.models import Season

from . import services


@shared_task
def season_ranking_update(season_id: int) -> int:
    """Recompute a season's live ranking; returns the snapshot id."""
    season = Season.objects.select_related("club").get(pk=season_id)
    return services.season_ranking_update(season).pk


@shared_task
def ranking_publish(season_id: int) -> int:
    season = Season.objects.select_related("club").get(pk=season_id)
    return services.ranking_publish(season).pk
