"""Delete the clubs closed for longer than the site keeps their data (CLUB_CLOSED_KEEP_DAYS).

Celery beat runs the same every day (``club.member_tasks.closed_clubs_purge_task``); a site
without beat runs this from cron, once a day."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from club.services.closing import closed_clubs_purge


class Command(BaseCommand):
    help = "Delete the clubs closed for longer than CLUB_CLOSED_KEEP_DAYS, with their data."

    def handle(self, *args: Any, **options: Any) -> None:
        purged = closed_clubs_purge()
        for name in purged:
            self.stdout.write(f"deleted: {name}")
        self.stdout.write(f"{len(purged)} closed club(s) deleted")
