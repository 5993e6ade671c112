"""Celery tasks of the site itself: the periodic re-queue of pending work (Celery beat), the
e-mail that asks a club's admins to answer a federation's invitation, and the word to a club
that a merge ended a role it had granted."""

from celery import shared_task

from . import federation_mailing, mailing, outbox
from .services import FEDERATION_INVITATION_EMAIL, MERGE_ROLES_EMAIL


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


@shared_task
def merge_roles_email(merge_id: int) -> int:
    """Tell the clubs and federations whose roles a merge (or its undo) ended; a second run
    sends nothing (the merge counts what it told)."""
    sent = outbox.work_run(
        MERGE_ROLES_EMAIL, merge_id, lambda: mailing.merge_roles_send(merge_id), atomic=False
    )
    return sent or 0


# The members' import and a club's closing have their tasks apart; imported here so that
# Celery's autodiscovery (and the outbox) finds them.
from .member_tasks import (  # noqa: E402, F401
    closed_clubs_purge_task,
    club_closed_email,
    member_invitations_email,
)
