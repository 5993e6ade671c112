"""Work that must survive a broker outage (the outbox)."""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class PendingWork(models.Model):
    """Work that must follow a commit (a season's ranking, a night's result e-mails, a
    ranking's publication), recorded in the same transaction as the change that asks for it
    (``club.outbox``). The row is the promise: it stays until the task has done the work, so
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

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["task", "key"], name="pending_work_once_per_object")
        ]
        indexes = [models.Index(fields=["requested_at"], name="pending_work_oldest")]

    def __str__(self) -> str:
        return f"{self.task}({self.key}) since {self.requested_at:%Y-%m-%d %H:%M:%S}"
