"""The room screen's last deals: a setting of the room link (off by default). On, each table
of the round being played shows its last three deals, numbered, coded and told in words as on
its sheet (a pass without a number), its players named as the screen's reader may see them
(the private link: nobody, so initials where chosen); the screen reads them in the same number
of queries whatever the number of tables."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from club import services as club_services
from club.models import Player
from games import services
from games.models import Poule, Tournament
from games.presenters.sheet import deal_lines
from scoring import services as scoring_services
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def solo(seat: int, tricks: int = 7) -> dict:
    return {"contract": "solo", "bid": 6, "declarers": [str(seat)], "tricks": tricks}


PASS = {"contract": "pass"}


def room_url(night: Tournament) -> str:
    return reverse("games:room", args=[night.club.slug, night.pk])


def room_by_key(night: Tournament) -> str:
    club = club_services.room_key_renew(night.club)
    return reverse("room-by-key", args=[club.slug, club.room_key])


def show_last_deals(club, shown: bool = True) -> None:
    club_services.room_last_deals_set(club, shown)


def four_table(night: Tournament) -> Poule:
    return next(p for p in night.poules.all() if p.seats.count() == 4)


def test_the_room_screen_shows_no_deal_unless_the_club_asks(client, running_night, member):
    poule = four_table(running_night)
    scoring_services.deals_record(poule, [solo(1), solo(2)])
    client.force_login(member)
    assert "Dernières donnes" not in client.get(room_url(running_night)).content.decode()
    show_last_deals(running_night.club)
    assert "Dernières donnes" in client.get(room_url(running_night)).content.decode()


def test_each_table_shows_its_last_three_deals_as_its_sheet_does(client, running_night, member):
    show_last_deals(running_night.club)
    poule = four_table(running_night)
    scoring_services.deals_record(poule, [solo(1), solo(2), PASS, solo(3, 5), solo(4)])
    client.force_login(member)

    response = client.get(room_url(running_night))

    tables = response.context["last_deals"]
    assert sorted(t["table"] for t in tables) == sorted(
        p.table for p in running_night.poules.filter(round=1)
    )
    shown = next(t for t in tables if t["table"] == poule.table)["deals"]
    # The sheet's own lines: the pass has no number, the deals after it go on from 3.
    deals = list(poule.deals.all())
    names = {str(s.number): s.player.display_name for s in poule.seats.select_related("player")}
    sheet = deal_lines(
        "belgian_whist", poule.tournament.point_table.engine_table(), 4, deals, names
    )
    assert shown == sheet[-3:]
    assert [line.number for line in shown] == [None, 3, 4]
    html = response.content.decode()
    for line in shown:
        assert line.text in html and line.code in html
    other = next(t for t in tables if t["table"] != poule.table)
    assert other["deals"] == [] and "Aucune donne encore." in html


def test_the_private_links_screen_names_the_players_as_the_public_reads_them(
    client, running_night, member
):
    show_last_deals(running_night.club)
    poule = four_table(running_night)
    shy = poule.seats.get(number=1).player
    Player.objects.filter(pk=shy.pk).update(public_name=Player.PublicName.INITIALS)
    scoring_services.deals_record(poule, [solo(1)])

    projected = client.get(room_by_key(running_night)).content.decode()
    client.force_login(member)
    logged_in = client.get(room_url(running_night)).content.decode()

    assert f"Solo 6 — {shy.initials}" in projected and shy.display_name not in projected
    assert f"Solo 6 — {shy.display_name}" in logged_in


def test_the_room_screen_reads_its_deals_in_the_same_queries_for_2_or_4_tables(
    client, tonight, member, club
):
    show_last_deals(club)
    client.force_login(member)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(room_url(tonight)).status_code == 200
        return len(captured)

    def play(tables: int) -> None:
        players = PlayerFactory.create_batch(4 * tables, club=club)
        services.presence_set(tonight, players)
        scoring_services.round_draw(tonight, 1, seed=3)
        for poule in tonight.poules.filter(round=1):
            scoring_services.deals_record(poule, [solo(1), PASS, solo(2), solo(3), solo(4)])

    play(2)
    two = queries()
    Poule.objects.filter(tournament=tonight).delete()
    play(4)
    four = queries()
    assert len(client.get(room_url(tonight)).context["last_deals"]) == 4
    assert four == two
    # Two more than the screen without them: the tables' seats, their deals.
    show_last_deals(club, False)
    assert queries() == four - 2


def test_only_a_club_admin_turns_the_last_deals_on(client, club, club_admin, member, outsider):
    url = reverse("room-link", args=[club.slug])
    setting = {"setting": "last-deals", "last_deals": "1"}
    client.force_login(member)
    assert client.post(url, setting).status_code == 403
    client.force_login(outsider)
    assert client.post(url, setting).status_code == 404
    club.refresh_from_db()
    assert club.room_last_deals is False

    client.force_login(club_admin)
    answer = client.post(url, setting, follow=True)
    assert "montre les trois dernières donnes" in answer.content.decode()
    club.refresh_from_db()
    assert club.room_last_deals is True
    page = client.get(url).content.decode()
    assert 'name="last_deals" value="1" checked' in page
    assert page.count("Ce que l'écran montre") == 1
    client.post(url, {"setting": "last-deals"})
    club.refresh_from_db()
    assert club.room_last_deals is False
