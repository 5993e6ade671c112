"""manage.py calendar_reminders — send the calendar's reminders due today, without Celery beat.

The same function beat runs every quarter of an hour (``games.calendar.reminders_queue``): each
night due is marked with its work in one transaction, so running this from cron as often as
you like sends each reminder once. Without a broker (the Quick start) the e-mails go before the
command returns; with one, a worker sends them."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from ... import calendar


class Command(BaseCommand):
    help = "Send the calendar's reminders due today (what Celery beat does every 15 minutes)."

    def handle(self, *args: Any, **options: Any) -> None:
        queued = calendar.reminders_queue()
        if not queued:
            self.stdout.write("No reminder due.")
        elif settings.CELERY_TASK_ALWAYS_EAGER:
            self.stdout.write(f"Reminders sent for {queued} night(s).")
        else:
            self.stdout.write(f"Reminders of {queued} night(s) handed to the worker.")
