"""A federation's ranking a page at a time: 100 lines a page, a search by name or club on the
server whatever the case and the accents, the signed-in member's own line one link away, and
the same queries for any page of any ranking."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from club.models import Player
from games.presenters.federation import PAGE_LINES
from tests.club.test_federation_pages import (  # noqa: F401
    league,
    page,
    ranking_of_size,
    ranking_url,
)
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def long_ranking(league):  # noqa: F811
    federation, fed_season, _neighbour, _seasons = league
    clubs = [ClubFactory(name="Cercle Éloïse", short_name="Éloïse"), ClubFactory(name="Autre")]
    players = ranking_of_size(fed_season, clubs, 250)
    cache.clear()
    return fed_season, players


def rows(text: str) -> int:
    return text.count('class="player"')


def test_the_ranking_shows_a_hundred_lines_a_page_and_links_the_next(client, long_ranking):
    fed_season, players = long_ranking
    first = client.get(ranking_url(fed_season)).content.decode()
    assert rows(first) == PAGE_LINES
    assert "Page 1 sur 3" in first and 'href="?page=2"' in first
    third = client.get(ranking_url(fed_season) + "?page=3").content.decode()
    # 247 ranked, 3 not yet: the last page holds 47 ranked lines and the 3 apart.
    assert rows(third) == 50 and "Pas encore classés" in third
    assert players[-1].display_name in third and players[0].display_name not in third
    # A page past the end is the last; a page that is no number, the first.
    assert rows(client.get(ranking_url(fed_season) + "?page=99").content.decode()) == 50
    assert "Page 1 sur 3" in client.get(ranking_url(fed_season) + "?page=x").content.decode()


def test_a_search_finds_players_by_name_or_club_whatever_the_accents(client, long_ranking):
    fed_season, players = long_ranking
    renamed = Player.objects.get(pk=players[120].pk)
    renamed.display_name = "Ëlsbeth Qüuxley"
    renamed.save()
    cache.clear()
    found = client.get(ranking_url(fed_season) + "?q=ELSBETH+quuxley").content.decode()
    assert rows(found) == 1 and "Ëlsbeth Qüuxley" in found
    assert "1 ligne pour « ELSBETH quuxley »" in found
    # By his club: every other player plays at « Cercle Éloïse ».
    by_club = client.get(ranking_url(fed_season) + "?q=eloise").content.decode()
    assert "125 lignes pour « eloise »" in by_club and rows(by_club) == PAGE_LINES
    assert 'href="?q=eloise&amp;page=2"' in by_club
    assert "Personne de ce nom" in client.get(ranking_url(fed_season) + "?q=zzz").content.decode()


def test_a_player_who_chose_initials_is_not_found_by_his_full_name(client, long_ranking):
    fed_season, players = long_ranking
    shy = Player.objects.get(pk=players[5].pk)
    shy.display_name, shy.first_name, shy.last_name = "Bérénice Secrète", "Bérénice", "Secrète"
    shy.public_name = Player.PublicName.INITIALS
    shy.save()
    cache.clear()
    assert "Secrète" not in client.get(ranking_url(fed_season) + "?q=secrete").content.decode()
    assert "B.S." in client.get(ranking_url(fed_season) + "?q=b.s.").content.decode()


def test_a_signed_in_member_reaches_his_own_line(client, long_ranking):
    fed_season, players = long_ranking
    user = UserFactory()
    Player.objects.filter(pk=players[149].pk).update(user=user)
    client.force_login(user)
    text = client.get(ranking_url(fed_season)).content.decode()
    assert (
        "Ma place : 150e" in text
        and 'href="' + ranking_url(fed_season) + '?page=2#ma-place"' in text
    )
    second = client.get(ranking_url(fed_season) + "?page=2").content.decode()
    assert 'id="ma-place" class="mine"' in second
    client.logout()
    cache.clear()
    assert "Ma place" not in client.get(ranking_url(fed_season)).content.decode()


def test_any_page_of_any_ranking_takes_the_same_queries(client, league):  # noqa: F811
    federation, fed_season, _neighbour, _seasons = league
    ranking_of_size(fed_season, [ClubFactory(name="Petit")], 4)
    cache.clear()
    _small, small = page(client, ranking_url(fed_season))
    ranking_of_size(fed_season, [ClubFactory(name=f"Club {n}") for n in range(3)], 260)
    for address in ("", "?page=2", "?page=3"):
        cache.clear()
        response, queries = page(client, ranking_url(fed_season) + address)
        assert response.status_code == 200 and queries == small <= 10
    cache.clear()
    _searched, searched = page(client, ranking_url(fed_season) + "?q=club+1")
    assert searched <= small + 1
