"""Celery tasks of the site itself: the periodic re-queue of pending work (Celery beat)."""

from celery import shared_task

from . import outbox


@shared_task
def pending_work_requeue() -> int:
    """Hand again to the broker the work still pending after a broker outage or a worker's
    death (``club.outbox``); returns how many were handed."""
    return outbox.pending_requeue()
