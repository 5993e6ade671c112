"""manage.py federation_create — the site operator opens a federation of clubs.

    manage.py federation_create "Ligue belge de whist" --club rcwhist-la-chevalerie \
        --club whist-club-de-wavre --admin admin

Its administrator is a member with a login (``--admin``: his username); from then on he runs
the federation from its pages (``/federations/<slug>/gestion/``): clubs, administrators and
seasons. Each ``--club`` is invited in his name: the club's admins are told by e-mail and the
club joins once one of them accepts. ``--join``: the clubs join at once instead, when they have
given the operator their word (the operator's road only; a federation's admin always invites).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from club import services
from club.models import Club, Federation, Player


class Command(BaseCommand):
    help = "Create a federation of clubs and its first administrator."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("name", help="the federation's name")
        parser.add_argument(
            "--club", action="append", default=[], help="a club's slug (repeat for each club)"
        )
        parser.add_argument("--admin", required=True, help="the username of its administrator")
        parser.add_argument(
            "--join",
            action="store_true",
            help="the clubs join at once (they agreed with the operator) instead of being invited",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        name = " ".join(options["name"].split())
        if Federation.objects.filter(name__iexact=name).exists():
            raise CommandError(f"A federation named {name} exists already.")
        clubs = list(Club.objects.filter(slug__in=options["club"]))
        unknown = sorted(set(options["club"]) - {club.slug for club in clubs})
        if unknown:
            raise CommandError(f"No club with the slug {', '.join(unknown)}.")
        user = get_user_model().objects.filter(username=options["admin"]).first()
        player = Player.objects.filter(user=user).first() if user else None
        if player is None:
            raise CommandError(f"No member has the login {options['admin']}.")
        try:
            with transaction.atomic():
                federation = services.federation_open(
                    name,
                    clubs=clubs if options["join"] else (),
                    invite=() if options["join"] else clubs,
                    admin=player,
                )
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None
        how = "joined" if options["join"] else "invited (each joins once its admin accepts)"
        self.stdout.write(
            self.style.SUCCESS(
                f"{federation.name} (/federations/{federation.slug}/): "
                f"{len(clubs)} clubs {how}, run by {player.display_name}."
            )
        )
