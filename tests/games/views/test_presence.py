"""Inter-club nights in the club's pages: the new night's form offers its federation's season,
the night says it is an inter-club night, and its presence list holds the players of every club
of the federation, each with his club, ticked without joining the host club."""

from __future__ import annotations

import datetime
import io
import re

import factory
import openpyxl
import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from club.models import Club, Membership
from club.services import federation_open, federation_season_create
from games import services as games_services
from games.labels import POINT_TABLE_LABELS
from games.models import Tournament
from games.views.presence import SEARCH_LIMIT
from scoring import services as scoring_services
from scoring.engine.tables import PRESET_GAME
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


# A night's set-up as a new user meets it: the date field filled in every language, ticks kept
# when a guest is added, an unnamed night called "Soirée du …" everywhere, point tables by their
# label, the room screen within a member's reach and without the site's menu.


EMBALLAGE = {"contract": "emballage", "bid": 8, "declarers": ["2", "4"], "tricks": 9}


def url(name: str, tournament: Tournament, **kwargs) -> str:
    return reverse(
        f"games:{name}", kwargs={"slug": tournament.club.slug, "pk": tournament.pk, **kwargs}
    )


# --------------------------------------------------------------------------------------------
# The date of a new night


@pytest.mark.parametrize("language", ["fr", "en", "nl"])
def test_the_new_night_form_sends_todays_date_as_iso_in_every_language(
    client, club, scorer, language
):
    client.force_login(scorer)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language

    page = client.get(reverse("games:tournament-create", args=[club.slug])).content.decode()

    field = re.search(r'<input type="date" name="date"[^>]*>', page).group(0)
    assert f'value="{datetime.date.today().isoformat()}"' in field
    assert f'<html lang="{language}"' in page


@pytest.mark.parametrize("language", ["fr", "nl"])
def test_a_night_created_with_an_iso_date_in_any_language(client, club, season, scorer, language):
    client.force_login(scorer)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.post(
        reverse("games:tournament-create", args=[club.slug]),
        {
            "date": "2024-03-21",
            "name": "",
            "rules": "rcwhist",
            "tournament_points": "rcwhist",
            "rounds": "3",
            "draw_method": "avoid_repeats",
        },
    )

    assert response.status_code == 302
    assert Tournament.objects.get().date == datetime.date(2024, 3, 21)


# --------------------------------------------------------------------------------------------
# An unnamed night


def test_an_unnamed_night_is_called_by_its_date_in_the_readers_language(tonight):
    assert tonight.name == ""
    with translation.override("fr"):
        assert str(tonight) == "Soirée du 14 mars 2024"
    with translation.override("en"):
        assert "14 March 2024" in str(tonight)
    tonight.name = "Tournoi de Pâques"
    assert str(tonight) == "Tournoi de Pâques"


def test_every_page_of_an_unnamed_night_says_soiree_du(
    client, running_night, scorer, member, club_admin
):
    poule = running_night.poules.first()
    scoring_services.deal_record(poule, EMBALLAGE)
    title = "Soirée du 14 mars 2024"

    client.force_login(scorer)
    for path in (
        reverse("club-detail", args=[running_night.club.slug]),
        url("tournament", running_night),
        url("room", running_night),
        url("presence", running_night),
        url("seating", running_night, round=1),
        url("sheet", running_night, poule_pk=poule.pk),
    ):
        page = client.get(path).content.decode()
        assert title in page, path
    page = client.get(reverse("club-detail", args=[running_night.club.slug])).content.decode()
    assert ">—<" not in page.split("<tbody>")[1].split("</td>")[1]
    client.force_login(member)
    assert title in client.get(url("tournament", running_night)).content.decode()

    scoring_services.tournament_close(running_night, unfinished_ok=True)
    scoring_services.tournament_publish(running_night)
    client.logout()
    assert title in client.get(url("results", running_night)).content.decode()
    seated = poule.seats.first().player
    assert (
        title
        in client.get(reverse("player", args=[running_night.club.slug, seated.pk])).content.decode()
    )


def test_the_excel_export_of_an_unnamed_night_is_titled_by_its_date(client, running_night, scorer):
    scoring_services.deal_record(running_night.poules.first(), EMBALLAGE)
    client.force_login(scorer)

    response = client.get(url("results-export", running_night, fmt="xlsx"))

    workbook = openpyxl.load_workbook(io.BytesIO(response.content))
    assert workbook.active.title == "Soirée du 14 mars 2024"


# --------------------------------------------------------------------------------------------
# Point tables by their label


def test_the_new_night_form_lists_point_tables_by_label(client, club, scorer):
    client.force_login(scorer)

    page = client.get(reverse("games:tournament-create", args=[club.slug])).content.decode()

    for name in PRESET_GAME:
        assert f'value="{name}"' in page
        assert f">{name}<" not in page
    assert "Bésigue à trois ou Trifouille (en 2 000 points)" in page
    assert "RCWhist La Chevalerie (tableau des clubs wallons)" in page


def test_every_preset_has_its_label_and_the_label_of_its_file():
    assert set(POINT_TABLE_LABELS) == set(PRESET_GAME)


def test_the_night_page_names_its_point_table_by_label(client, running_night, scorer):
    client.force_login(scorer)

    page = client.get(url("tournament", running_night)).content.decode()

    assert "RCWhist La Chevalerie (tableau des clubs wallons)" in page
    assert running_night.point_table.title in page


def test_the_admin_names_a_clubs_point_table_by_label(client, club, superuser):
    client.force_login(superuser)

    listing = client.get(reverse("admin:club_club_changelist")).content.decode()
    change = client.get(reverse("admin:club_club_change", args=[club.pk])).content.decode()

    assert "RCWhist La Chevalerie (tableau des clubs wallons)" in listing
    assert ">rcwhist<" not in change
    assert "Bésigue chinois (six paquets)" in change


# --------------------------------------------------------------------------------------------
# Presence: a guest added keeps the ticks


def test_adding_a_guest_keeps_the_players_ticked_so_far(client, tonight, club_members, scorer):
    client.force_login(scorer)
    ticked = [str(p.pk) for p in club_members[:8]]

    response = client.post(
        url("player-add", tonight),
        {"presence_form": "1", "present": ticked, "display_name": "Invité Durand", "guest": "on"},
    )

    assert response.status_code == 302
    present = set(tonight.present.values_list("display_name", flat=True))
    assert present == {p.display_name for p in club_members[:8]} | {"Invité Durand"}
    page = client.get(url("presence", tonight)).content.decode()
    assert page.count(" checked>") >= 9


def test_a_guest_without_a_name_is_refused_and_the_ticks_stay_on_the_page(
    client, tonight, club_members, scorer
):
    client.force_login(scorer)
    ticked = [str(p.pk) for p in club_members[:8]]

    response = client.post(
        url("player-add", tonight),
        {"presence_form": "1", "present": ticked, "display_name": "  ", "guest": "on"},
    )

    assert response.status_code == 200
    assert not tonight.present.exists()  # nothing half-written
    page = response.content.decode()
    for pk in ticked:
        assert f'value="{pk}" checked' in page


def test_the_presence_page_is_one_form_with_the_guest_button(client, tonight, scorer):
    client.force_login(scorer)

    page = client.get(url("presence", tonight)).content.decode()

    assert page.count('<form method="post" class="stack"') == 1
    assert f'formaction="{url("player-add", tonight)}"' in page


# --------------------------------------------------------------------------------------------
# The room screen: for members, without the site's menu


def test_a_member_sees_the_night_page_with_the_room_link_and_his_table(
    client, running_night, member, club
):
    player = member.player
    poule = running_night.poules.filter(round=1).first()
    # The member sits at a table of round 1 in place of one of the drawn players.
    seat = poule.seats.order_by("number").first()
    seat.player = player
    seat.save()
    client.force_login(member)

    response = client.get(url("tournament", running_night))

    assert response.status_code == 200
    page = response.content.decode()
    assert url("room", running_night) in page
    assert f"Tour 1 : table {poule.table}" in page
    assert url("sheet", running_night, poule_pk=poule.pk) not in page
    assert url("close", running_night) not in page


def test_the_club_page_links_a_member_to_the_room_screen_of_a_running_night(
    client, running_night, member, club
):
    client.force_login(member)
    page = client.get(reverse("club-detail", args=[club.slug])).content.decode()
    assert url("room", running_night) in page

    client.logout()
    page = client.get(reverse("club-detail", args=[club.slug])).content.decode()
    assert url("room", running_night) not in page


def test_the_room_screen_has_no_site_menu(client, running_night, member):
    client.force_login(member)

    page = client.get(url("room", running_night)).content.decode()

    assert 'class="site-nav"' not in page
    assert 'class="site-header' not in page
    assert "room-standings" in page


def test_other_pages_keep_the_site_menu(client, club):
    assert (
        'class="site-nav"' in client.get(reverse("club-detail", args=[club.slug])).content.decode()
    )


def test_a_club_unknown_to_the_reader_keeps_its_night_private(client, running_night, outsider):
    client.force_login(outsider)
    assert client.get(url("tournament", running_night)).status_code == 404
    assert Club.objects.count() >= 2
