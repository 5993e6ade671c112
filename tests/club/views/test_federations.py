"""A federation's public pages: its clubs, its calendar of inter-club nights, its ranking and
archive, linked from the home page and the player's page; only what the host clubs published,
players under their public names, from the cache, in a fixed number of queries."""

from __future__ import annotations

import datetime
from fractions import Fraction

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from club.models import Player
from club.services import (
    federation_admin_add,
    federation_club_join,
    federation_open,
    federation_pages_changed,
    federation_season_create,
)
from games.presenters.federation import PAGE_LINES
from games.services import poule_create, presence_set
from infra.outbox import TaskName, work_queue
from scoring.models import FederationRanking, FederationRankingLine
from scoring.services import deal_record, round_draw, tournament_close, tournament_publish
from tests.factories import (
    ClubFactory,
    MembershipFactory,
    PlayerFactory,
    SeasonFactory,
    TournamentFactory,
    UserFactory,
    night_started,
)
from tests.infra.test_cache import dead_redis, free_port  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db

SOLO_1_MADE = {"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 7}
TODAY = datetime.date.today()


def around_today(club):
    """A club season that holds today, a week ago and the weeks to come."""
    return SeasonFactory(
        club=club,
        name="Saison courante",
        slug="saison-courante",
        start=TODAY - datetime.timedelta(days=60),
        end=TODAY + datetime.timedelta(days=60),
    )


@pytest.fixture
def league(club, point_table):
    """A federation of two clubs (each with a season holding today) and its current season,
    the best 3 nights counting, ranked from the first night."""
    neighbour = ClubFactory(name="Cercle voisin", slug="voisin")
    federation = federation_open("Ligue du Brabant", clubs=[club, neighbour])
    federation.description = "Les clubs de whist du Brabant."
    federation.save()
    fed_season = federation_season_create(
        federation,
        "Championnat",
        TODAY - datetime.timedelta(days=60),
        TODAY + datetime.timedelta(days=60),
        best_n=3,
        min_tournaments=1,
    )
    return federation, fed_season, neighbour, {c.pk: around_today(c) for c in (club, neighbour)}


def interclub_night(host, league, point_table, players, *, days_ago, publish, capture):
    """A night ``host`` held ``days_ago`` for the federation: one table, one solo made by the
    first player, closed, published by its host when ``publish``."""
    _federation, fed_season, _neighbour, seasons = league
    night = TournamentFactory(
        club=host,
        season=seasons[host.pk],
        point_table=point_table,
        date=TODAY - datetime.timedelta(days=days_ago),
        federation_season=fed_season,
    )
    presence_set(night, players)
    night_started(night)
    deal_record(poule_create(night, round=1, table=1, players=players), SOLO_1_MADE)
    with capture(execute=True):
        tournament_close(night, unfinished_ok=True)
        if publish:
            tournament_publish(night)
    return night


@pytest.fixture
def played(league, club, point_table, django_capture_on_commit_callbacks):
    """Two hosts and two visitors; a night the club published, one the neighbour has closed
    but not published, one planned next week."""
    _federation, fed_season, neighbour, seasons = league
    hosts = PlayerFactory.create_batch(2, club=club)
    visitors = PlayerFactory.create_batch(2, club=neighbour)
    published = interclub_night(
        club,
        league,
        point_table,
        hosts + visitors,
        days_ago=14,
        publish=True,
        capture=django_capture_on_commit_callbacks,
    )
    published.name = "Grand prix du Brabant"
    published.save(update_fields=["name"])
    hidden = interclub_night(
        neighbour,
        league,
        point_table,
        visitors + hosts,
        days_ago=7,
        publish=False,
        capture=django_capture_on_commit_callbacks,
    )
    hidden.name = "Soirée pas encore publiée"
    hidden.save(update_fields=["name"])
    coming = TournamentFactory(
        club=neighbour,
        season=seasons[neighbour.pk],
        point_table=point_table,
        date=TODAY + datetime.timedelta(days=7),
        name="Finale à venir",
        federation_season=fed_season,
    )
    return {"hosts": hosts, "visitors": visitors, "published": published, "coming": coming}


def page(client, path, **headers):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path, headers=headers)
    return response, len(queries)


def federation_url(federation):
    return reverse("federation", args=[federation.slug])


def ranking_url(fed_season):
    return reverse("federation-ranking", args=[fed_season.federation.slug, fed_season.slug])


def archive_url(federation):
    return reverse("federation-archive", args=[federation.slug])


def test_anyone_sees_the_federation_its_clubs_its_calendar_and_its_leaders(
    client, league, played, club
):
    federation, fed_season, neighbour, _seasons = league

    response = client.get(federation_url(federation))

    assert response.status_code == 200
    text = response.content.decode()
    assert "<h1>Ligue du Brabant</h1>" in text
    assert "Les clubs de whist du Brabant." in text
    for member_club in (club, neighbour):
        assert f'href="{reverse("club-detail", args=[member_club.slug])}"' in text
    published = played["published"]
    assert f'href="{reverse("games:results", args=[club.slug, published.pk])}"' in text
    assert "Grand prix du Brabant" in text
    assert "Finale à venir" in text
    assert f'href="{ranking_url(fed_season)}"' in text
    # The declarer of the one published night leads the federation.
    assert played["hosts"][0].display_name in text


def test_a_night_its_club_has_not_published_never_shows(client, league, played):
    federation, fed_season, _neighbour, _seasons = league

    for path in (federation_url(federation), ranking_url(fed_season), archive_url(federation)):
        text = client.get(path).content.decode()
        assert "Soirée pas encore publiée" not in text
    ranking = FederationRanking.objects.get(season=fed_season)
    assert ranking.tournaments == 1  # the published one only


def test_the_ranking_ranks_players_across_clubs_with_its_rules_beside_it(
    client, league, played, club
):
    _federation, fed_season, neighbour, _seasons = league

    response = client.get(ranking_url(fed_season))

    text = response.content.decode()
    assert response.status_code == 200
    assert "Les 3 meilleures soirées de chaque joueur comptent." in text
    assert "Classé dès 1 soirée jouée." in text
    assert "Les soirées inter-clubs de la fédération" in text
    assert "Pas encore classés (trop peu de soirées)" not in text
    # Each under his own club's page, with his clubs in the federation.
    visitor = played["visitors"][0]
    assert f'href="{reverse("player", args=[neighbour.slug, visitor.pk])}"' in text
    assert f'href="{reverse("club-detail", args=[neighbour.slug])}"' in text
    assert '<th scope="col">' in text


def test_tied_players_share_their_rank(client, league, played):
    _federation, fed_season, _neighbour, _seasons = league
    ranking = FederationRanking.objects.get(season=fed_season)
    ranking.lines.update(rank=2, tied=True)

    text = client.get(ranking_url(fed_season)).content.decode()

    assert text.count('<abbr title="ex aequo">=</abbr>') == 4


def test_a_player_who_keeps_his_name_private_shows_as_initials(client, league, played):
    federation, fed_season, _neighbour, _seasons = league
    private = played["visitors"][1]
    private.public_name = Player.PublicName.INITIALS
    private.save()

    for path in (ranking_url(fed_season), federation_url(federation)):
        text = client.get(path).content.decode()
        assert private.display_name not in text
        assert private.last_name not in text
    assert private.initials in client.get(ranking_url(fed_season)).content.decode()


def test_a_ranking_being_recomputed_says_so(client, league, played):
    _federation, fed_season, _neighbour, _seasons = league
    before = client.get(ranking_url(fed_season))
    assert "en cours de calcul" not in before.content.decode()

    work_queue(TaskName.FEDERATION_RANKING_UPDATE, fed_season.pk)

    after = client.get(ranking_url(fed_season), headers={"if_none_match": before["ETag"]})
    assert after.status_code == 200
    assert "Classement en cours de calcul" in after.content.decode()


def test_the_archive_lists_every_season_with_its_winner(client, league, played):
    federation, fed_season, _neighbour, _seasons = league
    old = federation_season_create(
        federation, "2024", datetime.date(2024, 1, 1), datetime.date(2024, 12, 31)
    )
    ranking = FederationRanking.objects.get(season=fed_season)
    ranking.lines.filter(player=played["hosts"][0]).update(rank=1)

    text = client.get(archive_url(federation)).content.decode()

    assert f'href="{ranking_url(fed_season)}"' in text
    assert f'href="{ranking_url(old)}"' in text
    assert played["hosts"][0].display_name in text


def test_an_unknown_federation_or_season_is_not_found(client, league):
    federation, _fed_season, _neighbour, _seasons = league

    assert client.get(reverse("federation", args=["nulle-part"])).status_code == 404
    missing = reverse("federation-ranking", args=[federation.slug, "1999"])
    assert client.get(missing).status_code == 404


@pytest.mark.parametrize("address", [federation_url, ranking_url, archive_url])
def test_a_browsers_copy_is_answered_not_modified_until_the_federation_changes(
    client, league, played, address
):
    federation, fed_season, _neighbour, _seasons = league
    path = address(fed_season if address is ranking_url else federation)
    first, drawn = page(client, path)
    assert first.status_code == 200
    assert first["Cache-Control"] == "public, no-cache"

    again, checked = page(client, path, if_none_match=first["ETag"])
    assert again.status_code == 304
    assert checked < drawn

    federation_club_join(federation, ClubFactory(name="Nouveau club"))
    changed, _ = page(client, path, if_none_match=first["ETag"])
    assert changed.status_code == 200
    assert changed["ETag"] != first["ETag"]


def test_a_night_planned_for_the_federation_shows_at_once(client, league, played, point_table):
    federation, fed_season, neighbour, seasons = league
    first, _ = page(client, federation_url(federation))

    TournamentFactory(
        club=neighbour,
        season=seasons[neighbour.pk],
        point_table=point_table,
        date=TODAY + datetime.timedelta(days=21),
        name="Demi-finale",
        federation_season=fed_season,
    )

    again, _ = page(client, federation_url(federation), if_none_match=first["ETag"])
    assert again.status_code == 200
    assert "Demi-finale" in again.content.decode()


def test_a_coming_night_leaves_the_calendar_once_it_starts(client, league, played, point_table):
    federation, fed_season, neighbour, seasons = league
    night = TournamentFactory(
        club=neighbour,
        season=seasons[neighbour.pk],
        point_table=point_table,
        date=TODAY,
        name="Demi-finale",
        federation_season=fed_season,
    )
    presence_set(night, PlayerFactory.create_batch(4, club=neighbour))
    first, _ = page(client, federation_url(federation))
    assert "Demi-finale" in first.content.decode()

    round_draw(night, 1)

    again, _ = page(client, federation_url(federation), if_none_match=first["ETag"])
    assert again.status_code == 200
    assert "Demi-finale" not in again.content.decode()


def test_the_pages_are_served_from_the_cache_without_being_drawn_again(client, league, played):
    federation, fed_season, _neighbour, _seasons = league
    for path in (federation_url(federation), ranking_url(fed_season), archive_url(federation)):
        _, drawn = page(client, path)
        _, served = page(client, path)
        assert served < drawn


def test_a_dead_cache_still_serves_the_pages(client, league, played, dead_redis):  # noqa: F811
    federation, fed_season, _neighbour, _seasons = league

    for path in (federation_url(federation), ranking_url(fed_season), archive_url(federation)):
        assert client.get(path).status_code == 200


def ranking_of_size(fed_season, clubs, players):
    """A computed ranking of ``players`` spread over ``clubs`` (built directly: the pages read
    what the task stored, and only its size matters here)."""
    federation = fed_season.federation
    for club in clubs:
        federation_club_join(federation, club)
    ranking, _ = FederationRanking.objects.update_or_create(
        season=fed_season,
        defaults={"computed_at": datetime.datetime.now(datetime.UTC), "tournaments": 5},
    )
    ranking.lines.all().delete()
    members = [PlayerFactory(club=clubs[n % len(clubs)]) for n in range(players)]
    FederationRankingLine.objects.bulk_create(
        FederationRankingLine(
            ranking=ranking,
            player=player,
            rank=position if position <= players - 3 else None,
            position=position,
            tournament_points=Fraction(100 - position),
            game_points=position,
            tournaments_played=4,
            tournaments_counted=3,
            tournaments_won=1,
            clubs_played=2,
        )
        for position, player in enumerate(members, start=1)
    )
    return members


@pytest.mark.parametrize("address", [federation_url, ranking_url, archive_url])
def test_a_page_takes_the_same_queries_for_40_players_of_3_clubs_as_for_4_of_1(
    client, league, address
):
    federation, fed_season, _neighbour, _seasons = league
    path = address(fed_season if address is ranking_url else federation)
    ranking_of_size(fed_season, [ClubFactory(name="Petit club")], 4)
    small, small_queries = page(client, path)

    big_clubs = [ClubFactory(name=f"Club {n}") for n in range(3)]
    ranking_of_size(fed_season, big_clubs, 40)
    big, big_queries = page(client, path)

    assert small.status_code == big.status_code == 200
    assert big_queries == small_queries
    assert big_queries <= 10
    if address is ranking_url:
        assert big.content.decode().count('class="player"') == 40


def test_the_home_page_leads_a_newcomer_to_the_federations_ranking(client, league, played):
    federation, fed_season, _neighbour, _seasons = league

    text = client.get(reverse("home")).content.decode()

    assert "Fédérations" in text
    assert f'href="{federation_url(federation)}"' in text
    assert f'href="{ranking_url(fed_season)}"' in text


def test_a_one_club_site_in_a_federation_lists_it_on_the_home_page(client, club, point_table):
    federation = federation_open("Ligue d'un seul club", clubs=[club])

    text = client.get(reverse("home")).content.decode()

    assert f'href="{federation_url(federation)}"' in text


def test_the_player_page_lists_his_clubs_and_his_federation_ranking(client, league, played, club):
    federation, fed_season, neighbour, _seasons = league
    traveller = played["hosts"][0]
    MembershipFactory(player=traveller, club=neighbour)
    path = reverse("player", args=[club.slug, traveller.pk])

    response, _ = page(client, path)

    text = response.content.decode()
    assert f'href="{reverse("club-detail", args=[neighbour.slug])}"' in text
    assert f'href="{ranking_url(fed_season)}"' in text
    assert "Classements de fédération" in text


def test_the_player_page_follows_his_federation_ranking(client, league, played, club):
    _federation, fed_season, _neighbour, _seasons = league
    traveller = played["hosts"][0]
    path = reverse("player", args=[club.slug, traveller.pk])
    first, _ = page(client, path)
    assert f'href="{ranking_url(fed_season)}"' in first.content.decode()

    # The federation's ranking is recomputed without him (the night moved to another season).
    FederationRankingLine.objects.filter(player=traveller).delete()
    federation_pages_changed(fed_season.federation_id)

    again, _ = page(client, path, if_none_match=first["ETag"])
    assert again.status_code == 200
    assert f'href="{ranking_url(fed_season)}"' not in again.content.decode()


def test_the_player_page_costs_two_queries_more_at_most_and_as_many_for_any_number_of_lines(
    client, league, played, club
):
    _federation, fed_season, _neighbour, _seasons = league
    traveller = played["hosts"][0]
    path = reverse("player", args=[club.slug, traveller.pk])
    _, one_line = page(client, path)

    for year in (2023, 2024):
        old = federation_season_create(
            fed_season.federation,
            str(year),
            datetime.date(year, 1, 1),
            datetime.date(year, 12, 31),
        )
        ranking = FederationRanking.objects.create(
            season=old, computed_at=datetime.datetime.now(datetime.UTC)
        )
        FederationRankingLine.objects.create(
            ranking=ranking,
            player=traveller,
            rank=1,
            position=1,
            tournament_points=Fraction(5),
            game_points=3,
            tournaments_played=1,
            tournaments_counted=1,
        )
    _, three_lines = page(client, path)

    assert three_lines == one_line


def test_its_administrators_find_the_management_page_from_the_federation_and_nobody_else(
    client, league, club_admin
):
    federation, _fed_season, _neighbour, _seasons = league
    manage = f'href="{reverse("federation-admin", args=[federation.slug])}"'
    client.force_login(club_admin)
    assert manage not in client.get(federation_url(federation)).content.decode()

    federation_admin_add(federation, club_admin.player)

    # Made an administrator: the page he had seen is drawn again with his link.
    assert manage in client.get(federation_url(federation)).content.decode()


# A federation's ranking a page at a time: 100 lines a page, a search by name or club on the
# server whatever the case and the accents, the signed-in member's own line one link away, and
# the same queries for any page of any ranking.


@pytest.fixture
def long_ranking(league):
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


def test_any_page_of_any_ranking_takes_the_same_queries(client, league):
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
