"""Make a personal API token for an account from the command line (the operator's, or CI's
schema run); members make theirs in their profile (Mon profil → Clés d'API)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from club.tokens import token_create


class Command(BaseCommand):
    help = "Make a personal API token for USERNAME and print its key (shown this once)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--name", default="ligne de commande", help="the token's name")
        parser.add_argument(
            "--read-only", action="store_true", help="the token reads and changes nothing"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        user = get_user_model().objects.filter(username=options["username"]).first()
        if user is None:
            raise CommandError(f"no account {options['username']!r}")
        _token, key = token_create(user, options["name"], read_only=options["read_only"])
        self.stdout.write(key)
