"""manage.py export_night ID [-o FILE] — write a night as club-night-result/1."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from ...models import Tournament
from ...nightfile_export import tournament_export


class Command(BaseCommand):
    help = "Export a club night (by id) as a club-night-result/1 JSON document."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("tournament", type=int, help="the night's id (see the admin)")
        parser.add_argument("-o", "--output", help="file to write (default: standard output)")

    def handle(self, *args: Any, tournament: int, output: str | None, **options: Any) -> None:
        found = (
            Tournament.objects.select_related("club", "season", "point_table")
            .filter(pk=tournament)
            .first()
        )
        if found is None:
            raise CommandError(f"no club night with id {tournament}")
        text = json.dumps(tournament_export(found), ensure_ascii=False, indent=2) + "\n"
        if output:
            with open(output, "w", encoding="utf-8") as handle:
                handle.write(text)
            self.stderr.write(f"{found} written to {output}")
        else:
            self.stdout.write(text, ending="")
