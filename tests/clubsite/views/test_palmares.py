"""The palmarès page: public, each player named as its reader may see him, drawn in a few
queries once per publication, found again when the club publishes."""

from __future__ import annotations

import datetime
from fractions import Fraction

import pytest
from django.core.cache import caches
from django.urls import reverse

from club.models import Player
from club.services import published_pages_changed
from clubsite.palmares import PALMARES_QUERIES
from scoring import services as scoring_services
from scoring.models import RankingSnapshot
from tests.clubsite.test_palmares import CHELEM, SOLO, played_night
from tests.factories import ClubFactory, PlayerFactory, SeasonFactory

pytestmark = pytest.mark.django_db

PUBLISHED = datetime.datetime(2024, 12, 31, tzinfo=datetime.UTC)


def page(club) -> str:
    return reverse("palmares", args=[club.slug])


@pytest.fixture
def champion(club, season) -> Player:
    """The 2024 season's champion, who chose to be named by his initials to strangers."""
    player = PlayerFactory(
        club=club, first_name="Zoé", last_name="Gilson", display_name="Zoé Gilson"
    )
    player.public_name = Player.PublicName.INITIALS
    player.save()
    snapshot = RankingSnapshot.objects.create(
        season=season, computed_at=PUBLISHED, published_at=PUBLISHED, tournaments=8
    )
    snapshot.lines.create(
        player=player,
        rank=1,
        position=1,
        tournament_points=Fraction(78),
        game_points=300,
        tournaments_played=8,
        tournaments_counted=8,
    )
    published_pages_changed(club.pk)
    return player


def test_the_public_reads_the_champion_under_his_initials_a_member_by_his_name(
    client, club, champion, member
):
    shown = client.get(page(club)).content.decode()
    assert champion.initials in shown and "Zoé Gilson" not in shown
    assert reverse("ranking-season", args=[club.slug, "2024"]) in shown

    client.force_login(member)
    assert "Zoé Gilson" in client.get(page(club)).content.decode()


def test_a_club_with_nothing_published_says_so(client, club):
    response = client.get(page(club))
    assert response.status_code == 200
    assert "son palmarès viendra avec eux" in response.content.decode()


def test_another_clubs_palmares_shows_none_of_this_clubs_champions(client, club, champion):
    other = ClubFactory(name="Whist Club de Wavre", slug="wavre")
    SeasonFactory(club=other, year=2024)
    assert champion.initials not in client.get(page(other)).content.decode()
    assert client.get("/clubs/no-such-club/palmares/").status_code == 404


def test_the_page_is_drawn_in_a_few_queries_then_served_from_the_cache_until_a_publication(
    client, club, season, point_table, django_assert_num_queries, django_capture_on_commit_callbacks
):
    players = PlayerFactory.create_batch(4, club=club)
    with django_capture_on_commit_callbacks(execute=True):
        for day in (2, 9, 16):
            played_night(club, season, point_table, players, [SOLO, CHELEM], day=day)
        scoring_services.ranking_publish(season)
    caches["default"].clear()
    # The club, then the palmarès's own queries: none a night, a season or a player.
    with django_assert_num_queries(1 + PALMARES_QUERIES):
        assert client.get(page(club)).status_code == 200
    # Another reader (his language): the page drawn again, the palmarès from the cache.
    client.cookies["django_language"] = "en"
    with django_assert_num_queries(1):
        assert "Hall of fame" in client.get(page(club)).content.decode()
    published_pages_changed(club.pk)
    with django_assert_num_queries(1 + PALMARES_QUERIES):
        client.get(page(club))


def test_the_page_has_its_description_canonical_link_and_open_graph_tags(client, club, champion):
    shown = client.get(page(club), HTTP_HOST="localhost").content.decode()
    assert f'<link rel="canonical" href="http://localhost{page(club)}">' in shown
    assert '<meta name="description" content="Le palmarès de ' in shown
    assert '<meta property="og:title" content="Palmarès – ' in shown
    assert f'<meta property="og:url" content="http://localhost{page(club)}">' in shown
