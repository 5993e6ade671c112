"""Celery tasks of the site itself: the periodic re-queue of pending work (Celery beat), the
e-mail that asks a club's admins to answer a federation's invitation, the word to a club
that a merge ended a role it had granted, and the e-mails of a club's sign-up and of a request
to join a club."""

from celery import shared_task

from infra import outbox
from infra.outbox import TaskName

from . import mailing
from .mailing import federation as federation_mailing
from .mailing import signup as signup_mailing
from .services.signup_opening import signup_purge as signup_purge_now


@shared_task
def pending_work_requeue() -> int:
    """Hand again to the broker the work still pending after a broker outage or a worker's
    death (``infra.outbox``); returns how many were handed."""
    return outbox.pending_requeue()


@shared_task
def federation_invitation_email(invitation_id: int) -> int:
    """Tell the invited club's admins (once: the invitation is marked as it goes)."""
    sent = outbox.work_run(
        TaskName.FEDERATION_INVITATION_EMAIL,
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
        TaskName.MERGE_ROLES_EMAIL,
        merge_id,
        lambda: mailing.merge_roles_send(merge_id),
        atomic=False,
    )
    return sent or 0


def _mailed(task: TaskName, key: int, send) -> int:
    return outbox.work_run(task, key, lambda: send(key), atomic=False) or 0


@shared_task
def signup_link_email(signup_id: int) -> int:
    """The link that confirms a club's sign-up (club.mailing.signup)."""
    return _mailed(TaskName.SIGNUP_LINK_EMAIL, signup_id, signup_mailing.signup_link_send)


@shared_task
def signup_operators_email(signup_id: int) -> int:
    """The operators told that a club waits for their approval."""
    return _mailed(TaskName.SIGNUP_OPERATORS_EMAIL, signup_id, signup_mailing.signup_operators_send)


@shared_task
def signup_decision_email(signup_id: int) -> int:
    """The secretary told the operator's answer."""
    return _mailed(TaskName.SIGNUP_DECISION_EMAIL, signup_id, signup_mailing.signup_decision_send)


@shared_task
def join_request_email(request_id: int) -> int:
    """A club's admins told that somebody asks to join."""
    return _mailed(TaskName.JOIN_REQUEST_EMAIL, request_id, signup_mailing.join_request_send)


@shared_task
def signup_purge() -> int:
    """Sign-ups and join requests whose time is up, deleted (Celery beat, daily)."""
    return signup_purge_now()


# The members' import and a club's closing have their tasks apart; imported here so that
# Celery's autodiscovery (and the outbox) finds them.
from .member_tasks import (  # noqa: E402, F401
    closed_clubs_purge_task,
    club_closed_email,
    member_invitations_email,
)
