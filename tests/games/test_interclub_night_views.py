"""Inter-club nights in the club's pages: the new night's form offers its federation's season,
the night says it is an inter-club night, and its presence list holds the players of every club
of the federation, each with his club, ticked without joining the host club."""

from __future__ import annotations

import datetime
import re

import factory
import pytest
from django.urls import reverse

from club.models import Membership
from club.services import federation_open, federation_season_create
from games import services as games_services
from games.models import Tournament
from games.views.presence import SEARCH_LIMIT
from tests.conftest import NIGHT_DATE, persona
from tests.factories import ClubFactory, PlayerFactory, SeasonFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def neighbour(db):
    club = ClubFactory(name="Cercle voisin", slug="voisin")
    SeasonFactory(club=club, year=2024)
    return club


@pytest.fixture
def federation(club, neighbour):
    return federation_open("Ligue du Brabant", clubs=[club, neighbour])


@pytest.fixture
def this_year(federation):
    """A federation season that holds today (the form's default date)."""
    today = datetime.date.today()
    return federation_season_create(
        federation,
        "En cours",
        today - datetime.timedelta(days=30),
        today + datetime.timedelta(days=200),
    )


@pytest.fixture
def league_2024(federation):
    return federation_season_create(
        federation, "2024", datetime.date(2024, 1, 1), datetime.date(2024, 12, 31)
    )


@pytest.fixture
def interclub_night(club, season, point_table, league_2024):
    return games_services.tournament_create(
        club=club,
        season=season,
        date=NIGHT_DATE,
        game="belgian_whist",
        point_table=point_table,
        federation_season=league_2024,
    )


def night_form(club, **changes):
    data = {
        "date": datetime.date.today().isoformat(),
        "name": "",
        "rules": "rcwhist",
        "tournament_points": "rcwhist",
        "rounds": "3",
        "draw_method": "avoid_repeats",
    }
    return {**data, **changes}


def presence_url(night):
    return reverse("games:presence", args=[night.club.slug, night.pk])


# The new night's form


def test_the_new_night_form_offers_the_federations_season_and_defaults_to_a_club_night(
    client, club, scorer, this_year
):
    client.force_login(scorer)

    page = client.get(reverse("games:tournament-create", args=[club.slug])).content.decode()

    assert "Soirée inter-clubs de Ligue du Brabant En cours" in page
    assert '<option value="" selected>Non : une soirée du club</option>' in page


def test_a_club_of_no_federation_is_not_offered_an_interclub_night(client, club, scorer):
    client.force_login(scorer)

    page = client.get(reverse("games:tournament-create", args=[club.slug])).content.decode()

    assert "inter-clubs" not in page


def test_a_club_does_not_see_a_season_of_a_federation_it_is_not_in(client, scorer, this_year):
    outside = ClubFactory(name="Club d'ailleurs", slug="ailleurs")
    client.force_login(persona(outside, "ailleurs", Membership.Role.SCORER))

    page = client.get(reverse("games:tournament-create", args=[outside.slug])).content.decode()

    assert "inter-clubs" not in page


def test_the_scorer_creates_an_interclub_night_and_its_page_names_the_federation(
    client, club, scorer, this_year
):
    client.force_login(scorer)

    response = client.post(
        reverse("games:tournament-create", args=[club.slug]),
        night_form(club, federation_season=this_year.pk),
    )

    night = Tournament.objects.get(club=club)
    assert response.status_code == 302
    assert night.federation_season == this_year
    page = client.get(reverse("games:tournament", args=[club.slug, night.pk])).content.decode()
    assert "Soirée inter-clubs" in page
    assert "Ligue du Brabant" in page


def test_a_club_night_stays_a_club_night(client, club, scorer, this_year):
    client.force_login(scorer)

    client.post(reverse("games:tournament-create", args=[club.slug]), night_form(club))

    night = Tournament.objects.get(club=club)
    assert night.federation_season is None
    page = client.get(reverse("games:tournament", args=[club.slug, night.pk])).content.decode()
    assert "Soirée inter-clubs" not in page


def test_a_date_outside_the_federations_season_is_refused(client, club, scorer, this_year):
    client.force_login(scorer)
    late = this_year.end + datetime.timedelta(days=1)

    response = client.post(
        reverse("games:tournament-create", args=[club.slug]),
        night_form(club, date=late.isoformat(), federation_season=this_year.pk),
    )

    assert response.status_code == 200
    assert "la date n&#x27;y est pas" in response.content.decode()
    assert not Tournament.objects.exists()


def test_an_interclub_night_of_another_game_is_refused(client, club, scorer, this_year):
    client.force_login(scorer)

    response = client.post(
        reverse("games:tournament-create", args=[club.slug]),
        night_form(club, rules="hearts", federation_season=this_year.pk),
    )

    assert response.status_code == 200
    assert "Whist belge" in response.content.decode()
    assert not Tournament.objects.exists()


# Its presence list


def search_url(night, typed):
    return reverse("games:presence-search", args=[night.club.slug, night.pk]) + f"?q={typed}"


def test_the_presence_list_lists_the_host_club_and_finds_the_federations_players_on_the_server(
    client, club, neighbour, scorer, interclub_night
):
    host = PlayerFactory(display_name="Anne Hôte", club=club)
    visitor = PlayerFactory(display_name="Victor Visiteur", club=neighbour)
    stranger = PlayerFactory(display_name="Sam Étranger", club=ClubFactory(name="Hors ligue"))
    client.force_login(scorer)

    page = client.get(presence_url(interclub_night)).content.decode()

    assert "Soirée inter-clubs" in page
    # The host club's members are listed; the other clubs' players are searched, not sent.
    assert host.display_name in page and visitor.display_name not in page
    assert search_url(interclub_night, "")[: -len("?q=")] in page
    found = client.get(search_url(interclub_night, "VICTOR")).content.decode()
    assert 'data-name="victor visiteur cercle voisin"' in found
    assert f'{visitor.display_name} <small class="meta">Cercle voisin</small>' in found
    # Whatever the case and the accents; by his club's name too; nobody outside the league.
    assert (
        visitor.display_name in client.get(search_url(interclub_night, "visiteur")).content.decode()
    )
    assert (
        visitor.display_name
        in client.get(search_url(interclub_night, "cércle vois")).content.decode()
    )
    assert (
        stranger.display_name
        not in client.get(search_url(interclub_night, "etranger")).content.decode()
    )
    # The host's own members are on the page already: not offered twice.
    assert host.display_name not in client.get(search_url(interclub_night, "anne")).content.decode()
    # Without the script, the search reloads the page with what it found.
    page = client.get(presence_url(interclub_night) + "?q=victor").content.decode()
    assert f'value="{visitor.pk}"' in page


def test_the_search_finds_an_accented_name_typed_without_accents_and_at_most_a_short_list(
    client, neighbour, scorer, interclub_night
):
    chloe = PlayerFactory(display_name="Chloé Dæwoo-Lefèvre", club=neighbour)
    PlayerFactory.create_batch(
        30, club=neighbour, display_name=factory.Sequence(lambda n: f"Zoé {n}")
    )
    client.force_login(scorer)

    assert (
        chloe.display_name
        in client.get(search_url(interclub_night, "CHLOE lefevre")).content.decode()
    )
    assert chloe.display_name in client.get(search_url(interclub_night, "chloé")).content.decode()
    found = client.get(search_url(interclub_night, "zoe")).content.decode()
    assert found.count('name="present"') == SEARCH_LIMIT


def test_the_search_reads_the_same_queries_for_a_bigger_federation(
    client, club, neighbour, scorer, federation, interclub_night, django_assert_num_queries
):
    # Names that the search finds, whatever names the factory's sequence has reached: with no
    # candidate, the query for their clubs is never sent.
    for name in ("Anna Dubois", "Paul Martin", "Sarah Leroy"):
        PlayerFactory(club=neighbour, display_name=name)
    client.force_login(scorer)
    path = search_url(interclub_night, "a")
    client.get(path)
    # The session, the user, the night, his role, the night's clubs (their names matched
    # by the site's fold), the candidates, their clubs.
    with django_assert_num_queries(7) as first:
        client.get(path)
    for n in range(4):
        other = ClubFactory(name=f"Club {n}")
        federation.clubs.add(other)
        PlayerFactory.create_batch(5, club=other)
    with django_assert_num_queries(len(first.captured_queries)):
        client.get(path)


def test_a_visitor_ticked_present_does_not_join_the_host_club(
    client, club, neighbour, scorer, interclub_night
):
    hosts = PlayerFactory.create_batch(2, club=club)
    visitors = PlayerFactory.create_batch(2, club=neighbour)
    stranger = PlayerFactory(club=ClubFactory(name="Hors ligue"))
    client.force_login(scorer)

    response = client.post(
        presence_url(interclub_night),
        {"present": [p.pk for p in [*hosts, *visitors, stranger]]},
    )

    assert response.status_code == 302
    assert set(interclub_night.present.all()) == {*hosts, *visitors}
    assert not Membership.objects.filter(club=club, player__in=visitors).exists()
    page = client.get(presence_url(interclub_night)).content.decode()
    assert len(re.findall(r'name="present" value="\d+" checked', page)) == 4


def test_a_club_nights_presence_list_holds_its_own_club_only(
    client, club, neighbour, season, point_table, scorer, federation, league_2024
):
    night = games_services.tournament_create(
        club=club, season=season, date=NIGHT_DATE, game="belgian_whist", point_table=point_table
    )
    PlayerFactory(display_name="Victor Visiteur", club=neighbour)
    client.force_login(scorer)

    page = client.get(presence_url(night)).content.decode()

    assert "Victor Visiteur" not in page
    assert "Soirée inter-clubs" not in page


def test_a_guest_added_at_the_door_keeps_the_visitors_ticked(
    client, club, neighbour, scorer, interclub_night
):
    visitor = PlayerFactory(club=neighbour)
    client.force_login(scorer)

    client.post(
        reverse("games:player-add", args=[club.slug, interclub_night.pk]),
        {
            "presence_form": "1",
            "present": [visitor.pk],
            "display_name": "Invité Durand",
            "guest": "on",
        },
    )

    present = set(interclub_night.present.values_list("display_name", flat=True))
    assert present == {visitor.display_name, "Invité Durand"}


def test_the_presence_list_reads_the_same_queries_for_a_bigger_federation(
    client, club, neighbour, scorer, federation, interclub_night, django_assert_num_queries
):
    PlayerFactory.create_batch(3, club=club)
    PlayerFactory.create_batch(3, club=neighbour)
    client.force_login(scorer)
    path = presence_url(interclub_night)
    client.get(path)
    with django_assert_num_queries(8) as first:
        client.get(path)

    for n in range(4):
        other = ClubFactory(name=f"Club {n}")
        federation.clubs.add(other)
        PlayerFactory.create_batch(5, club=other)
    # A player of two clubs of the federation is listed once, with both.
    both = PlayerFactory(display_name="Double Appartenance", club=neighbour)
    Membership.objects.create(player=both, club=club, start=datetime.date(2024, 1, 1))

    with django_assert_num_queries(len(first.captured_queries)):
        page = client.get(path).content.decode()
    assert page.count("Double Appartenance") == 1
    assert "Cercle voisin, RCWhist La Chevalerie" in page


@pytest.mark.parametrize("who", ["visiting_admin", "member"])
def test_the_visiting_clubs_admin_and_a_member_cannot_tick_the_presence(
    client, club, neighbour, request, interclub_night, who
):
    """The host club's scorers run its night; a visiting club's admin is no scorer of it."""
    if who == "visiting_admin":
        user = persona(neighbour, "voisin-admin", Membership.Role.ADMIN)
        expected = 404
    else:
        user = request.getfixturevalue("member")
        expected = 403
    visitor = PlayerFactory(club=neighbour)
    client.force_login(user)

    assert client.get(presence_url(interclub_night)).status_code == expected
    assert client.post(presence_url(interclub_night), {"present": [visitor.pk]}).status_code == (
        expected
    )
    assert not interclub_night.present.exists()


def test_a_visitor_is_sent_to_the_login_page(client, interclub_night):
    response = client.get(presence_url(interclub_night))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
