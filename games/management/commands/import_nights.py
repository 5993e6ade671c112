"""manage.py import_nights FILE... — import club-night files, each all or nothing."""

from __future__ import annotations

import json
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from scoring.engine.errors import DocumentRefused

from ...nightfile import tournament_import


class Command(BaseCommand):
    help = "Import club-night/1 files. A refused file writes nothing and lists its problems."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("files", nargs="+", help="club-night/1 JSON files")

    def handle(self, *args: Any, files: list[str], **options: Any) -> None:
        refused = 0
        for path in files:
            try:
                with open(path, encoding="utf-8") as handle:
                    doc = json.load(handle)
                tournament = tournament_import(doc)
            except OSError as error:
                problems = [f"cannot be read ({error.strerror})"]
            except json.JSONDecodeError as error:
                problems = [f"not JSON (line {error.lineno}, column {error.colno}: {error.msg})"]
            except DocumentRefused as error:
                problems = list(error.problems)
            except ValidationError as error:
                problems = list(error.messages)
            else:
                count = tournament.standings.count()
                self.stdout.write(f"{path}: imported {tournament} ({count} players)")
                continue
            refused += 1
            self.stderr.write(f"{path}: refused, nothing imported")
            for problem in problems:
                self.stderr.write(f"  {problem}")
        if refused:
            raise CommandError(f"{refused} of {len(files)} files refused")
