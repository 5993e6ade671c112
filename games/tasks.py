"""Celery tasks: take ids, call one service, safe to run twice."""

from celery import shared_task

from . import mailing
from .models import Tournament


@shared_task
def tournament_results_email(tournament_id: int) -> int:
    """E-mail a closed night's results to its participants; returns how many were sent (a
    second run sends none: who already has them is recorded)."""
    tournament = Tournament.objects.get(pk=tournament_id)
    return mailing.tournament_results_send(tournament)


@shared_task(name="games.tasks.night_results_email")
def night_results_email(tournament_id: int) -> int:
    """The task's former name: messages queued before an upgrade still run (one release)."""
    return tournament_results_email(tournament_id)
