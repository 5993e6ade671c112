"""manage.py club_backup SLUG -o FILE — the club's full backup (club.management.backup)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from ...models import Club
from ..backup import club_backup


class Command(BaseCommand):
    help = "Write a club's full backup (rows and members' photos) to a zip file."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("club", help="the club's identifier (slug), e.g. rcwhist")
        parser.add_argument("-o", "--output", required=True, help="the zip file to write")

    def handle(self, *args: Any, club: str, output: str, **options: Any) -> None:
        found = Club.objects.filter(slug=club).first()
        if found is None:
            raise CommandError(f"no club {club!r}")
        data = club_backup(found)
        Path(output).write_bytes(data)
        self.stdout.write(f"{found}: backup written to {output} ({len(data)} bytes)")
