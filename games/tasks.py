"""Celery tasks: take ids, call one service, safe to run twice."""

from celery import shared_task

from club.outbox import work_run
from scoring.services import RESULTS_EMAIL

from . import mailing
from .models import Tournament


@shared_task
def tournament_results_email(tournament_id: int) -> int:
    """E-mail a closed night's results to its participants; returns how many were sent (a
    second run sends none: who already has them is recorded, one row per night and player)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    sent = work_run(
        RESULTS_EMAIL,
        tournament_id,
        lambda: mailing.tournament_results_send(tournament) if tournament else 0,
        atomic=False,
    )
    return sent or 0


@shared_task(name="games.tasks.night_results_email")
def night_results_email(tournament_id: int) -> int:
    """The task's former name: messages queued before an upgrade still run (one release)."""
    return tournament_results_email(tournament_id)
