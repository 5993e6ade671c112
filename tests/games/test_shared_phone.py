"""A phone passed from one scorer to another (games/views/sheet.py): each deal the phone's
script sends names the login it was typed under (the page's login stamp, infra/login_stamp.py),
and a deal sent under another login is refused in words (403), never recorded under the
wrong name. The script's side (set aside, cleared at logout) is tests/e2e/test_offline.py's."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from club.models import Membership
from games.dealforms import deal_post
from tests.conftest import persona
from tests.factories import ClubFactory
from tests.games.test_phone_sheet import SOLO, post_deal, table_of, url

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def stamp_of(client: Client, poule) -> str:
    return client.get(url("sheet", poule.tournament, poule_pk=poule.pk))["X-Viewer"]


@pytest.fixture
def other_scorer(club):
    return persona(club, "deuxieme-marqueur", Membership.Role.SCORER)


def test_the_sheet_names_its_viewer_on_the_sheet_and_in_the_deal_form(running_night, scorer):
    poule = table_of(running_night, 4)
    response = signed_in(scorer).get(url("sheet", running_night, poule_pk=poule.pk))
    page = response.content.decode()
    stamp = response["X-Viewer"]
    assert re.search(r'<div id="sheet"[^>]* data-viewer="' + stamp + '"', page)
    assert f'<input type="hidden" name="viewer" value="{stamp}">' in page
    assert f'data-viewer="{stamp}"' in page.split("<body", 1)[1].split(">", 1)[0]


def test_a_deal_typed_under_another_login_is_refused_in_words_and_not_recorded(
    running_night, scorer, other_scorer
):
    poule = table_of(running_night, 4)
    first = stamp_of(signed_in(scorer), poule)
    second = signed_in(other_scorer)

    response = post_deal(
        second,
        poule,
        SOLO,
        client_key="6f1d0c2e-9c1b-4c53-9a51-0c1f2b3d4e5f",
        seen="0",
        viewer=first,
    )

    assert (response.status_code, response["X-Sheet-Result"]) == (403, "other-login")
    page = response.content.decode()
    assert "notée sous une autre connexion que la vôtre" in page
    # The sheet as it is for the login that sent it: his viewer, his (blank) form.
    assert f'data-viewer="{stamp_of(second, poule)}"' in page
    assert 'name="viewer"' in page
    assert poule.deals.count() == 0


def test_a_form_of_another_login_posted_without_the_script_is_refused_too(
    running_night, scorer, other_scorer
):
    poule = table_of(running_night, 4)
    first = stamp_of(signed_in(scorer), poule)

    response = signed_in(other_scorer).post(
        url("sheet", running_night, poule_pk=poule.pk),
        {**deal_post(poule, SOLO), "viewer": first},
    )

    assert response.status_code == 403
    assert "notée sous une autre connexion que la vôtre" in response.content.decode()
    assert poule.deals.count() == 0


def test_a_deal_sent_under_the_login_that_typed_it_is_recorded_by_him(
    running_night, scorer, other_scorer
):
    poule = table_of(running_night, 4)
    second = signed_in(other_scorer)

    response = post_deal(second, poule, SOLO, seen="0", viewer=stamp_of(second, poule))
    # A page of before the stamp (no viewer named) is the sending login's, as it was.
    older = post_deal(second, poule, SOLO, seen="1")

    assert response["X-Sheet-Result"] == "recorded"
    assert older["X-Sheet-Result"] == "recorded"
    assert list(poule.deals.values_list("recorded_by", flat=True)) == [other_scorer.pk] * 2


def test_a_deal_of_another_login_shows_no_sheet_to_a_member_of_another_club(running_night):
    # The refusal draws the sheet for this login: only for whom may read it.
    stranger = persona(ClubFactory(slug="autre-club"), "etranger", Membership.Role.SCORER)
    poule = table_of(running_night, 4)
    names = [seat.player.display_name for seat in poule.seats.select_related("player")]

    response = post_deal(signed_in(stranger), poule, SOLO, viewer="un-autre-telephone")

    assert response.status_code in (403, 404)
    assert not any(name in response.content.decode() for name in names)
    assert not poule.deals.exists()
