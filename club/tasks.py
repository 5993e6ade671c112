"""Celery tasks of the site itself: the periodic re-queue of pending work (Celery beat), and
the e-mail that asks a club's admins to answer a federation's invitation."""

from celery import shared_task

from . import federation_mailing, outbox
from .services import FEDERATION_INVITATION_EMAIL


@shared_task
def pending_work_requeue() -> int:
    """Hand again to the broker the work still pending after a broker outage or a worker's
    death (``club.outbox``); returns how many were handed."""
    return outbox.pending_requeue()


@shared_task
def federation_invitation_email(invitation_id: int) -> int:
    """Tell the invited club's admins (once: the invitation is marked as it goes)."""
    sent = outbox.work_run(
        FEDERATION_INVITATION_EMAIL,
        invitation_id,
        lambda: federation_mailing.invitation_send(invitation_id),
        atomic=False,
    )
    return sent or 0
