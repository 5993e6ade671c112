"""Input no page of the site sends — a huge penalty, an absurd seed, bytes an address cannot
carry, a night in the year 1 — is refused in words (a form error or a 4xx), never a 500."""

from __future__ import annotations

import copy

import pytest
from django.urls import reverse

from games import services as games_services
from games.dealforms import deal_post
from games.models import Deal, RoundDraw, Tournament
from games.nightfile import tournament_import
from scoring.engine.errors import DocumentRefused
from scoring.services import deal_record, ranking_publish, tournament_close
from tests.factories import SeasonFactory, night_started

pytestmark = pytest.mark.django_db

SOLO = {"contract": "solo", "bid": 6, "declarers": ["3"], "tricks": 6}


def night_url(night: Tournament, name: str, **kwargs) -> str:
    return reverse(f"games:{name}", kwargs={"slug": night.club.slug, "pk": night.pk, **kwargs})


@pytest.mark.parametrize("points", [10**12, 10_001])
def test_a_huge_penalty_is_a_form_error_and_records_nothing(client, scorer, running_night, points):
    poule = running_night.poules.filter(round=1).first()
    data = deal_post(poule, {**SOLO, "penalties": [{"player": "2", "points": 10}]})
    data = {
        key: (points if key.endswith("_points") and value else value) for key, value in data.items()
    }
    client.force_login(scorer)

    response = client.post(night_url(running_night, "sheet", poule_pk=poule.pk), data)

    assert response.status_code == 200
    assert "10000" in response.content.decode()  # the form says the limit
    assert not Deal.objects.exists()


def test_a_huge_penalty_in_a_file_is_a_located_error(night_document):
    document = copy.deepcopy(night_document)
    deal = document["poules"][0]["deals"][0]
    deal["penalties"] = [{"player": document["poules"][0]["seats"][1], "points": 10**12}]

    with pytest.raises(DocumentRefused) as refused:
        tournament_import(document)

    assert "poules[0].deals[0].penalties[0].points: expected at most 10000" in str(refused.value)
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("seed", [str(2**63), str(10**30), "²", "-1", "12a"])
def test_an_absurd_seed_is_refused_in_words(client, scorer, running_night, seed):
    client.force_login(scorer)

    response = client.post(night_url(running_night, "draw", round=2), {"seed": seed})

    assert response.status_code == 400
    assert "La graine du tirage est un nombre entier" in response.content.decode()
    assert not RoundDraw.objects.filter(tournament=running_night, round=2).exists()


def test_the_largest_seed_the_database_holds_is_accepted(client, scorer, running_night):
    client.force_login(scorer)

    client.post(night_url(running_night, "draw", round=2), {"seed": str(2**63 - 1)})

    assert RoundDraw.objects.get(tournament=running_night, round=2).seed == 2**63 - 1


@pytest.mark.parametrize("value", ["²", "1e3", str(10**30)])
def test_a_tampered_presence_list_is_refused_in_words(client, scorer, running_night, value):
    client.force_login(scorer)
    before = set(running_night.present.values_list("pk", flat=True))

    response = client.post(night_url(running_night, "presence"), {"present": [value]})

    assert response.status_code == 400
    assert "La liste des présents envoyée est illisible" in response.content.decode()
    assert set(running_night.present.values_list("pk", flat=True)) == before


@pytest.mark.parametrize(
    "path",
    [
        "/clubs/rcwhist/classement/2025%00/export.csv",
        "/clubs/rcwhist/classement/2025%00/",
        "/clubs/rcwhist/soirees/99999999999999999999999/",
        "/clubs/rcwhist/soirees/%C2%B2/",
        "/clubs/rcwhist/joueurs/1%00/",
    ],
)
def test_an_address_with_odd_bytes_or_numbers_is_not_found(client, club, path):
    assert client.get(path).status_code == 404


def test_a_season_named_with_a_slash_has_its_pages(client, club, closed_night_factory):
    season = SeasonFactory(club=club, name="2025/2026", slug="2025-2026", year=2025)
    closed_night_factory(season)
    ranking_publish(season)

    for name in ("ranking", "ranking-archive"):
        assert client.get(reverse(name, args=[club.slug])).status_code == 200
    page = client.get(reverse("ranking-season", args=[club.slug, season.slug]))
    assert page.status_code == 200
    assert "2025/2026" in page.content.decode()


@pytest.mark.parametrize("date", ["0001-01-01", "9999-12-31", "1899-12-31"])
def test_a_night_dated_out_of_any_season_is_refused_on_its_form(client, club, scorer, date):
    client.force_login(scorer)

    response = client.post(
        reverse("games:tournament-create", args=[club.slug]),
        {
            "date": date,
            "rules": "rcwhist",
            "tournament_points": "rcwhist",
            "rounds": 3,
            "draw_method": "avoid_repeats",
        },
    )

    assert response.status_code == 200
    assert "est hors des dates possibles" in response.content.decode()
    assert not club.seasons.exists()
    assert not Tournament.objects.exists()


def test_a_file_of_a_night_in_the_year_1_is_refused(night_document):
    document = {**copy.deepcopy(night_document), "date": "0001-01-01", "season": "1"}

    with pytest.raises(Exception, match="hors des dates possibles"):
        tournament_import(document)

    assert not Tournament.objects.exists()


@pytest.fixture
def closed_night_factory(point_table, club_members):
    """A closed night of one poule in a season."""

    def make(season):
        night = games_services.tournament_create(
            club=season.club,
            season=season,
            date=season.start,
            game="belgian_whist",
            point_table=point_table,
        )
        night_started(night)
        poule = games_services.poule_create(night, round=1, table=1, players=club_members[:4])
        deal_record(poule, SOLO)
        return tournament_close(night, unfinished_ok=True)

    return make
