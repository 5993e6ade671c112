"""The club site's Celery tasks: ids in, one piece of work, safe to run twice (a picture drawn
twice is the same picture)."""

from celery import shared_task

from club.models import Season
from games.models import Tournament
from infra.outbox import TaskName, work_run

from .share import night_picture_store, season_picture_store


@shared_task
def night_share_picture(tournament_id: int) -> None:
    """A night published or taken back: its share picture drawn, or removed."""
    tournament = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
    # The storage is no transaction: the row goes once the file is written.
    work_run(
        TaskName.NIGHT_SHARE_PICTURE,
        tournament_id,
        lambda: night_picture_store(tournament) if tournament else None,
        atomic=False,
    )


@shared_task
def season_share_picture(season_id: int) -> None:
    """A season's ranking published (or imported): its share picture drawn."""
    season = Season.objects.select_related("club").filter(pk=season_id).first()
    work_run(
        TaskName.SEASON_SHARE_PICTURE,
        season_id,
        lambda: season_picture_store(season) if season else None,
        atomic=False,
    )
