"""manage.py club_restore FILE — bring a club back from its backup, all or nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from ..backup import RestoreRefused, club_restore


class Command(BaseCommand):
    help = (
        "Restore a club from a club_backup zip into a migrated database (a fresh one, or one "
        "where none of its rows is taken by another). Nothing is written if it is refused."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", help="the zip written by club_backup")

    def handle(self, *args: Any, file: str, **options: Any) -> None:
        try:
            data = Path(file).read_bytes()
        except OSError as error:
            raise CommandError(f"{file}: cannot be read ({error.strerror})") from error
        try:
            restored = club_restore(data)
        except RestoreRefused as refused:
            raise CommandError(f"{file}: refused, nothing restored: {refused}") from refused
        self.stdout.write(
            f"{restored.club}: restored {restored.rows} rows and {restored.files} files"
        )
