"""Celery tasks of a club's members coming and its closing: an import's invitations, the word
to a closed club's members (both through the outbox), and the daily purge of the clubs closed
long enough (Celery beat; ``manage.py purge_closed_clubs`` from cron does the same)."""

from celery import shared_task

from infra import outbox
from infra.outbox import TaskName

from .mailing import closing as closing_mailing
from .member_import.invitations import member_invitations_send
from .services.closing import closed_clubs_purge


@shared_task
def member_invitations_email(import_id: int) -> int:
    """Send the invitations an import of members queued (each once)."""
    sent = outbox.work_run(
        TaskName.MEMBER_INVITATIONS_EMAIL,
        import_id,
        lambda: member_invitations_send(import_id),
        atomic=False,
    )
    return sent or 0


@shared_task
def club_closed_email(closing_id: int) -> int:
    """Tell a closed club's members (once: the closing is marked as it goes)."""
    sent = outbox.work_run(
        TaskName.CLUB_CLOSED_EMAIL,
        closing_id,
        lambda: closing_mailing.club_closed_send(closing_id),
        atomic=False,
    )
    return sent or 0


@shared_task
def closed_clubs_purge_task() -> int:
    """Delete the clubs closed for longer than the site keeps them; returns how many."""
    return len(closed_clubs_purge())
