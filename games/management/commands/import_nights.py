"""manage.py import_nights FILE... — import club-night files, each all or nothing."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from ...models import Tournament
from ...nightfile import tournaments_import


class Command(BaseCommand):
    help = (
        "Import club-night/1 files. A refused file writes nothing and lists its problems; "
        "each season touched is ranked once, at the end."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("files", nargs="+", help="club-night/1 JSON files")
        parser.add_argument(
            "--emails",
            action="store_true",
            help="e-mail each participant his results (off: imports are usually history)",
        )

    def handle(self, *args: Any, files: list[str], emails: bool, **options: Any) -> None:
        problems: dict[str, list[str]] = {}
        docs: dict[str, Any] = {}
        for path in files:
            try:
                with open(path, encoding="utf-8") as handle:
                    docs[path] = json.load(handle)
            except OSError as error:
                problems[path] = [f"cannot be read ({error.strerror})"]
            except json.JSONDecodeError as error:
                problems[path] = [
                    f"not JSON (line {error.lineno}, column {error.colno}: {error.msg})"
                ]
            except UnicodeDecodeError as error:
                problems[path] = [f"not UTF-8 text (byte {error.start})"]
            except RecursionError:
                problems[path] = ["nested too deeply to be a club-night file"]
        outcomes = tournaments_import(docs.values(), send_results=emails)
        for path, outcome in zip(docs, outcomes, strict=True):
            if isinstance(outcome, Tournament):
                count = outcome.standings.count()
                self.stdout.write(f"{path}: imported {outcome} ({count} players)")
            else:
                problems[path] = outcome
        for path in files:
            if path in problems:
                self.stderr.write(f"{path}: refused, nothing imported")
                for problem in problems[path]:
                    self.stderr.write(f"  {problem}")
        if problems:
            raise CommandError(f"{len(problems)} of {len(files)} files refused")
