"""What no name holds (a NUL character) typed in a page's free-text field is refused in words by
a form field, never sent to the database (PostgreSQL refuses NUL in text: a 500 before); typed
in a search box, it is in the address, refused before any page reads it
(``tests/club/test_nul_in_address.py``)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from club.models import ApiToken, Player
from games.models import Tournament

pytestmark = pytest.mark.django_db


def test_a_members_search_with_a_nul_is_refused_and_says_why(client, club, club_admin):
    client.force_login(club_admin)
    response = client.get(reverse("members", args=[club.slug]), {"q": "Anne\x00"})
    assert response.status_code == 400
    assert "Le caractère nul n’est pas autorisé dans l’adresse" in response.text


def test_an_api_keys_name_with_a_nul_is_refused_and_no_key_is_made(client, member):
    client.force_login(member)
    response = client.post(reverse("api-tokens"), {"name": "outil\x00"})
    assert response.status_code == 400  # said on the page, as any refused name
    assert "Le caractère nul n’est pas autorisé." in response.text
    assert not ApiToken.objects.exists()


def test_a_guests_name_with_a_nul_is_refused_on_the_presence_page(
    client, running_night: Tournament, scorer
):
    client.force_login(scorer)
    before = Player.objects.count()
    response = client.post(
        reverse("games:player-add", args=[running_night.club.slug, running_night.pk]),
        {"display_name": "Invité\x00 Dubois", "guest": "on"},
        follow=True,
    )
    assert response.status_code == 200
    assert "caractère invisible" in response.text
    assert Player.objects.count() == before
