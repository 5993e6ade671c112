"""Work that follows a commit, made durable (an outbox).

A service that needs work done after its change commits (a season's ranking, a night's result
e-mails, a ranking's publication) calls ``work_queue`` inside its transaction: a
``PendingWork`` row is written with the change, and the task is handed to the broker once the
transaction commits. If the broker is down then, the request still succeeds (its change is
committed) and the row stays; ``pending_requeue``, run every minute by Celery beat, hands it
again until a worker has done the work. A task finishes through ``work_run``, which deletes
the row in the same transaction as the work (or right after it, for e-mails), so a page that
says "en cours de calcul" from the row is never cached past the result.

Each task is safe to run twice (a message delivered again after a worker died, or queued
again by beat): the ranking is recomputed from the stored nights, the e-mails claim one
``ResultEmail`` row per night and player, and a publication runs only while its row exists.

The Celery app is the site's (``config.celery``), reached as Celery's current app as shared
tasks reach it: the plumbing never imports the site package. The tasks are named here, once
(``TaskName``): a service queues a task by its name and never imports the interface's tasks
module, and the task finishes its row by the same name.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from functools import partial
from typing import TypeVar

from celery import current_app as app
from django.conf import settings
from django.db import transaction
from django.db.models import F, Min, Q
from django.utils import timezone

from .models import PendingWork
from .site_address import request_origin, served_from

logger = logging.getLogger(__name__)

T = TypeVar("T")


class TaskName(StrEnum):
    """Every task the outbox runs, by its Celery name (the module that defines it, then its
    function). A ``PendingWork`` row stores this name: renaming a task strands the rows queued
    before the upgrade unless the former name stays registered for a release."""

    # A season's live ranking, recomputed from its stored nights (scoring.tasks).
    SEASON_RANKING_UPDATE = "scoring.tasks.season_ranking_update"
    # A season's ranking published once per request (scoring.tasks).
    RANKING_PUBLISH = "scoring.tasks.ranking_publish"
    # The cote of a night and every later night of its club's game (scoring.tasks); while it
    # waits, the night's stored statistics lines may be behind the deals.
    RATINGS_UPDATE = "scoring.tasks.ratings_update"
    # A federation season's ranking, recomputed (scoring.tasks).
    FEDERATION_RANKING_UPDATE = "scoring.tasks.federation_ranking_update"
    # A closed night's results, e-mailed to its participants (games.tasks).
    RESULTS_EMAIL = "games.tasks.tournament_results_email"
    # A planned night's reminders, and the secretary's latest one to who has not answered
    # (games.tasks).
    REMINDERS_EMAIL = "games.tasks.calendar_reminders_email"
    NUDGE_EMAIL = "games.tasks.calendar_nudge_email"
    # A member who waited told that a place freed for him (games.tasks).
    PROMOTED_EMAIL = "games.tasks.calendar_promoted_email"
    # A club's admins asked to answer a federation's invitation (club.tasks).
    FEDERATION_INVITATION_EMAIL = "club.tasks.federation_invitation_email"
    # The clubs and federations whose roles a merge ended, told; keyed by the merge (club.tasks).
    MERGE_ROLES_EMAIL = "club.tasks.merge_roles_email"
    # A club's admins told that somebody asks to join (club.tasks).
    JOIN_REQUEST_EMAIL = "club.tasks.join_request_email"
    # The e-mails of a club's sign-up: its confirmation link, the operators asked to approve
    # it, the secretary told their answer (club.tasks).
    SIGNUP_LINK_EMAIL = "club.tasks.signup_link_email"
    SIGNUP_OPERATORS_EMAIL = "club.tasks.signup_operators_email"
    SIGNUP_DECISION_EMAIL = "club.tasks.signup_decision_email"
    # The invitations an import of members queued (club.member_tasks).
    MEMBER_INVITATIONS_EMAIL = "club.member_tasks.member_invitations_email"
    # A closed club's members told (club.member_tasks).
    CLUB_CLOSED_EMAIL = "club.member_tasks.club_closed_email"
    # A photo's cleaned copies made from its upload, which is then deleted (clubsite.tasks).
    PHOTO_COPIES = "clubsite.tasks.photo_copies"
    # A club's admins told that a member asks for a photo to be taken down (clubsite.tasks).
    PHOTO_TAKEDOWN_EMAIL = "clubsite.tasks.photo_takedown_email"
    # A night's and a season's share picture (the podium as a PNG), drawn once per
    # publication (clubsite.tasks).
    NIGHT_SHARE_PICTURE = "clubsite.tasks.night_share_picture"
    SEASON_SHARE_PICTURE = "clubsite.tasks.season_share_picture"
    # A club's news post e-mailed to the members who asked for news, once (clubsite.tasks).
    NEWS_EMAIL = "clubsite.tasks.news_email"
    # A visitor's message from a club's contact form, e-mailed to the club (clubsite.tasks).
    CONTACT_EMAIL = "clubsite.tasks.contact_email"


# A row just written is left to its own on-commit send (beat must not race it).
FRESH = timedelta(seconds=30)


def work_queue(task: TaskName, key: int) -> None:
    """Record that ``task(key)`` must run after the current transaction, and hand it to the
    broker once it commits. Asked again before it ran, it is one row (and one more send)."""
    origin = request_origin()[: PendingWork._meta.get_field("origin").max_length]
    PendingWork.objects.bulk_create(
        [PendingWork(task=task, key=key, requested_at=timezone.now(), sent_at=None, origin=origin)],
        update_conflicts=True,
        unique_fields=["task", "key"],
        update_fields=["requested_at", "sent_at", "origin"],
    )
    transaction.on_commit(partial(_send, task, key))


def _send(task: str, key: int) -> bool:
    """Hand ``task(key)`` to the broker; False when it could not be (the row stays pending and
    beat tries again). Never raises: the change that asked for it is committed already."""
    try:
        if task not in app.tasks:
            # Every app's tasks module is registered when first imported: autodiscovery does it.
            app.loader.import_default_modules()
        app.tasks[task].delay(key)
    except Exception as error:
        if app.conf.task_always_eager:
            # In-process (no broker): the task itself failed, a bug worth its traceback.
            logger.exception("pending work %s(%s) failed; it stays pending", task, key)
        else:
            logger.warning(
                "pending work %s(%s) not queued (%s: %s); it stays pending",
                task,
                key,
                type(error).__name__,
                error,
            )
        return False
    PendingWork.objects.filter(task=task, key=key).update(
        sent_at=timezone.now(), attempts=F("attempts") + 1
    )
    return True


def work_run(
    task: TaskName,
    key: int,
    work: Callable[[], T],
    *,
    atomic: bool = True,
    pending_only: bool = False,
) -> T | None:
    """Do the work of ``task(key)`` and mark it done. ``atomic``: the work and the row's
    removal commit together (the work's own writes, e.g. a ranking). Otherwise the row is
    removed once the work returns (e-mails, which each claim their own row as they go).
    ``pending_only``: work that must not run twice (a publication) runs only while its row
    exists; a second delivery finds none and does nothing (None)."""
    if not atomic:
        seen, origin = (
            PendingWork.objects.filter(task=task, key=key)
            .values_list("requested_at", "origin")
            .first()
        ) or (None, "")
        with served_from(origin or request_origin()):
            result = work()
        _done(task, key, seen)
        return result
    with transaction.atomic():
        row = PendingWork.objects.select_for_update().filter(task=task, key=key).first()
        if row is None and pending_only:
            logger.info("pending work %s(%s) done already", task, key)
            return None
        # The links it writes go where the request that asked for it came to.
        with served_from((row.origin if row else "") or request_origin()):
            result = work()
        _done(task, key, row.requested_at if row else None)
    return result


def _done(task: str, key: int, seen: datetime | None) -> None:
    """The work asked at ``seen`` is done: its row goes, unless a later change asked again
    meanwhile (then it stays pending and runs once more)."""
    if seen is not None:
        PendingWork.objects.filter(task=task, key=key, requested_at=seen).delete()


def work_pending(tasks: list[TaskName], key: int) -> bool:
    """Whether any of these tasks is still to be done for this object (one query)."""
    return PendingWork.objects.filter(task__in=tasks, key=key).exists()


def pending_requeue(now: datetime | None = None) -> int:
    """Hand again to the broker what is still pending: never sent (the broker was down), or
    sent long ago and not done (the worker died, the message was lost). Returns how many were
    handed to it."""
    now = now or timezone.now()
    # Sent but still there after this long: its worker may have died, or the broker lost the
    # message (a setting: longer than any of the tasks takes).
    resend_after = timedelta(seconds=settings.PENDING_RESEND_SECONDS)
    stale = PendingWork.objects.filter(
        Q(sent_at__isnull=True, requested_at__lt=now - FRESH) | Q(sent_at__lt=now - resend_after)
    ).order_by("requested_at")
    return sum(_send(task, key) for task, key in stale.values_list("task", "key"))


@dataclass(frozen=True)
class PendingSummary:
    count: int
    oldest: datetime | None

    def age_seconds(self, now: datetime | None = None) -> int:
        if self.oldest is None:
            return 0
        return max(0, int(((now or timezone.now()) - self.oldest).total_seconds()))


def pending_summary() -> PendingSummary:
    """How much work waits, and since when (for ``/healthz``)."""
    rows = PendingWork.objects.all()
    return PendingSummary(count=rows.count(), oldest=rows.aggregate(o=Min("requested_at"))["o"])
