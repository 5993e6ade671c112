"""A player's public page: season totals from the published rankings, and the published nights
he played, season by season, under his public name and with nothing private."""

from __future__ import annotations

import datetime
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from club.models import Player
from scoring.services import ranking_publish, season_ranking_update, tournament_publish
from tests.club.views.test_rankings import closed_night
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, SeasonFactory

pytestmark = pytest.mark.django_db

# The club, the player, the club's seasons (each knowing whether he played it), his nights of
# the chosen season, his lines in the published rankings, his « cote » after each night, his
# clubs (with their federations' stamps) and his lines in the federations' rankings.
PLAYER_PAGE_QUERIES = 8
# A 1×1 transparent GIF: the smallest photo a member could upload.
GIF = (
    b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00"
    b",\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"
)


def table_rows(page, css_class):
    """The text of each cell of each body row of the table with ``css_class``."""
    table = page.split(f'<table class="results {css_class}">')[1].split("</table>")[0]
    body = table.split("<tbody>")[1]
    return [
        [
            " ".join(re.sub(r"<[^>]+>|&nbsp;", " ", cell).split())
            for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        ]
        for row in body.split("</tr>")[:-1]
    ]


def published_night(season, players, day, name=None):
    return tournament_publish(closed_night(season, players, day, name))


def player_url(player, club):
    return reverse("player", args=[club.slug, player.pk])


@pytest.fixture
def anne(club):
    return PlayerFactory(
        first_name="Anne",
        last_name="Dupont",
        display_name="Anne Dupont",
        email="anne.dupont@example.org",
        phone="0475 12 34 56",
        club=club,
    )


@pytest.fixture
def table(club, anne):
    """Anne at seat 1 (she wins) with three more members."""
    return [anne, *PlayerFactory.create_batch(3, club=club)]


def test_the_player_page_shows_his_name_season_totals_and_nights(client, club, season, table):
    anne = table[0]
    first = published_night(season, table, day=10, name="Soirée de janvier")
    published_night(season, [*table[1:], anne], day=40, name="Soirée de février")
    ranking_publish(season)

    response = client.get(player_url(anne, club))

    assert response.status_code == 200
    page = response.content.decode()
    assert "<h1>Anne Dupont</h1>" in page
    # 5 + 0 tournament points, 9 − 3 game points, two nights played and counted, one won: the
    # same as the player who won the other night, hence tied first.
    assert table_rows(page, "totals") == [["2024", "1 =", "5", "6", "2", "2", "1"]]
    assert f'href="{reverse("ranking-season", args=[club.slug, "2024"])}"' in page
    assert "Soirées 2024" in page
    # Newest first: rank, tournament points, game points, poules won / played.
    assert table_rows(page, "history-table") == [
        ["10/02/2024", "Soirée de février", "2 =", "0", "-3", "0/1"],
        ["11/01/2024", "Soirée de janvier", "1", "5", "9", "1/1"],
    ]
    assert f'href="{reverse("games:results", args=[club.slug, first.pk])}"' in page


def test_only_published_nights_are_in_his_history(client, club, season, table):
    published_night(season, table, day=10, name="Soirée publiée")
    closed_night(season, table, day=20, name="Soirée seulement clôturée")

    page = client.get(player_url(table[0], club)).content.decode()

    assert "Soirée publiée" in page
    assert "Soirée seulement clôturée" not in page


def test_season_totals_come_from_published_rankings_only(client, club, season, table):
    published_night(season, table, day=10)
    season_ranking_update(season)

    page = client.get(player_url(table[0], club)).content.decode()

    assert "Pas encore dans un classement publié." in page


def test_the_latest_publication_gives_the_season_totals(client, club, season, table):
    published_night(season, table, day=10)
    ranking_publish(season)
    published_night(season, table, day=20)
    ranking_publish(season)

    page = client.get(player_url(table[0], club)).content.decode()

    [(season_name, rank, points, game_points, played, counted, won)] = table_rows(page, "totals")
    assert (season_name, played, points) == ("2024", "2", "10")


def test_his_history_opens_on_the_latest_season_he_played_unless_another_is_chosen(
    client, club, table
):
    season_2023 = SeasonFactory(club=club, year=2023)
    season_2024 = SeasonFactory(club=club, year=2024)
    SeasonFactory(club=club, year=2025)
    published_night(season_2023, table, day=10, name="Soirée 2023")
    published_night(season_2024, table, day=10, name="Soirée 2024")
    url = player_url(table[0], club)

    latest = client.get(url).content.decode()
    chosen = client.get(url, {"saison": "2023"}).content.decode()

    assert "Soirée 2024" in latest
    assert "Soirée 2023" not in latest
    assert "Soirée 2023" in chosen
    assert "Soirée 2024" not in chosen
    # Only the seasons he played are offered.
    assert 'href="?saison=2023"' in latest
    assert 'href="?saison=2024"' in latest
    assert 'href="?saison=2025"' not in latest


def test_an_htmx_request_gets_only_the_history(client, club, table):
    for year in (2023, 2024):
        published_night(SeasonFactory(club=club, year=year), table, day=10, name=f"Soirée {year}")

    response = client.get(
        player_url(table[0], club), {"saison": "2023"}, headers={"HX-Request": "true"}
    )

    page = response.content.decode().strip()
    assert page.startswith('<section id="history"')
    assert page.endswith("</section>")
    assert "<h1>" not in page
    assert "Soirée 2023" in page


def test_a_player_who_has_not_played_yet_has_an_empty_page(client, club, anne):
    response = client.get(player_url(anne, club))

    assert response.status_code == 200
    page = response.content.decode()
    assert "Pas encore dans un classement publié." in page
    assert "Aucune soirée publiée pour cette saison." in page


def test_a_former_member_keeps_his_page(client, club):
    former = PlayerFactory(display_name="Albert Masson")
    MembershipFactory(
        club=club,
        player=former,
        start=datetime.date(2010, 1, 1),
        end=datetime.date(2024, 6, 30),
    )

    assert client.get(player_url(former, club)).status_code == 200


def test_a_player_who_never_belonged_to_the_club_is_not_found(client, club, outsider):
    stranger = outsider.player

    assert client.get(player_url(stranger, club)).status_code == 404
    assert client.get(reverse("player", args=[club.slug, 999_999])).status_code == 404
    other = ClubFactory(name="Whist Club de Namur")
    assert client.get(player_url(stranger, other)).status_code == 200


@pytest.mark.parametrize("persona", [None, "outsider", "member", "scorer", "club_admin"])
def test_the_player_page_shows_nothing_private_to_anybody(
    client, request, club, season, table, persona
):
    published_night(season, table, day=10)
    ranking_publish(season)
    if persona:
        client.force_login(request.getfixturevalue(persona))

    page = client.get(player_url(table[0], club)).content.decode()

    assert "Anne Dupont" in page
    assert "anne.dupont@example.org" not in page
    assert "0475" not in page


def test_a_player_who_chose_initials_appears_nowhere_under_his_full_name(
    client, club, season, table
):
    shy = table[0]
    shy.public_name = Player.PublicName.INITIALS
    shy.photo = SimpleUploadedFile("anne.gif", GIF, content_type="image/gif")
    shy.save()
    published_night(season, table, day=10, name="Soirée de janvier")
    ranking_publish(season)

    page = client.get(player_url(shy, club)).content.decode()

    assert "<h1>A.D.</h1>" in page
    assert "<title>A.D. – RCWhist La Chevalerie</title>" in page
    assert "Soirée de janvier" in page
    assert "Anne" not in page
    assert "Dupont" not in page
    assert "<img" not in page


def test_the_photo_is_shown_for_a_player_under_his_full_name(client, club, anne):
    anne.photo = SimpleUploadedFile("anne.gif", GIF, content_type="image/gif")
    anne.save()

    page = client.get(player_url(anne, club)).content.decode()

    assert f'<img class="player-photo" src="{anne.photo.url}" alt="Anne Dupont"' in page


@pytest.mark.parametrize("seasons, tournaments", [(1, 2), (3, 6)])
def test_the_player_page_needs_as_many_queries_for_3_seasons_of_6_nights_as_for_1_of_2(
    client, club, table, seasons, tournaments, django_assert_num_queries
):
    for year in range(2024 - seasons + 1, 2025):
        season = SeasonFactory(club=club, year=year)
        for day in range(tournaments):
            published_night(season, table, day=7 * day)
        ranking_publish(season)

    with django_assert_num_queries(PLAYER_PAGE_QUERIES):
        page = client.get(player_url(table[0], club)).content.decode()

    assert len(table_rows(page, "totals")) == seasons
    assert len(table_rows(page, "history-table")) == tournaments
