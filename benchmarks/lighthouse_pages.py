"""The eight pages ``manage.py bench lighthouse`` gives Lighthouse, found in the demo database.

Run inside the throw-away site's own process (``manage.py shell``, with its settings): it starts
a night in the demo club (round 1 drawn, a few deals at the first table, so the score sheet is
the one a scorer holds while a night runs), gives the demo's admin — the club's president — a
password of this run, and prints the pages as JSON for ``benchmarks/lighthouse.py``.
"""

from __future__ import annotations

import json
import random
import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count
from django.urls import reverse
from django.utils import timezone

from club import services as club_services
from club.models import Club, Federation, Player
from games import services
from games.demo import random_deal
from games.models import Tournament
from scoring import services as scoring
from scoring.engine.games.belgian_whist import counts_toward_poule

# The page's name in the table, whether the member is logged in to open it.
PAGES: list[tuple[str, bool]] = [
    ("home", False),
    ("club page", False),
    ("night's results", False),
    ("season ranking", False),
    ("score sheet (night running)", True),
    ("Mes résultats", True),
    ("player's statistics", False),
    ("federation ranking", False),
]
USERNAME = "admin"


def running_night(club: Club) -> Any:
    """Tonight at the club: the first 24 members present, round 1 drawn, three deals at table
    1 (its sheet shows a night under way, not an empty form)."""
    today = timezone.localdate()
    players = list(Player.objects.in_club(club).order_by("pk")[:24])
    tournament = services.tournament_create(
        club=club,
        season=club_services.season_for_date(club, today),
        date=today,
        game="belgian_whist",
        point_table=services.point_table_for_preset("rcwhist"),
        rounds=3,
    )
    services.presence_set(tournament, players)
    scoring.round_draw(tournament, 1, seed=1)
    poule = tournament.poules.filter(round=1).order_by("table").first()
    seats = [str(n) for n in range(1, poule.seats.count() + 1)]
    rng, counted = random.Random(1), 0
    while counted < 3:
        deal = random_deal(rng, seats)
        scoring.deal_record(poule, deal)
        counted += counts_toward_poule(deal["contract"])
    return tournament, poule


def prepared() -> dict[str, Any]:
    """The pages' addresses (in ``PAGES``' order), the login and its password."""
    club = Club.objects.annotate(nights=Count("tournaments")).order_by("-nights").first()
    largest = (
        Tournament.objects.filter(club=club, status=Tournament.Status.PUBLISHED)
        .annotate(deals=Count("poules__deals"))
        .order_by("-deals", "pk")
        .first()
    )
    season = largest.season
    user = get_user_model().objects.get(username=USERNAME)
    password = secrets.token_urlsafe(12)
    user.set_password(password)
    user.save()
    player = Player.objects.get(user=user, memberships__club=club)
    tournament, poule = running_night(club)
    federation = Federation.objects.order_by("pk").first()
    federation_season = federation.seasons.order_by("-start").first()
    slug = {"slug": club.slug}
    addresses = [
        reverse("home"),
        reverse("club-detail", kwargs=slug),
        reverse("games:results", kwargs={**slug, "pk": largest.pk}),
        reverse("ranking-season", kwargs={**slug, "season": season.slug}),
        reverse("games:sheet", kwargs={**slug, "pk": tournament.pk, "poule_pk": poule.pk}),
        reverse("my-results"),
        reverse("player-statistics", kwargs={**slug, "pk": player.pk}),
        reverse(
            "federation-ranking",
            kwargs={"slug": federation.slug, "season": federation_season.slug},
        ),
    ]
    return {
        "pages": [
            {"name": name, "path": path, "login": login}
            for (name, login), path in zip(PAGES, addresses, strict=True)
        ],
        "username": USERNAME,
        "password": password,
    }


def main() -> None:
    print(json.dumps(prepared()))
