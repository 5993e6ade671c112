"""manage.py demo_club — the RCWhist demo: 28 players, seasons 2024 and 2025, and an admin.

The nights are generated as club-night files and go through the importer, exactly as a club's
paper score sheets would. Running it again keeps the club and gives the admin a new password.
"""

from __future__ import annotations

import datetime
import random
import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from club.models import Club, Membership, Player
from games.demo import FIRST_NAMES, LAST_NAMES, random_night
from games.models import Tournament
from games.nightfile import tournaments_import
from scoring.services import ranking_publish, tournament_publish

CLUB = "RCWhist La Chevalerie"
# Club nights on the second Thursday of the month, but for the summer break.
CLUB_NIGHT_MONTHS = [1, 2, 3, 4, 5, 6, 9, 10, 11, 12]


def second_thursday(year: int, month: int) -> datetime.date:
    first = datetime.date(year, month, 1)
    return first + datetime.timedelta(days=(3 - first.weekday()) % 7 + 7)


class Command(BaseCommand):
    help = "Create the demo club (RCWhist La Chevalerie) and print an admin login."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--seed", type=int, default=2024, help="random seed of the nights")

    def handle(self, *args: Any, seed: int, **options: Any) -> None:
        if Club.objects.filter(name=CLUB).exists():
            self.stdout.write(f"{CLUB} already exists: keeping its nights.")
        else:
            self._build(seed)
        password = secrets.token_urlsafe(9)
        user_model = get_user_model()
        admin, _ = user_model.objects.get_or_create(
            username="admin", defaults={"email": "admin@example.org"}
        )
        admin.is_staff = admin.is_superuser = True
        admin.set_password(password)
        admin.save()
        # The admin is the club's president, so "Mes résultats" has a season to show.
        if not Player.objects.filter(user=admin).exists():
            Player.objects.filter(
                memberships__club__name=CLUB, memberships__role=Membership.Role.ADMIN, user=None
            ).update(user=admin)
        self.stdout.write(self.style.SUCCESS(f"Admin login: admin / {password}  (/admin/)"))

    @transaction.atomic
    def _build(self, seed: int) -> None:
        rng = random.Random(seed)
        members = [f"{first} {last}" for first, last in zip(FIRST_NAMES, LAST_NAMES, strict=True)]
        docs = [
            random_night(
                rng,
                club=CLUB,
                season=str(year),
                date=second_thursday(year, month),
                members=members,
                present=rng.choice([20, 21, 22, 23, 24, 25, 26, 27, 28]),
            )
            for year in (2024, 2025)
            for month in CLUB_NIGHT_MONTHS
        ]
        refused = [o for o in tournaments_import(docs) if not isinstance(o, Tournament)]
        if refused:
            raise CommandError(f"the demo's own nights were refused: {refused[0]}")
        tournaments = len(docs)
        club = Club.objects.get(name=CLUB)
        # Every member since the first night; a few of them run the club and keep the sheets.
        Membership.objects.filter(club=club).update(start=datetime.date(2024, 1, 1))
        for name, role in (
            (members[0], Membership.Role.ADMIN),
            (members[1], Membership.Role.SCORER),
            (members[2], Membership.Role.SCORER),
        ):
            Membership.objects.filter(club=club, player__display_name=name).update(role=role)
        Player.objects.filter(display_name=members[5]).update(
            public_name=Player.PublicName.INITIALS
        )
        # The club publishes its sheets and its yearly rankings: the public pages have content.
        for tournament in Tournament.objects.filter(club=club):
            tournament_publish(tournament)
        for season in club.seasons.all():
            ranking_publish(season)
        self.stdout.write(f"{CLUB}: {len(members)} players, {tournaments} club nights imported.")
