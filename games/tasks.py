"""Celery tasks: take ids, call one service, safe to run twice."""

from celery import shared_task

from infra.outbox import TaskName, work_run

from . import calendar, mailing
from .calendar import mailing as calendar_mailing
from .models import Tournament


@shared_task
def tournament_results_email(tournament_id: int) -> int:
    """E-mail a closed night's results to its participants; returns how many were sent (a
    second run sends none: who already has them is recorded, one row per night and player)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    sent = work_run(
        TaskName.RESULTS_EMAIL,
        tournament_id,
        lambda: mailing.tournament_results_send(tournament) if tournament else 0,
        atomic=False,
    )
    return sent or 0


@shared_task(name="games.tasks.night_results_email")
def night_results_email(tournament_id: int) -> int:
    """The task's former name: messages queued before an upgrade still run (one release)."""
    return tournament_results_email(tournament_id)


@shared_task
def calendar_reminders_queue() -> int:
    """Celery beat: hand to the outbox the reminders due today (once per night)."""
    return calendar.reminders_queue()


@shared_task
def calendar_reminders_email(night_id: int) -> int:
    """E-mail a planned night's reminders; a second run sends none (one row per member)."""
    sent = work_run(
        TaskName.REMINDERS_EMAIL,
        night_id,
        lambda: calendar_mailing.reminders_send(night_id),
        atomic=False,
    )
    return sent or 0


@shared_task
def calendar_nudge_email(night_id: int) -> int:
    """E-mail the secretary's latest reminder to the members who have not answered; a second
    run sends none (one row per member and reminder)."""
    sent = work_run(
        TaskName.NUDGE_EMAIL,
        night_id,
        lambda: calendar_mailing.reminders_send(night_id, nudge=True),
        atomic=False,
    )
    return sent or 0


@shared_task
def calendar_promoted_email(reply_id: int) -> int:
    """Tell a member who waited that a place freed for him (once)."""
    sent = work_run(
        TaskName.PROMOTED_EMAIL,
        reply_id,
        lambda: calendar_mailing.promoted_send(reply_id),
        atomic=False,
    )
    return sent or 0
