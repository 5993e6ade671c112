"""The plumbing's two tables: work that must survive a broker outage (the outbox) and the
attempts a limit counts (the throttle).

They are the ``infra`` app's models. Their tables keep the names they had when they were club's
(``db_table``), so that moving them to this app changed Django's state and not the database
(``club/migrations/0022`` and ``infra/migrations/0001``). This module imports no app."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class PendingWork(models.Model):
    """Work that must follow a commit (a season's ranking, a night's result e-mails, a
    ranking's publication), recorded in the same transaction as the change that asks for it
    (``infra.outbox``). The row is the promise: it stays until the task has done the work, so
    a broker that was down or a worker that died only delays it; a periodic task queues again
    what is still pending. One row per task and object: asking twice before it runs is one
    run."""

    task = models.CharField(max_length=100)
    # The id the task takes: a season or a night.
    key = models.BigIntegerField()
    # The latest change that asked for it: a task that ran before it leaves the row pending.
    requested_at = models.DateTimeField(default=timezone.now)
    # When it was last handed to the broker (none: the broker was not reached yet).
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    # Where the request that asked for it came to (``https://club.example``): the links its
    # e-mails write go there. Empty: no request asked (``SITE_URL``).
    origin = models.CharField(max_length=200, blank=True, default="")

    class Meta:
        # The name it had as club's model: the move wrote nothing in the database.
        db_table = "club_pendingwork"
        constraints = [
            models.UniqueConstraint(fields=["task", "key"], name="pending_work_once_per_object")
        ]
        indexes = [models.Index(fields=["requested_at"], name="pending_work_oldest")]

    def __str__(self) -> str:
        return f"{self.task}({self.key}) since {self.requested_at:%Y-%m-%d %H:%M:%S}"


class ThrottleEvent(models.Model):
    """One attempt that counts against a limit (a wrong password, a password reset asked for):
    ``scope`` names the limit, ``key`` whom it counts for (an account, an address). Kept in the
    database so that every web worker counts the same attempts."""

    scope = models.CharField(max_length=30)
    key = models.CharField(max_length=200)
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        db_table = "club_throttleevent"
        verbose_name = _("tentative comptée")
        verbose_name_plural = _("tentatives comptées")
        indexes = [models.Index(fields=["scope", "key", "at"], name="throttle_scope_key_at")]

    def __str__(self) -> str:
        return f"{self.scope} {self.key} {self.at:%Y-%m-%d %H:%M}"
