"""The sheet model (games/presenters/sheet.py): one numbering of a poule's deals, read by the
phone's sheet, its history of removals and the results page alike."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.numbering import sheet_numbers
from games.presenters.sheet import short_names
from scoring import services as scoring_services

pytestmark = pytest.mark.django_db

EMBALLAGE = {"contract": "emballage", "bid": 8, "declarers": ["2", "4"], "tricks": 9}
SOLO = {"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 7}
PASS = {"contract": "pass"}


def test_a_pass_takes_no_number_and_the_next_deal_follows_the_last_numbered_one():
    deals = [(True, EMBALLAGE), (False, PASS), (False, PASS), (True, SOLO)]
    assert sheet_numbers("belgian_whist", deals) == [1, None, None, 2]


def test_a_classic_whist_deal_not_played_takes_no_number():
    deals = [(True, {"tricks": 7}), (True, {"not_played": True}), (True, {"tricks": 6})]
    assert sheet_numbers("whist", deals) == [1, None, 2]


def test_two_players_sharing_a_first_name_get_their_last_initial():
    assert short_names(["Anne Dubois", "Anne Martin", "Bruno Lemaire", "Zoé"]) == [
        ("Anne D.", "AD"),
        ("Anne M.", "AM"),
        ("Bruno", "BL"),
        ("Zoé", "Z"),
    ]


def test_whole_first_names_and_as_much_of_the_last_name_as_tells_namesakes_apart():
    names = ["Jean-Baptiste Claes", "Anne Dubois", "Anne Dupont", "Anne Janssens", "Maximilien"]
    assert [short for short, _initials in short_names(names)] == [
        "Jean-Baptiste",
        "Anne Dub.",
        "Anne Dup.",
        "Anne J.",
        "Maximilien",
    ]


def test_a_removed_deal_is_named_by_its_sheet_number_in_the_history(client, running_night, scorer):
    poule = min(running_night.poules.all(), key=lambda poule: poule.seats.count())
    recorded = scoring_services.deals_record(poule, [EMBALLAGE, PASS, SOLO, EMBALLAGE])
    scoring_services.deal_delete(recorded[2], by=scorer)  # the solo: "Donne 2" on the sheet
    scoring_services.deal_delete(recorded[1], by=scorer)  # the pass: no number
    client.force_login(scorer)
    club = running_night.club
    sheet = client.get(reverse("games:sheet", args=[club.slug, running_night.pk, poule.pk]))
    page = sheet.content.decode()
    removed = page[page.index('class="removed"') :] if 'class="removed"' in page else page
    assert re.search(r"<li>Donne 2 — [^<]*: Solo", removed), removed[:800]
    assert re.search(r"<li>Passe — ", removed)
    # The deals left are numbered as the results page numbers them.
    assert re.findall(r'<b class="n">([^<]+)</b>', page) == ["1", "2"]


def test_a_removed_deal_names_its_scorer_as_the_viewer_sees_him_never_his_login(
    client, running_night, scorer
):
    scorer.email = scorer.username = "marqueur.secret@example.org"
    scorer.save()
    scorer.player.display_name = "Marc Marqueur"
    scorer.player.save()
    poule = min(running_night.poules.all(), key=lambda poule: poule.seats.count())
    recorded = scoring_services.deals_record(poule, [EMBALLAGE, SOLO])
    scoring_services.deal_delete(recorded[1], by=scorer)
    client.force_login(scorer)
    club = running_night.club
    page = client.get(reverse("games:sheet", args=[club.slug, running_night.pk, poule.pk]))
    html = page.content.decode()
    assert re.search(r"<li>Donne 2 — [^<]*, Marc Marqueur", html)
    assert "marqueur.secret" not in html
