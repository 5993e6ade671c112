"""No dead ends: an address that answers a button, reached by a link or typed in, answers the
site's page with the way back (not a blank 405); the API keeps its JSON."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", ["close", "publish", "reopen"])
def test_a_get_of_a_nights_button_address_answers_a_page_back_to_the_night(
    client, running_night, club_admin, name
):
    client.force_login(club_admin)
    club = running_night.club
    response = client.get(reverse(f"games:{name}", args=[club.slug, running_night.pk]))
    assert response.status_code == 405
    assert "POST" in response["Allow"]
    page = response.content.decode()
    assert "Cette adresse répond à un bouton" in page
    assert reverse("games:tournament", args=[club.slug, running_night.pk]) in page


def test_the_undo_address_by_get_says_so_in_english_too(client, running_night, scorer):
    client.force_login(scorer)
    poule = running_night.poules.first()
    club = running_night.club
    response = client.get(
        reverse("games:sheet-undo", args=[club.slug, running_night.pk, poule.pk]),
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 405
    assert "<html" in response.content.decode()


def test_the_api_keeps_its_json_405(client, club):
    response = client.delete(f"/api/v1/clubs/{club.slug}/")
    assert response.status_code == 405
    assert response["Content-Type"].startswith("application/json")
