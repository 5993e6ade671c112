"""``manage.py ratings_rebuild [--club SLUG]``: every « cote » and night statistic from scratch."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from club.models import Club
from scoring.services import ratings_rebuild


class Command(BaseCommand):
    help = "Rebuild every rating and night statistic from the stored nights, in date order."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--club", help="only this club (its slug)")

    def handle(self, *args: Any, club: str | None = None, **options: Any) -> None:
        chosen = None
        if club:
            chosen = Club.objects.filter(slug=club).first()
            if chosen is None:
                raise CommandError(f"no club {club!r}")
        start = time.perf_counter()
        nights = ratings_rebuild(chosen)
        self.stdout.write(f"{nights} nights rated in {time.perf_counter() - start:.1f} s")
