"""Django's admin makes as many queries for a page of many rows as for a page of a few: every
changelist and every change page (with its inlines) of every model the site registers.

The data is built twice, the real way (factories, the night importer, the services): a small
club, then a club several times bigger. Each page is opened once at each size and its queries
counted. A model registered without a builder here fails, so a new admin is measured too.
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.db.models import Model
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from club import services as club_services
from club.invitations import invitation_send
from club.models import (
    ApiToken,
    Club,
    ClubClosing,
    ClubSignup,
    Federation,
    Invitation,
    Membership,
    Player,
    Season,
)
from club.services import season_named
from club.services.closing import club_close
from club.tokens import token_create
from games import services as games_services
from games.demo import random_night
from games.models import Deal, PointTable, Poule, Tournament
from games.nightfile import tournament_import
from scoring import services as scoring_services
from scoring.models import PouleStanding, RankingLine, RankingSnapshot, TournamentStanding

from .factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory

# The measuring fixture builds its data once for the module; the mark has the test database
# set up for it.
pytestmark = pytest.mark.django_db

APPS = {"club", "games", "scoring"}
SMALL, LARGE = 1, 4
SEASON = "2024"


def registered_models() -> list[type[Model]]:
    return sorted(
        (model for model in admin.site._registry if model._meta.app_label in APPS),
        key=lambda model: model._meta.label,
    )


def open_club(size: int, tag: str, staff: AbstractBaseUser) -> dict[type[Model], Model]:
    """A club at ``size``: ``size`` closed nights (the last at a table of 5 once the club is
    bigger than the smallest), their standings and rankings, ``size`` seasons, a running night
    of ``size`` drawn rounds, ``size`` corrections, invitations, accounts, memberships of other
    clubs and point table versions. Returns the object whose change page is opened, per model;
    its inlines hold rows in proportion to ``size``."""
    rng = random.Random(size)
    club = ClubFactory(name=f"Whist Club {tag}")
    pool = PlayerFactory.create_batch(4 * size + 1, club=club)
    seasons = [season_named(club, SEASON, datetime.date(2024, 1, 1))]
    seasons += [
        season_named(club, str(2024 - k), datetime.date(2024 - k, 6, 1)) for k in range(1, size)
    ]

    nights = []
    for k in range(size):
        last = k == size - 1
        players = pool[4 * k : 4 * k + (5 if last and size > 1 else 4)]
        doc = random_night(
            rng,
            club=club.name,
            season=SEASON,
            date=datetime.date(2024, 2, 1) + datetime.timedelta(days=7 * k),
            members=[player.display_name for player in players],
            present=len(players),
            rounds=1,
            deals_per_poule={4: 2 * size, 5: 2 * size},
        )
        if (size - k) % 2 == 0:
            doc.pop("name", None)  # an unnamed night is called after its club and date
        nights.append(tournament_import(doc))
    night = nights[-1]
    poule = night.poules.get()
    # Last deals first: a pass moves the deal to the next dealer, and so the mort after it.
    corrected = list(poule.deals.exclude(data__contract="pass").order_by("-number"))
    for deal in corrected[:size]:
        scoring_services.deal_correct(deal, {"contract": "pass"}, by=staff, closed_ok=True)

    running = games_services.tournament_create(
        club=club,
        season=seasons[0],
        date=datetime.date(2024, 5, 2),
        game="belgian_whist",
        point_table=night.point_table,
        rounds=size,
    )
    games_services.presence_set(running, pool[: 4 * size])
    for number in range(1, size + 1):
        scoring_services.round_draw(running, number, seed=number, by=staff)

    for season in seasons:
        scoring_services.season_ranking_update(season)
    published = scoring_services.ranking_publish(seasons[0])

    for player in pool[:size]:
        invitation_send(club, player, f"{player.pk}@example.org", staff, lambda token: token)
    for _ in range(size):
        PlayerFactory(club=club, user=UserFactory())
    traveller = PlayerFactory(club=club, user=UserFactory())
    for _ in range(size):
        MembershipFactory(player=traveller, club=ClubFactory())
    api_tokens = [token_create(UserFactory(), f"{tag} {n}")[0] for n in range(size)]
    for version in range(size):
        # The night's table is used: each revision is a new version.
        point_table = games_services.point_table_revise(
            night.point_table, night.point_table.data, label=f"{tag} {version}"
        )

    # Federations of the club, each with administrators and seasons in proportion.
    federations = [
        club_services.federation_open(f"Ligue {tag} {n}", clubs=[club]) for n in range(size)
    ]
    for n in range(size):
        pool[n].user = UserFactory()
        pool[n].save(update_fields=["user"])
        club_services.federation_admin_add(federations[0], pool[n])
        club_services.federation_season_create(
            federations[0], f"{tag} {n}", datetime.date(2024, 1, 1), datetime.date(2024, 12, 31)
        )

    # Clubs' sign-ups, waiting for the operator and opened.
    signups = [
        ClubSignup.objects.create(
            email=f"{tag}{n}@example.org",
            name=f"Secrétaire {n}",
            user=UserFactory(),
            status=ClubSignup.Status.WAITING,
            answers={"club": {"name": f"Club {tag} {n}", "town": "Ciney"}},
        )
        for n in range(size)
    ]
    ClubSignup.objects.create(
        email=f"{tag}@example.org", name="Ouvert", status=ClubSignup.Status.OPENED, club=club
    )

    # Clubs closed, in proportion: the operator's list of them, with each one's reopening.
    closings = [
        club_close(closed, typed_name=closed.name, by=staff)
        for closed in (ClubFactory(name=f"Club fermé {tag} {n}") for n in range(size))
    ]

    return {
        ClubSignup: signups[0],
        ClubClosing: closings[0],
        Federation: federations[0],
        Club: club,
        Player: traveller,
        Membership: traveller.memberships.get(club=club),
        Season: seasons[0],
        Invitation: club.invitations.first(),
        ApiToken: api_tokens[0],
        PointTable: point_table,
        Tournament: running,
        Poule: poule,
        Deal: poule.deals.get(number=corrected[0].number),
        PouleStanding: poule.standings.first(),
        TournamentStanding: night.standings.first(),
        RankingSnapshot: published,
        RankingLine: published.lines.first(),
    }


@dataclass
class Page:
    queries: int
    rows: int


def page(client: Client, path: str) -> Page:
    """The queries of the page's second opening (the first fills Django's caches) and the rows
    it lists: the changelist's results, or the change page's inline rows."""
    client.get(path)
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path)
    assert response.status_code == 200, path
    if "cl" in response.context:
        rows = len(response.context["cl"].result_list)
    else:
        rows = sum(
            len(inline.formset.forms) for inline in response.context["inline_admin_formsets"]
        )
    return Page(len(captured), rows)


def url(model: type[Model], view: str, *args: Any) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


@pytest.fixture(scope="module")
def pages(django_db_setup: None, django_db_blocker: Any) -> dict[str, Page]:
    """Every registered model's changelist and change page, measured with a small club, then
    with a big one added; the data is rolled back afterwards."""
    measured: dict[str, Page] = {}
    with django_db_blocker.unblock(), transaction.atomic():
        staff = UserFactory(username="root", is_staff=True, is_superuser=True)
        client = Client()
        client.force_login(staff)
        for size, tag in ((SMALL, "small"), (LARGE, "large")):
            opened = open_club(size, tag, staff)
            for model in registered_models():
                label = model._meta.label
                measured[f"{label} changelist {tag}"] = page(client, url(model, "changelist"))
                if model in opened:
                    change = url(model, "change", opened[model].pk)
                    measured[f"{label} change {tag}"] = page(client, change)
        transaction.set_rollback(True)
    return measured


MODELS = registered_models()


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model._meta.label)
def test_a_changelist_of_many_rows_makes_as_many_queries_as_one_of_a_few(pages, model):
    label = model._meta.label
    small, large = pages[f"{label} changelist small"], pages[f"{label} changelist large"]

    assert large.rows > small.rows, f"{label}: the big club adds no rows to its changelist"
    assert large.queries == small.queries, (
        f"{label} changelist: {small.queries} queries for {small.rows} rows, "
        f"{large.queries} for {large.rows}"
    )


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model._meta.label)
def test_a_change_page_with_many_related_rows_makes_as_many_queries_as_with_a_few(pages, model):
    label = model._meta.label
    if f"{label} change small" not in pages:
        pytest.fail(f"{label} has no data here: add it to open_club()")
    small, large = pages[f"{label} change small"], pages[f"{label} change large"]

    if admin.site._registry[model].inlines:
        assert large.rows > small.rows, f"{label}: the big club adds no rows to its inlines"
    assert large.queries == small.queries, (
        f"{label} change page: {small.queries} queries with {small.rows} inline rows, "
        f"{large.queries} with {large.rows}"
    )
