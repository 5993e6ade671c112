"""The sitemap's pages: every public page of every listed club, and nothing else — no
unpublished night or ranking, no club that is not listed."""

from __future__ import annotations

from xml.etree import ElementTree

import pytest
from django.urls import reverse

from games.models import Tournament
from scoring import services as scoring_services
from tests.factories import ClubFactory, SeasonFactory, TournamentFactory

pytestmark = pytest.mark.django_db

NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}


def listed(client) -> set[str]:
    response = client.get(reverse("sitemap"), HTTP_HOST="localhost")
    assert response.status_code == 200
    root = ElementTree.fromstring(response.content)
    return {loc.text.removeprefix("http://localhost") for loc in root.findall("s:url/s:loc", NS)}


@pytest.fixture
def published(imported_night, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.tournament_publish(imported_night)
        scoring_services.ranking_publish(imported_night.season)
    return imported_night


def test_a_listed_clubs_published_pages_are_in_it(client, published):
    club, season = published.club, published.season
    assert {
        reverse("home"),
        reverse("guide"),
        reverse("club-detail", args=[club.slug]),
        reverse("ranking-archive", args=[club.slug]),
        reverse("palmares", args=[club.slug]),
        reverse("games:calendar", args=[club.slug]),
        reverse("player", args=[club.slug, club.memberships.first().player_id]),
        reverse("ranking-season", args=[club.slug, season.slug]),
        reverse("games:results", args=[club.slug, published.pk]),
    } <= listed(client)


def test_a_night_or_a_ranking_not_published_is_not_in_it(client, imported_night):
    club, season = imported_night.club, imported_night.season
    pages = listed(client)
    assert reverse("games:results", args=[club.slug, imported_night.pk]) not in pages
    assert reverse("ranking-season", args=[club.slug, season.slug]) not in pages
    assert reverse("club-detail", args=[club.slug]) in pages


def test_a_club_not_listed_is_not_in_it_at_all(client, django_capture_on_commit_callbacks):
    hidden = ClubFactory(name="Club privé", slug="prive", listed=False)
    season = SeasonFactory(club=hidden, year=2024)
    night = TournamentFactory(club=hidden, season=season)
    Tournament.objects.filter(pk=night.pk).update(status=Tournament.Status.PUBLISHED)
    pages = listed(client)
    assert not any("/clubs/prive/" in page for page in pages)
    assert reverse("games:results", args=[hidden.slug, night.pk]) not in pages
    assert "/clubs/*/gestion/" not in pages


def test_the_sitemap_reads_one_query_a_kind_of_page_however_many_clubs_and_nights(
    client, published, django_assert_num_queries
):
    other = ClubFactory(name="Whist Club de Wavre", slug="wavre")
    night = TournamentFactory(club=other, season=SeasonFactory(club=other, year=2024))
    Tournament.objects.filter(pk=night.pk).update(status=Tournament.Status.PUBLISHED)
    # The listed clubs; the published rankings, the published nights and the members' pages,
    # each counted by the sitemap's paginator, then read; the clubs' own site pages, news and
    # albums, each counted (none here: not read); the federations; their seasons, counted.
    with django_assert_num_queries(12):
        pages = listed(client)
    assert reverse("games:results", args=["wavre", night.pk]) in pages
