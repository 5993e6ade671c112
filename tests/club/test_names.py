"""The one rule that names a player to whoever reads (``club.names``), case by case as its
table says, and what it costs: nothing for the public or where nobody chose initials, one
query a reader otherwise, however many players a page names."""

from __future__ import annotations

import csv
import datetime
import io
import json
from dataclasses import dataclass
from typing import Any

import openpyxl
import pytest
from django.core.cache import cache
from django.db import connection
from django.template import Context, Template
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from club.models import Club, Membership, Player
from club.name_search import name_holds, typed_words
from club.names import (
    PUBLIC,
    full_name_searchable,
    name_reader_of,
    name_shown,
    recipients,
    searched_by_name,
)
from club.services import room_key_renew
from games.models import Tournament
from games.services import poule_create, presence_set
from scoring.services import deal_record, ranking_publish, tournament_close, tournament_publish
from tests.club.views.test_federations import league  # noqa: F401 (a fixture)
from tests.factories import (
    ClubFactory,
    MembershipFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
    night_started,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def shy(club) -> Player:
    return PlayerFactory(
        first_name="Zébulon",
        last_name="Quarré",
        display_name="Zébulon Quarré",
        club=club,
        public_name=Player.PublicName.INITIALS,
    )


def reader(club=None, **membership) -> object:
    """A user whose player is a member of ``club`` (none: of no club)."""
    user = UserFactory()
    player = PlayerFactory(user=user, club=None)
    if club is not None:
        MembershipFactory(club=club, player=player, **membership)
    return user


def test_the_public_reads_initials_and_asks_nothing(shy, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert name_shown(shy, PUBLIC) == "Z.Q."
        assert name_shown(shy, None) == "Z.Q."


def test_a_member_who_keeps_his_name_is_named_by_it_to_all_without_a_query(
    club, django_assert_num_queries
):
    open_name = PlayerFactory(display_name="Anne Dupont", club=club)
    name_reader = name_reader_of(reader(ClubFactory()))
    with django_assert_num_queries(0):
        assert name_shown(open_name, PUBLIC) == name_shown(open_name, name_reader) == "Anne Dupont"


def test_a_member_of_his_club_reads_his_name_in_one_query_for_the_whole_request(
    club, shy, django_assert_num_queries
):
    others = PlayerFactory.create_batch(5, club=club, public_name=Player.PublicName.INITIALS)
    name_reader = name_reader_of(reader(club))
    with django_assert_num_queries(1):
        assert name_shown(shy, name_reader) == "Zébulon Quarré"
        assert [name_shown(p, name_reader) for p in others] == [p.display_name for p in others]


def test_the_player_himself_reads_his_name_even_in_no_club(shy):
    user = UserFactory()
    Player.objects.filter(pk=shy.pk).update(user=user)
    Membership.objects.filter(player=shy).update(
        end=datetime.date.today(), status=Membership.Status.FORMER
    )
    assert name_shown(shy, name_reader_of(user)) == "Zébulon Quarré"


def test_another_clubs_member_and_admin_read_initials(shy):
    other = ClubFactory()
    assert name_shown(shy, name_reader_of(reader(other))) == "Z.Q."
    assert name_shown(shy, name_reader_of(reader(other, role=Membership.Role.ADMIN))) == "Z.Q."


def test_a_member_of_any_of_his_clubs_reads_his_name(shy):
    second = ClubFactory()
    MembershipFactory(club=second, player=shy)
    assert name_shown(shy, name_reader_of(reader(second))) == "Zébulon Quarré"


def test_his_old_club_still_reads_his_name_and_a_guest_of_his_club_too(club, shy):
    Membership.objects.filter(player=shy).update(
        end=datetime.date.today(), status=Membership.Status.FORMER
    )
    assert name_shown(shy, name_reader_of(reader(club))) == "Zébulon Quarré"
    assert name_shown(shy, name_reader_of(reader(club, status=Membership.Status.GUEST))) == (
        "Zébulon Quarré"
    )


def test_who_left_the_club_no_longer_reads_its_members_names(club, shy):
    user = reader(club, end=datetime.date.today(), status=Membership.Status.FORMER)
    assert name_shown(shy, name_reader_of(user)) == "Z.Q."


def test_the_sites_operator_reads_every_name(shy):
    assert name_shown(shy, name_reader_of(UserFactory(is_superuser=True))) == "Zébulon Quarré"


def test_readers_of_the_same_clubs_share_an_audience_and_the_public_has_its_own(club):
    assert name_reader_of(reader(club)).audience == name_reader_of(reader(club)).audience
    assert name_reader_of(reader(club)).audience != name_reader_of(reader(ClubFactory())).audience
    assert PUBLIC.audience == name_reader_of(UserFactory()).audience == "public"


def test_a_search_finds_by_full_name_only_whom_the_searcher_may_see_named(club, shy):
    found = Player.objects.filter(display_name__icontains="Quarré")
    outsider, member = name_reader_of(reader(ClubFactory())), name_reader_of(reader(club))
    assert not found.filter(full_name_searchable(outsider)).exists()
    assert found.filter(full_name_searchable(member)).get() == shy


def test_every_search_by_name_keeps_initials_for_a_check_as_shown_and_full_names_for_who_knows(
    club, shy
):
    PlayerFactory(display_name="Zoé Quarré-Ouvert", club=club)
    outsider, member = name_reader_of(reader(ClubFactory())), name_reader_of(reader(club))

    def searched(name_reader, typed, **how):
        words = typed_words(typed)
        players = Player.objects.filter(searched_by_name(name_reader, words, **how))
        return {p.display_name for p in players if name_holds(name_shown(p, name_reader), words)}

    # His full name finds him for a member of his club only, whatever the accents.
    assert searched(member, "quarre") == {"Zébulon Quarré", "Zoé Quarré-Ouvert"}
    assert searched(outsider, "quarre") == {"Zoé Quarré-Ouvert"}
    assert searched(PUBLIC, "zebulon") == set()
    # His initials, as the outsider reads them, find him; not where a search asks no initials.
    assert searched(outsider, "z.q.") == {"Zébulon Quarré"}
    assert searched(outsider, "z.q.", by_initials=False) == set()
    # Through a relation: a ranking's lines find their player the same way.
    assert (
        Membership.objects.filter(
            searched_by_name(outsider, typed_words("quarre"), through="player", by_initials=False)
        )
        .get()
        .player.display_name
        == "Zoé Quarré-Ouvert"
    )


def test_e_mail_recipients_read_names_by_the_same_rule_in_two_queries(
    club, shy, django_assert_num_queries
):
    mate = PlayerFactory(club=club)
    visitor = PlayerFactory(club=ClubFactory())
    with django_assert_num_queries(2):
        name_readers = recipients([shy, mate, visitor], [shy])
    assert [name_shown(shy, name_readers[p.pk]) for p in (shy, mate, visitor)] == [
        "Zébulon Quarré",
        "Zébulon Quarré",
        "Z.Q.",
    ]


def test_the_template_filter_asks_the_same_rule(club, shy):
    template = Template("{% load names %}{{ player|name_for:name_reader }}")
    member = name_reader_of(reader(club))
    assert template.render(Context({"player": shy, "name_reader": PUBLIC})) == "Z.Q."
    assert template.render(Context({"player": shy, "name_reader": member})) == "Zébulon Quarré"


def test_a_ranking_page_names_its_members_in_as_many_queries_for_many_as_for_one(
    client, club, season, imported_night
):
    """A club member reads the ranking: everybody chose initials, one more query than
    nobody, not one a row."""
    user = reader(club)
    client.force_login(user)
    address = reverse("ranking-season", args=[club.slug, season.slug])
    ranking_publish(season)

    def count() -> int:
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            page = client.get(address)
        assert page.status_code == 200
        return len(queries)

    nobody = count()
    Player.objects.filter(memberships__club=club).update(public_name=Player.PublicName.INITIALS)
    everybody = count()
    page = client.get(address).content.decode()
    assert everybody == nobody + 1
    assert all(p.display_name in page for p in Player.objects.filter(seats__isnull=False))


# Every page, export and API answer that lists players, read by three viewers — the public, a
# member of another club, a member of the player's club — with one member who chose initials:
# his full name shows only to his club (``club.names``), his initials to everybody else.
#
# The scene: an inter-club night of the federation hosted by the club and published (the shy
# member wins it), the club's ranking published, and a night the neighbour club hosts next,
# whose list of players holds the club's members too.


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
    "results csv-tableur": lambda s, w: _night(s, "results-export", "csv-tableur"),
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


# One name per player for one viewer: whatever page, export or API answer he reads, a viewer
# reads a player under one name — the one ``club.names.name_shown`` gives (his full name to the
# members of his clubs, his initials, if he chose them, to everybody else) — and it stays one
# when the player changes his choice: a page drawn and kept before (a published night's results,
# the API's answer, in the host club's cache for a visitor of an inter-club night) follows too.


# Where a night's players are named, and the club's ranking; "sheet entry" only opens to the
# club's scorers and admins ("same" below).
NAMED_ON = [
    "night page",
    "score sheet",
    "sheet entry",
    "room screen by login",
    "results",
    "results csv",
    "results xlsx",
    "deals csv",
    "night file",
    "ranking",
    "ranking csv",
    "api night",
    "api night file",
    "api ranking",
]
# The public and a member of another club read his initials; his club's admin his name.
EXPECTED = {"public": INITIALS, "other": INITIALS, "same": FULL}


def names_read(client: Client, night: Scene, who: str, full: str, initials: str) -> dict:
    """Each page the viewer may open, with the names it gives the player (of the two)."""
    read = {}
    for page in NAMED_ON:
        response = client.get(PAGES[page](night, who))
        if response.status_code != 200:
            continue
        text = _text(response)
        read[page] = {name for name in (full, initials) if name in text}
    return read


@pytest.mark.parametrize("who", ["public", "other", "same"])
def test_a_viewer_reads_one_player_under_one_name_on_every_page(client, scene, who):
    _viewer(client, scene, who)

    read = names_read(client, scene, who, FULL, INITIALS)

    # The night's pages, the results and the ranking at least, whoever reads.
    assert {"results", "ranking", "api night", "api ranking"} <= set(read)
    assert {page: names for page, names in read.items() if names != {EXPECTED[who]}} == {}


def _choose(player: Player, public_name: str) -> None:
    """The player changes his choice himself, from his profile (the API's, as the page's)."""
    if player.user is None:
        player.user = UserFactory(username="visiteuse")
        player.save(update_fields=["user"])
    own = Client()
    own.force_login(player.user)
    answer = own.patch("/api/v1/me/", {"public_name": public_name}, content_type="application/json")
    assert answer.status_code == 200, answer.content
    player.refresh_from_db()
    assert player.public_name == public_name


# A visitor of the night is named on the host club's night pages (not its ranking).
VISITOR_ON = ["night page", "score sheet", "results", "results csv", "deals csv", "api night"]


@pytest.mark.parametrize(
    ("before", "after"), [("initials", "full"), ("full", "initials")], ids=["shown", "hidden"]
)
def test_a_visitor_changing_his_choice_is_named_anew_on_the_host_clubs_kept_pages(
    scene,
    before,
    after,
):
    """Every viewer reads the pages first (the host club keeps the published ones), then the
    visitor changes his choice: each viewer reads his new name on every page, none the old."""
    visitor = scene.neighbour_member
    Player.objects.filter(pk=visitor.pk).update(public_name=before)
    visitor.refresh_from_db()
    full, initials = visitor.display_name, visitor.initials
    viewers = {}
    for who in ("public", "other", "same"):
        viewers[who] = Client()
        _viewer(viewers[who], scene, who)
        for page in VISITOR_ON:
            viewers[who].get(PAGES[page](scene, who))

    _choose(visitor, after)

    # His own club knows him: the neighbour's admin, and the host's admin who scores at the
    # neighbour's too (``_viewer``); the public does not.
    expected = {"public": initials if after == "initials" else full, "same": full, "other": full}
    for who, client in viewers.items():
        for page in VISITOR_ON:
            response = client.get(PAGES[page](scene, who))
            if response.status_code != 200:
                continue
            text = _text(response)
            named = {name for name in (full, initials) if name in text}
            assert named == {expected[who]}, (who, page)
