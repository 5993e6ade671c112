"""The club-night file of an inter-club night: exported with its host club and federation
season, imported back onto that season (refused, located at ``federation``, when the site
cannot hold it there), its visitors seated from their own clubs without joining the host, and
round-tripped into an emptied site to the same night, season and standings."""

from __future__ import annotations

import copy
import datetime
import random
from typing import Any

import pytest
from django.apps import apps
from django.db import transaction
from rest_framework.test import APIClient

from club.models import Club, Federation, Membership, Player, Season
from club.services import federation_open, federation_season_create
from games.demo import random_night
from games.models import PointTable, Tournament
from games.nightfile import tournament_import, tournaments_import
from games.nightfile_export import tournament_export
from scoring.engine.errors import DocumentRefused
from scoring.models import FederationRanking, RankingSnapshot, TournamentStanding
from scoring.services import tournament_publish
from tests.conftest import CLUB_NAME, persona
from tests.factories import ClubFactory, PlayerFactory, SeasonFactory

pytestmark = pytest.mark.django_db

NEIGHBOUR = "Cercle voisin"
LEAGUE = "Ligue de whist du Brabant"
HOSTS = ["Anne Dupont", "Bruno Lemaire", "Chloé Martin", "Didier Peeters", "Eva Janssens"]
VISITORS = ["Hugo Claes", "Inès Wouters", "Jules Maes", "Karin Jacobs"]


def league_world() -> tuple[Club, Club, Any]:
    """The host club with five members, its neighbour with four, one federation of both and
    its 2024 season: what an emptied site is set up with again, names only."""
    host = ClubFactory(name=CLUB_NAME, slug="rcwhist")
    neighbour = ClubFactory(name=NEIGHBOUR)
    for club, names in ((host, HOSTS), (neighbour, VISITORS)):
        SeasonFactory(club=club, year=2024)
        for name in names:
            first, _sep, last = name.partition(" ")
            PlayerFactory(club=club, first_name=first, last_name=last, display_name=name)
    federation = federation_open(LEAGUE, clubs=[host, neighbour])
    fed_season = federation_season_create(
        federation, "2024", datetime.date(2024, 1, 1), datetime.date(2024, 12, 31)
    )
    return host, neighbour, fed_season


@pytest.fixture
def league():
    return league_world()


def interclub_document(members: list[str] | None = None) -> dict[str, Any]:
    """Nine players of both clubs at the host's night of 14 March, for the federation."""
    doc = random_night(
        random.Random(25),
        club=CLUB_NAME,
        season="2024",
        date=datetime.date(2024, 3, 14),
        members=members or HOSTS + VISITORS,
        present=9,
    )
    return {**doc, "federation": {"name": LEAGUE, "season": "2024"}}


def refused_places(doc: dict[str, Any]) -> list[str]:
    with pytest.raises(DocumentRefused) as refused:
        tournament_import(doc)
    return [error.place for error in refused.value.errors]


def test_an_interclub_night_is_imported_onto_its_federation_season(league):
    host, neighbour, fed_season = league
    members_before = Membership.objects.filter(club=host).count()

    night = tournament_import(interclub_document())

    assert night.club == host and night.federation_season == fed_season
    # The visitors played as themselves, from their own club, without joining the host.
    seated = set(night.standings.values_list("player__display_name", flat=True))
    assert seated == set(HOSTS + VISITORS)
    visitors = Player.objects.filter(display_name__in=VISITORS)
    assert visitors.count() == len(VISITORS)
    assert not Membership.objects.filter(club=host, player__in=visitors).exists()
    assert Membership.objects.filter(club=host).count() == members_before


def test_a_name_unknown_to_every_club_of_the_federation_joins_the_host_as_a_guest(league):
    host, neighbour, _fed_season = league
    members = HOSTS + VISITORS[:3] + ["Zoé Inconnue"]

    night = tournament_import(interclub_document(members))

    newcomer = Player.objects.get(display_name="Zoé Inconnue")
    assert night.standings.filter(player=newcomer).exists()
    [membership] = Membership.objects.filter(player=newcomer)
    assert membership.club == host and membership.status == Membership.Status.GUEST


def test_a_club_nights_new_names_still_join_as_members(league):
    host, _neighbour, _fed_season = league
    doc = interclub_document(HOSTS + VISITORS[:3] + ["Zoé Inconnue"])
    del doc["federation"]

    night = tournament_import(doc)

    assert night.federation_season is None
    # A club night is the club's own: the neighbour's players join it, as any new name does.
    membership = Membership.objects.get(club=host, player__display_name="Zoé Inconnue")
    assert membership.status == Membership.Status.ACTIVE
    assert Membership.objects.filter(club=host, player__display_name=VISITORS[0]).exists()


@pytest.mark.parametrize(
    ("federation", "words"),
    [
        ({"name": "Ligue inconnue", "season": "2024"}, "no federation is called"),
        ({"name": LEAGUE, "season": "1999"}, "has no season"),
        ("Ligue de whist du Brabant", "expected"),
        ({"name": LEAGUE}, "expected"),
    ],
)
def test_a_federation_the_site_does_not_know_is_refused_at_its_place(league, federation, words):
    doc = {**interclub_document(), "federation": federation}
    players_before = Player.objects.count()

    with pytest.raises(DocumentRefused) as refused:
        tournament_import(doc)

    [error] = refused.value.errors
    assert error.place == "federation" and words in error.message
    assert not Tournament.objects.exists()
    assert Player.objects.count() == players_before


def test_a_club_outside_the_federation_cannot_have_held_its_night(league):
    outside = ClubFactory(name="Club d'ailleurs")
    SeasonFactory(club=outside, year=2024)
    doc = {**interclub_document(), "club": outside.name}

    assert refused_places(doc) == ["federation"]
    assert not Tournament.objects.exists()
    assert not Membership.objects.filter(club=outside).exists()


def test_a_night_outside_the_federation_season_is_refused(league):
    _host, _neighbour, fed_season = league
    fed_season.end = datetime.date(2024, 2, 29)
    fed_season.save()

    with pytest.raises(DocumentRefused) as refused:
        tournament_import(interclub_document())

    assert refused.value.errors[0].place == "federation"
    assert "outside the federation season" in refused.value.errors[0].message
    assert not Tournament.objects.exists()


def test_a_visitors_name_two_players_of_the_federation_bear_is_refused(league):
    _host, _neighbour, fed_season = league
    third = ClubFactory(name="Whist Club Nivelles")
    fed_season.federation.clubs.add(third)
    PlayerFactory(club=third, first_name="Hugo", last_name="Claes", display_name=VISITORS[0])
    doc = interclub_document()
    assert VISITORS[0] in doc["players"]

    places = refused_places(doc)

    assert places == [f"players[{doc['players'].index(VISITORS[0])}]"]
    assert not Tournament.objects.exists()


def test_the_export_names_the_host_club_and_the_federation_season(league):
    night = tournament_import(interclub_document())

    exported = tournament_export(night)

    assert exported["club"] == CLUB_NAME
    assert exported["federation"] == {"name": LEAGUE, "season": "2024"}
    assert list(exported).index("federation") == list(exported).index("season") + 1
    club_night = interclub_document()
    del club_night["federation"]
    club_night["date"] = "2024-03-21"
    assert "federation" not in tournament_export(tournament_import(club_night))


def test_several_files_report_a_refused_federation_in_words(league):
    good, bad = interclub_document(), interclub_document()
    bad["date"] = "2024-03-21"
    bad["federation"] = {"name": LEAGUE, "season": "2031"}

    outcomes = tournaments_import([good, bad])

    assert isinstance(outcomes[0], Tournament)
    assert outcomes[1] == [
        'federation: the federation "Ligue de whist du Brabant" has no season "2031"'
    ]


def test_the_api_import_refuses_an_unknown_federation_located(league):
    host, _neighbour, _fed_season = league
    api = APIClient()
    api.force_login(persona(host, "president", Membership.Role.ADMIN))
    path = f"/api/v1/clubs/{host.slug}/nights/import/"
    doc = {**interclub_document(), "federation": {"name": "Ligue inconnue", "season": "2024"}}

    response = api.post(path, doc, format="json")

    assert response.status_code == 400
    [problem] = response.json()["problems"]
    assert problem["place"] == "federation" and problem["code"] == "federation_unknown"
    created = api.post(path, interclub_document(), format="json")
    assert created.status_code == 201
    assert created.json()["federation"] == Federation.objects.get().slug
    assert created.json()["federation_season"] == "2024"


# --------------------------------------------------------------------------------------------
# Round trip


def empty_the_site() -> None:
    FederationRanking.objects.all().delete()
    Tournament.objects.all().delete()
    Federation.objects.all().delete()
    RankingSnapshot.objects.all().delete()
    Season.objects.all().delete()
    Club.objects.all().delete()
    Player.objects.all().delete()
    PointTable.objects.all().delete()
    site = ("club", "games", "scoring")
    counts = {m._meta.label: m._default_manager.count() for m in apps.get_models()}
    assert not any(n for label, n in counts.items() if label.startswith(site)), counts


def night_results(night: Tournament) -> list[tuple[Any, ...]]:
    return [
        (line.player.display_name, line.rank, line.tied, line.tournament_points, line.game_points)
        for line in TournamentStanding.objects.filter(tournament=night)
        .select_related("player")
        .order_by("rank", "player__display_name")
    ]


def federation_results(night: Tournament) -> list[tuple[Any, ...]]:
    ranking = FederationRanking.objects.get(season=night.federation_season)
    return [
        (line.player.display_name, line.rank, line.tournament_points, line.clubs_played)
        for line in ranking.lines.select_related("player").order_by("position")
    ]


def test_an_interclub_night_exported_and_imported_into_an_emptied_site_is_the_same(
    league, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        night = tournament_publish(tournament_import(interclub_document()))
    standings, ranking = night_results(night), federation_results(night)
    exported = tournament_export(night)
    assert exported["federation"] == {"name": LEAGUE, "season": "2024"}

    empty_the_site()
    _host, neighbour, fed_season = league_world()
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        restored = tournament_publish(tournament_import(copy.deepcopy(exported)))

    assert restored.federation_season == fed_season
    assert night_results(restored) == standings
    assert tournament_export(restored) == exported
    assert federation_results(restored) == ranking
    # Its visitors came from their own club again.
    assert not Membership.objects.filter(
        club=restored.club, player__display_name__in=VISITORS
    ).exists()
    assert Membership.objects.filter(club=neighbour).count() == len(VISITORS)
