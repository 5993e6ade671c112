"""manage.py demo_club — the RCWhist demo: 28 players, seasons 2024 and 2025 (and the rankings
of 2022 and 2023, imported as the club published them), and an admin;
and a second club that plays hearts (14 players, season 2025), so that a site of several clubs
has something to show: its president (not staff) runs it from the site, and the RCWhist
president is a member there too (a player of two clubs, a role in each);
and a federation of both and a small whist club of Wavre, its 2025 season ranked from two
inter-club nights (``club/management/federation_demo.py``), the RCWhist president its admin.

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
from django.utils import timezone

from club.models import Club, Membership, Player
from club.name_matching import name_matches
from clubsite.demo import demo_pages
from clubsite.hearts_demo import demo_hearts_site
from clubsite.news_demo import demo_news
from clubsite.photos.demo import demo_album
from games.demo import (
    FIRST_NAMES,
    LAST_NAMES,
    PAST_SEASONS,
    demo_calendar,
    past_ranking,
    random_hearts_night,
    random_night,
)
from games.models import Tournament
from games.nightfile import tournaments_import
from scoring.services import (
    ranking_import,
    ranking_lines_read,
    ranking_publish,
    tournament_publish,
)

from ..federation_demo import FEDERATION, federation_demo, federation_exists

CLUB = "RCWhist La Chevalerie"
HEARTS_CLUB = "Cercle des Cœurs de Namur"
HEARTS_MONTHS = [1, 2, 3, 4, 5, 6]
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
        # The club's album: its photos copied as a phone's would be (no EXIF, no GPS).
        album = demo_album(Club.objects.get(name=CLUB), timezone.localdate())
        self.stdout.write(f"{CLUB}: album « {album.title} », {album.photos.count()} photos.")
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
        # The club's news (clubsite), written once; a demo built before them gets them now.
        news = demo_news(Club.objects.get(name=CLUB))
        if news:
            self.stdout.write(f"{CLUB}: {news} news posts.")
        if Club.objects.filter(name=HEARTS_CLUB).exists():
            self.stdout.write(f"{HEARTS_CLUB} already exists: keeping its nights.")
        else:
            self._build_hearts(seed)
        # The hearts club's president: a club admin, not staff (he never needs /admin/).
        president_password = secrets.token_urlsafe(9)
        president, _ = user_model.objects.get_or_create(
            username="coeurs", defaults={"email": "coeurs@example.org"}
        )
        president.set_password(president_password)
        president.save()
        if not Player.objects.filter(user=president).exists():
            Player.objects.filter(
                memberships__club__name=HEARTS_CLUB,
                memberships__role=Membership.Role.ADMIN,
                user=None,
            ).update(user=president)
        self.stdout.write(
            self.style.SUCCESS(f"{HEARTS_CLUB} admin login: coeurs / {president_password}")
        )
        # The clubs' own pages (« Le club », « Règlement interne », « Règles du jeu »).
        self.stdout.write(
            demo_pages(Club.objects.get(name=CLUB), Club.objects.get(name=HEARTS_CLUB), admin)
        )
        # The hearts club's news, album and contact, as RCWhist's (clubsite).
        self.stdout.write(
            demo_hearts_site(Club.objects.get(name=HEARTS_CLUB), timezone.localdate())
        )
        # The federation of both clubs and a third, run by the admin's player.
        if federation_exists():
            self.stdout.write(f"{FEDERATION} already exists: keeping its nights.")
        else:
            built = federation_demo(
                random.Random(seed + 2),
                Club.objects.get(name=CLUB),
                Club.objects.get(name=HEARTS_CLUB),
                Player.objects.filter(user=admin).first(),
            )
            self.stdout.write(built)

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
        self._past_rankings(rng, club, members)
        # The coming Fridays on the club's calendar, with a few replies.
        planned = demo_calendar(club, rng, timezone.localdate())
        self.stdout.write(
            f"{CLUB}: {len(members)} players, {tournaments} club nights imported, "
            f"{planned} planned."
        )

    def _past_rankings(self, rng: random.Random, club: Club, members: list[str]) -> None:
        """The rankings the club published before it came here, imported as a club admin
        would: each name as matched (a name the demo cannot tell is a new player)."""
        columns = {"rank": 0, "name": 1, "points": 2, "nights": 3}
        for year in PAST_SEASONS:
            lines = ranking_lines_read(past_ranking(rng, year, members), columns, header=True)
            matches = name_matches([line.name for line in lines], Player.objects.in_club(club))
            choices = {
                line.line: match.proposed.pk if match.proposed else "new"
                for line, match in zip(lines, matches, strict=True)
            }
            start, end = datetime.date(year, 1, 1), datetime.date(year, 12, 31)
            ranking_import(club, str(year), start, end, lines, choices)

    @transaction.atomic
    def _build_hearts(self, seed: int) -> None:
        rng = random.Random(seed + 1)
        members = [
            f"{first} {last}"
            for first, last in zip(FIRST_NAMES[::-1], LAST_NAMES[3:], strict=False)
        ][:14]
        docs = [
            random_hearts_night(
                rng,
                club=HEARTS_CLUB,
                season="2025",
                date=datetime.date(2025, month, 1)
                + datetime.timedelta(days=(1 - datetime.date(2025, month, 1).weekday()) % 7),
                members=members,
                present=rng.choice([9, 10, 12, 13, 14]),
            )
            for month in HEARTS_MONTHS
        ]
        refused = [o for o in tournaments_import(docs) if not isinstance(o, Tournament)]
        if refused:
            raise CommandError(f"the hearts demo's own nights were refused: {refused[0]}")
        club = Club.objects.get(name=HEARTS_CLUB)
        club.default_rules = "coeurs"
        club.short_name = "Cœurs Namur"
        club.colour_background, club.colour_text = "#7a0019", "#ffffff"
        club.save(update_fields=["default_rules", "short_name", "colour_background", "colour_text"])
        Membership.objects.filter(club=club).update(start=datetime.date(2025, 1, 1))
        Membership.objects.filter(club=club, player__display_name=members[0]).update(
            role=Membership.Role.ADMIN
        )
        # A player of two clubs: the RCWhist president plays hearts here, as a plain member.
        rcwhist_president = Player.objects.filter(
            memberships__club__name=CLUB, memberships__role=Membership.Role.ADMIN
        ).first()
        if rcwhist_president is not None:
            Membership.objects.create(
                club=club, player=rcwhist_president, start=datetime.date(2025, 1, 1)
            )
        for tournament in Tournament.objects.filter(club=club):
            tournament_publish(tournament)
        for season in club.seasons.all():
            ranking_publish(season)
        self.stdout.write(f"{HEARTS_CLUB}: {len(members)} players, {len(docs)} hearts nights.")
