"""Every page, export and API answer that lists players, read by three viewers — the public, a
member of another club, a member of the player's club — with one member who chose initials:
his full name shows only to his club (``club.names``), his initials to everybody else.

The scene: an inter-club night of the federation hosted by the club and published (the shy
member wins it), the club's ranking published, and a night the neighbour club hosts next,
whose list of players holds the club's members too.
"""

from __future__ import annotations

import csv
import datetime
import io
import json
from dataclasses import dataclass
from typing import Any

import openpyxl
import pytest
from django.urls import reverse

from club.models import Club, Membership, Player
from club.services import room_key_renew
from games.models import Tournament
from games.services import poule_create, presence_set
from scoring.services import deal_record, ranking_publish, tournament_close, tournament_publish
from tests.club.test_federation_pages import league  # noqa: F401 (a fixture)
from tests.factories import (
    MembershipFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
    night_started,
)

pytestmark = pytest.mark.django_db

TODAY = datetime.date.today()
SOLO_1_MADE = {"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 7}
FULL, LAST, INITIALS = "Bérénice Vandermeersch", "Vandermeersch", "B.V."
# A search types his first name (the page repeats what was typed): his last name tells
# whether he was found.
SEARCHED = "B%C3%A9r%C3%A9nice"


@dataclass
class Scene:
    club: Club
    neighbour: Club
    shy: Player
    night: Tournament
    poule: Any
    next_night: Tournament
    season: Any
    federation: Any
    fed_season: Any
    club_mate: Player
    neighbour_member: Player


@pytest.fixture
def scene(club, league, point_table, django_capture_on_commit_callbacks) -> Scene:  # noqa: F811
    federation, fed_season, neighbour, seasons = league
    season, neighbour_season = seasons[club.pk], seasons[neighbour.pk]
    club.ranking_interclub = True  # the night counts in the club's own ranking too
    club.save(update_fields=["ranking_interclub"])
    shy = PlayerFactory(
        first_name="Bérénice",
        last_name=LAST,
        display_name=FULL,
        club=club,
        public_name=Player.PublicName.INITIALS,
    )
    club_mate = PlayerFactory(club=club)
    visitors = PlayerFactory.create_batch(2, club=neighbour)
    night = TournamentFactory(
        club=club,
        season=season,
        point_table=point_table,
        date=TODAY - datetime.timedelta(days=7),
        federation_season=fed_season,
    )
    players = [shy, club_mate, *visitors]
    presence_set(night, players)
    night_started(night)
    poule = poule_create(night, round=1, table=1, players=players)
    deal_record(poule, SOLO_1_MADE)  # seat 1, the shy member, wins the night
    with django_capture_on_commit_callbacks(execute=True):
        tournament_close(night, unfinished_ok=True)
        tournament_publish(night)
        ranking_publish(season)
    room_key_renew(club)
    next_night = TournamentFactory(
        club=neighbour,
        season=neighbour_season,
        point_table=point_table,
        date=TODAY + datetime.timedelta(days=7),
        federation_season=fed_season,
    )
    club.refresh_from_db()
    return Scene(
        club=club,
        neighbour=neighbour,
        shy=shy,
        night=night,
        poule=poule,
        next_night=next_night,
        season=season,
        federation=federation,
        fed_season=fed_season,
        club_mate=club_mate,
        neighbour_member=visitors[0],
    )


def _viewer(client, scene: Scene, who: str) -> str:
    """Log ``who`` in: "public" nobody; "other" the neighbour club's admin (a member of
    another club, the next night's host); "same" the club's admin, who also scores at the
    neighbour's (a member of the shy member's club)."""
    if who == "public":
        return who
    user = UserFactory(username=who)
    if who == "other":
        PlayerFactory(user=user, club=scene.neighbour, club__role=Membership.Role.ADMIN)
    else:
        player = PlayerFactory(user=user, club=scene.club, club__role=Membership.Role.ADMIN)
        MembershipFactory(club=scene.neighbour, player=player, role=Membership.Role.SCORER)
    client.force_login(user)
    return who


def _night(scene: Scene, name: str, *more: Any) -> str:
    return reverse(f"games:{name}", args=[scene.club.slug, scene.night.pk, *more])


def _merge_search(scene: Scene, who: str) -> str:
    """Each admin searches his own club's member's other record by the shy member's name."""
    club, member = (
        (scene.neighbour, scene.neighbour_member)
        if who == "other"
        else (scene.club, scene.club_mate)
    )
    return reverse("member-merge", args=[club.slug, member.pk]) + f"?q={SEARCHED}"


API = "/api/v1/clubs/rcwhist"
# Each page: its address in the scene (or a function of the scene and the viewer), and how
# its body is read. ``found``: a search, where a viewer who may not see the full name does not
# find the shy member by it at all (nothing of him shows).
PAGES: dict[str, Any] = {
    "night page": lambda s, w: _night(s, "tournament"),
    "score sheet": lambda s, w: _night(s, "sheet", s.poule.pk),
    "sheet entry": lambda s, w: _night(s, "sheet-entry", s.poule.pk),
    "room screen by login": lambda s, w: _night(s, "room"),
    "room screen by key": lambda s, w: reverse("room-by-key", args=[s.club.slug, s.club.room_key]),
    "results": lambda s, w: _night(s, "results"),
    "seating": lambda s, w: _night(s, "seating", 1),
    "paper sheets": lambda s, w: _night(s, "paper-sheets", 1),
    "results csv": lambda s, w: _night(s, "results-export", "csv"),
    "results xlsx": lambda s, w: _night(s, "results-export", "xlsx"),
    "deals csv": lambda s, w: _night(s, "deals-export", "csv"),
    "night file": lambda s, w: _night(s, "tournament-file"),
    "night ratings": lambda s, w: reverse("night-ratings", args=[s.club.slug, s.night.pk]),
    "club page": lambda s, w: reverse("club-detail", args=[s.club.slug]),
    "ranking": lambda s, w: reverse("ranking", args=[s.club.slug]),
    "ranking archive": lambda s, w: reverse("ranking-archive", args=[s.club.slug]),
    "ranking csv": lambda s, w: reverse("ranking-export", args=[s.club.slug, s.season.slug, "csv"]),
    "player page": lambda s, w: reverse("player", args=[s.club.slug, s.shy.pk]),
    "player statistics": lambda s, w: reverse("player-statistics", args=[s.club.slug, s.shy.pk]),
    "partner's statistics": lambda s, w: reverse(
        "player-statistics", args=[s.club.slug, s.club_mate.pk]
    ),
    "ratings": lambda s, w: reverse("ratings", args=[s.club.slug]),
    "club statistics": lambda s, w: reverse("club-statistics", args=[s.club.slug]),
    "federation overview": lambda s, w: reverse("federation", args=[s.federation.slug]),
    "federation ranking": lambda s, w: reverse(
        "federation-ranking", args=[s.federation.slug, s.fed_season.slug]
    ),
    "federation archive": lambda s, w: reverse("federation-archive", args=[s.federation.slug]),
    # The other clubs' players are found by the search: here by his club's name.
    "inter-club presence": lambda s, w: reverse(
        "games:presence-search", args=[s.neighbour.slug, s.next_night.pk]
    )
    + f"?q={s.club.name}",
    "merge search": _merge_search,
    "members": lambda s, w: reverse("members", args=[s.club.slug]) + f"?q={SEARCHED}",
    "api players": lambda s, w: f"{API}/players/",
    "api player": lambda s, w: f"{API}/players/{s.shy.pk}/",
    "api ranking": lambda s, w: f"{API}/seasons/{s.season.slug}/ranking/",
    "api ratings": lambda s, w: f"{API}/ratings/",
    "api player statistics": lambda s, w: f"{API}/players/{s.club_mate.pk}/statistics/",
    "api night": lambda s, w: f"{API}/nights/{s.night.pk}/",
    "api night file": lambda s, w: f"{API}/nights/{s.night.pk}/export/",
    "api federation ranking": lambda s, w: (
        f"/api/v1/federations/{s.federation.slug}/seasons/{s.fed_season.slug}/ranking/"
    ),
}
SEARCHES = {"merge search"}
# Projected where guests see it: nobody reads it, whoever's browser opened the link.
NOBODY = {"room screen by key"}


def _text(response) -> str:
    if response["Content-Type"].startswith(
        "application/vnd.openxmlformats-officedocument.spreadsheetml"
    ):
        book = openpyxl.load_workbook(io.BytesIO(response.content))
        return "\n".join(
            str(cell) for sheet in book for row in sheet.iter_rows(values_only=True) for cell in row
        )
    text = response.content.decode()
    if response["Content-Type"].startswith("application/json"):
        return json.dumps(json.loads(text), ensure_ascii=False)
    if response["Content-Type"].startswith("text/csv"):
        return "\n".join(",".join(row) for row in csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    return text


@pytest.mark.parametrize("who", ["public", "other", "same"])
@pytest.mark.parametrize("page", list(PAGES))
def test_a_member_who_chose_initials_is_named_in_full_only_to_his_clubs_members(
    client, scene, page, who
):
    _viewer(client, scene, who)
    response = client.get(PAGES[page](scene, who))
    text = _text(response)
    if who == "same" and page not in NOBODY:
        assert response.status_code == 200, page
        assert FULL in text, page
        return
    # Whoever is not a member of his club never reads his name, on a page he may open or not.
    assert LAST not in text, page
    if response.status_code == 200 and page not in SEARCHES:
        assert INITIALS in text, page


HOST_PAGES = [
    "night page",
    "score sheet",
    "sheet entry",
    "room screen by login",
    "results",
    "seating",
    "paper sheets",
    "deals csv",
    "night file",
    "api night",
    "api night file",
]


@pytest.mark.parametrize("page", HOST_PAGES)
def test_the_host_clubs_admin_reads_a_visitor_who_chose_initials_by_them(client, scene, page):
    """At an inter-club night the host club knows its own members, not its visitors: a
    visitor who chose initials is named by them, to its scorers and admins too."""
    visitor = scene.neighbour_member
    Player.objects.filter(pk=visitor.pk).update(public_name=Player.PublicName.INITIALS)
    visitor.refresh_from_db()
    user = UserFactory(username="hote")
    PlayerFactory(user=user, club=scene.club, club__role=Membership.Role.ADMIN)
    client.force_login(user)

    response = client.get(PAGES[page](scene, "host"))

    assert response.status_code == 200
    text = _text(response)
    assert visitor.last_name not in text and visitor.initials in text
    assert FULL in text  # his own club's member, by name
