"""Federations in the JSON API: the list, one federation with its clubs and seasons, a season's
ranking across the clubs (public names, an ETag, a 404 in the API's shape while there is none)
and its inter-club nights (published ones for the public, all for its administrators); every
role refused where it must be, constant query counts; a night names its federation season."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from club.models import Membership, Player
from club.services import federation_admin_add, federation_open, federation_season_create
from games.models import Tournament
from games.services import poule_create, presence_set
from scoring.services import deal_record, tournament_close, tournament_publish
from tests.conftest import persona
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    SeasonFactory,
    TournamentFactory,
    night_started,
)

pytestmark = pytest.mark.django_db

API = "/api/v1"
SOLO_2_MADE = {"contract": "solo", "bid": 6, "declarers": ["2"], "tricks": 7}


@pytest.fixture
def api() -> APIClient:
    return APIClient()


def signed(api: APIClient, user: Any) -> APIClient:
    api.logout()
    if user is not None:
        api.force_login(user)
    return api


@pytest.fixture
def league(club, season):
    """The club and its neighbour in one federation, its 2024 season counting its
    championship nights."""
    neighbour = ClubFactory(name="Cercle voisin")
    SeasonFactory(club=neighbour, year=2024)
    federation = federation_open("Ligue de whist du Brabant", clubs=[club, neighbour])
    fed_season = federation_season_create(
        federation, "2024", datetime.date(2024, 1, 1), datetime.date(2024, 12, 31)
    )
    return federation, fed_season, neighbour


def interclub_night(host, fed_season, players, *, day: int, publish: bool) -> Tournament:
    """A night ``host`` holds for the federation: one table of ``players``, closed (and
    published), with the federation's ranking its publication asks for."""
    night = TournamentFactory(
        club=host,
        season=host.seasons.get(name="2024"),
        date=datetime.date(2024, 3, day),
        federation_season=fed_season,
    )
    presence_set(night, players)
    night_started(night)
    poule = poule_create(night, round=1, table=1, players=players)
    deal_record(poule, SOLO_2_MADE)
    night = tournament_close(night, unfinished_ok=True)
    if publish:
        night = tournament_publish(night)
    return night


@pytest.fixture
def published(league, club, django_capture_on_commit_callbacks):
    """A published inter-club night of two hosts and two visitors, ranked."""
    _federation, fed_season, neighbour = league
    players = PlayerFactory.create_batch(2, club=club) + PlayerFactory.create_batch(
        2, club=neighbour
    )
    with django_capture_on_commit_callbacks(execute=True):
        return interclub_night(club, fed_season, players, day=14, publish=True)


def queries(api: APIClient, path: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert api.get(path).status_code == 200, path
    return len(captured)


def test_federations_are_listed_with_their_clubs_for_everybody(api, league, club):
    federation, _fed_season, neighbour = league
    body = api.get(f"{API}/federations/").json()
    assert body["count"] == 1
    assert body["results"][0] == {
        "slug": federation.slug,
        "name": "Ligue de whist du Brabant",
        "short_name": "",
        "clubs": [neighbour.slug, club.slug],  # by name: « Cercle voisin » first
    }


def test_a_federation_shows_its_clubs_and_seasons(api, league, published):
    federation, fed_season, _neighbour = league
    response = api.get(f"{API}/federations/{federation.slug}/")
    assert response.status_code == 200
    body = response.json()
    assert [c["slug"] for c in body["clubs"]] == [c.slug for c in federation.clubs.order_by("name")]
    assert set(body["clubs"][0]) == {"slug", "name", "game", "rules", "rounds_per_night"}
    [season] = body["seasons"]
    assert season["slug"] == fed_season.slug and season["counts"] == "championship"
    assert season["start"] == "2024-01-01" and season["ranking_computed_at"] is not None


def test_an_unknown_federation_is_a_404_in_the_apis_shape(api, league):
    for path in (
        f"{API}/federations/nulle-part/",
        f"{API}/federations/nulle-part/seasons/2024/ranking/",
        f"{API}/federations/nulle-part/seasons/2024/nights/",
        f"{API}/federations/{league[0].slug}/seasons/1999/nights/",
    ):
        response = api.get(path)
        assert response.status_code == 404, path
        assert set(response.json()) == {"detail"}


def test_the_federation_ranking_is_public_with_public_names_and_an_etag(
    api, league, published, django_capture_on_commit_callbacks
):
    federation, fed_season, neighbour = league
    first = published.standings.order_by("rank").first().player
    first.public_name = Player.PublicName.INITIALS
    first.save()
    path = f"{API}/federations/{federation.slug}/seasons/{fed_season.slug}/ranking/"
    response = api.get(path)
    assert response.status_code == 200
    body = response.json()
    assert body["federation"] == federation.slug and body["season"] == fed_season.slug
    assert body["tournaments"] == 1 and body["clubs"] == 1
    assert body["lines"][0]["player"] == {"id": first.pk, "name": first.initials}
    assert body["lines"][0]["tournament_points"] == "5"
    assert body["lines"][0]["clubs_played"] == 1
    assert len(body["lines"]) == 4
    assert response["ETag"] and response["Last-Modified"]
    assert api.get(path, HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304
    # Another night published: the ranking is recomputed and the old copy is stale.
    players = [*Player.objects.in_club(neighbour), PlayerFactory(club=neighbour), first]
    with django_capture_on_commit_callbacks(execute=True):
        interclub_night(neighbour, fed_season, players, day=21, publish=True)
    again = api.get(path, HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 200
    assert again.json()["tournaments"] == 2


def test_a_season_without_a_ranking_is_a_404(api, league, club, django_capture_on_commit_callbacks):
    federation, fed_season, neighbour = league
    players = PlayerFactory.create_batch(4, club=neighbour)
    # Closed, not published by its host: the federation ranks nothing yet.
    with django_capture_on_commit_callbacks(execute=True):
        interclub_night(club, fed_season, players, day=14, publish=False)
    path = f"{API}/federations/{federation.slug}/seasons/{fed_season.slug}/ranking/"
    response = api.get(path)
    assert response.status_code == 404
    assert "detail" in response.json()


def test_the_seasons_nights_are_the_published_ones_for_all_but_its_admins(
    api, league, club, published, member, club_admin, outsider
):
    federation, fed_season, neighbour = league
    players = PlayerFactory.create_batch(4, club=neighbour)
    closed = interclub_night(neighbour, fed_season, players, day=21, publish=False)
    # A club night of the same days is no inter-club night.
    TournamentFactory(club=club, season=club.seasons.get(), date=datetime.date(2024, 3, 28))
    path = f"{API}/federations/{federation.slug}/seasons/{fed_season.slug}/nights/"
    for user in (None, member, club_admin, outsider):
        rows = signed(api, user).get(path).json()["results"]
        assert [row["id"] for row in rows] == [published.pk], user
    row = signed(api, None).get(path).json()["results"][0]
    assert row["federation"] == federation.slug and row["federation_season"] == fed_season.slug
    assert row["club"] == club.slug
    runner = persona(ClubFactory(name="Ligue, secrétariat"), "ligue", Membership.Role.MEMBER)
    federation_admin_add(federation, runner.player)
    rows = signed(api, runner).get(path).json()["results"]
    assert [row["id"] for row in rows] == [closed.pk, published.pk]
    # Another federation's admin is the public here.
    other = federation_open("Ligue de Liège", clubs=[ClubFactory(name="Whist Club Liège")])
    stranger = persona(ClubFactory(name="Whist Club Liège"), "liege", Membership.Role.ADMIN)
    federation_admin_add(other, stranger.player)
    rows = signed(api, stranger).get(path).json()["results"]
    assert [row["id"] for row in rows] == [published.pk]


def test_a_night_names_its_federation_season_and_a_club_night_none(api, published, club):
    club_night = TournamentFactory(club=club, season=club.seasons.get())
    scorer = persona(club, "marqueur", Membership.Role.SCORER)
    signed(api, scorer)
    rows = {row["id"]: row for row in api.get(f"{API}/clubs/{club.slug}/nights/").json()["results"]}
    assert rows[club_night.pk]["federation"] is None
    assert rows[club_night.pk]["federation_season"] is None
    assert rows[published.pk]["federation"] == published.federation_season.federation.slug
    detail = api.get(f"{API}/clubs/{club.slug}/nights/{published.pk}/").json()
    assert detail["federation_season"] == published.federation_season.slug


def test_the_federation_endpoints_are_throttled_like_the_public_ones(api, league, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "2/min", "token": "2/min"},
    }
    path = f"{API}/federations/{league[0].slug}/"
    assert [api.get(path).status_code for _ in range(3)] == [200, 200, 429]


def test_federation_endpoints_have_constant_query_counts(
    api, league, club, published, django_capture_on_commit_callbacks
):
    """Measured for the public and for a federation admin, before and after the federation
    grows: a third club, a second season, more nights, players and ranking lines."""
    federation, fed_season, neighbour = league
    runner = persona(club, "ligue", Membership.Role.MEMBER)
    federation_admin_add(federation, runner.player)
    base = f"{API}/federations/{federation.slug}/"
    paths = [
        f"{API}/federations/",
        base,
        f"{base}seasons/{fed_season.slug}/nights/",
        f"{base}seasons/{fed_season.slug}/ranking/",
        f"{API}/clubs/{club.slug}/nights/",
    ]
    public, admin = APIClient(), signed(APIClient(), runner)
    before = {path: queries(public, path) for path in paths}
    admin_before = {path: queries(admin, path) for path in paths}

    third = ClubFactory(name="Whist Club Nivelles")
    SeasonFactory(club=third, year=2024)
    federation.clubs.add(third)
    federation_season_create(
        federation, "2025", datetime.date(2025, 1, 1), datetime.date(2025, 12, 31)
    )
    federation_open("Ligue de Namur", clubs=[ClubFactory(name="Whist Club de Namur")])
    players = (
        PlayerFactory.create_batch(2, club=third)
        + PlayerFactory.create_batch(2, club=neighbour)
        + PlayerFactory.create_batch(1, club=club)
    )
    with django_capture_on_commit_callbacks(execute=True):
        interclub_night(third, fed_season, players, day=21, publish=True)
        interclub_night(neighbour, fed_season, players[1:], day=28, publish=True)
        interclub_night(club, fed_season, players[:4], day=30, publish=False)

    assert {path: queries(public, path) for path in paths} == before
    assert {path: queries(admin, path) for path in paths} == admin_before
    # A cached ranking is served from the federation, its season and its ranking's row.
    ranking = f"{base}seasons/{fed_season.slug}/ranking/"
    assert queries(public, ranking) <= 3
