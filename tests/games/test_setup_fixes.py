"""A night's set-up as a new user meets it: the date field filled in every language, ticks kept
when a guest is added, an unnamed night called "Soirée du …" everywhere, point tables by their
label, the room screen within a member's reach and without the site's menu."""

from __future__ import annotations

import datetime
import io
import re

import openpyxl
import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from club.models import Club
from games.labels import POINT_TABLE_LABELS
from games.models import Tournament
from scoring import services as scoring_services
from scoring.engine.tables import PRESET_GAME

pytestmark = pytest.mark.django_db

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
    assert 'class="site-header"' not in page
    assert "room-standings" in page


def test_other_pages_keep_the_site_menu(client, club):
    assert (
        'class="site-nav"' in client.get(reverse("club-detail", args=[club.slug])).content.decode()
    )


def test_a_club_unknown_to_the_reader_keeps_its_night_private(client, running_night, outsider):
    client.force_login(outsider)
    assert client.get(url("tournament", running_night)).status_code == 404
    assert Club.objects.count() >= 2
