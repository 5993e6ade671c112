"""manage.py club_create — the site operator opens a club and its first admin.

    manage.py club_create "Whist Club de Liège" --admin "Marie Lambert" --email marie@example.org

The first admin is a player of the new club with the club admin role; with an e-mail address
he is sent the invitation that opens his account (links use ``SITE_URL``). Everything else —
members, seasons, point tables, settings — he does from the club's pages.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.urls import reverse

from club import invitations, services
from infra.site_address import absolute
from scoring.engine.tables import PRESET_GAME


class Command(BaseCommand):
    help = "Create a club and its first admin (invited by e-mail when --email is given)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("name", help="the club's name")
        parser.add_argument("--admin", required=True, help="the first admin's name")
        parser.add_argument("--email", default="", help="the first admin's e-mail: invited")
        parser.add_argument("--rules", default="rcwhist", choices=sorted(PRESET_GAME))
        parser.add_argument("--short-name", default="")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            # All or nothing: a club whose admin could not be invited is not left behind.
            with transaction.atomic():
                club, admin = self._open(options)
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None
        self.stdout.write(
            self.style.SUCCESS(
                f"{club.name} (/clubs/{club.slug}/): {admin.display_name} is its admin"
                + (f", invited at {options['email']}." if options["email"] else ".")
            )
        )

    def _open(self, options: dict[str, Any]) -> tuple[Any, Any]:
        club, admin = services.club_open(
            options["name"],
            admin_name=options["admin"],
            admin_email=options["email"],
            default_rules=options["rules"],
            short_name=options["short_name"],
        )
        if options["email"]:
            invitations.invitation_send(
                club,
                admin,
                options["email"],
                by=None,
                link_for=lambda token: absolute(reverse("invitation-accept", args=[token])),
            )
        return club, admin
