"""A NUL character in an address's query — a search box, any parameter's name or value — is
refused once for the whole site, before any view reads it: 400 in words, the site's page or the
API's ``detail`` and ``problems`` (PostgreSQL refuses NUL in text: the federation's
administrator search was a 500 there). CI runs this file on PostgreSQL too."""

from __future__ import annotations

import pytest
from django.urls import reverse

from club.models import FederationAdmin
from club.services import federation_open

pytestmark = pytest.mark.django_db

REFUSED = "Le caractère nul n’est pas autorisé dans l’adresse"
API = "/api/v1"


@pytest.fixture
def signed_in(client, club, club_admin, member, running_night):
    """The club's admin, who also runs a federation: he may open every page below."""
    federation = federation_open("Ligue du Brabant", clubs=[club])
    FederationAdmin.objects.create(federation=federation, player=club_admin.player)
    client.force_login(club_admin)
    return client


def pages(club, club_admin, member, night, federation_slug):
    """Every GET page that reads a search or a query parameter, with that parameter."""
    slug, own, other = club.slug, club_admin.player.pk, member.player.pk
    return [
        (reverse("members", args=[slug]), "q"),
        (reverse("members", args=[slug]), "filtre"),
        (reverse("member-merge", args=[slug, own]), "q"),
        (reverse("member-merge-propose", args=[slug, own, other]), "garder"),
        (reverse("federation-admin", args=[federation_slug]), "q"),
        (reverse("club-detail", args=[slug]), "saison"),
        (reverse("club-detail", args=[slug]), "season"),
        (reverse("player", args=[slug, other]), "saison"),
        (reverse("player-statistics", args=[slug, other]), "saison"),
        (reverse("ratings", args=[slug]), "jeu"),
        (reverse("my-results"), "saison"),
        (reverse("point-table-compare", args=[slug, night.point_table.name]), "a"),
        (reverse("games:blank-sheets", args=[slug, night.pk]), "format"),
        (reverse("games:blank-sheets", args=[slug, night.pk]), "tables"),
        (reverse("login"), "next"),
        (f"{API}/clubs/", "page"),
        (f"{API}/clubs/{slug}/nights/", "season"),
        (f"{API}/clubs/{slug}/nights/", "date"),
        (f"{API}/clubs/{slug}/nights/", "game"),
        (f"{API}/clubs/{slug}/players/", "page_size"),
        (f"{API}/clubs/{slug}/ratings/", "game"),
        (f"{API}/me/results/", "season"),
        (f"{API}/me/results/", "club"),
    ]


def test_every_search_and_query_parameter_with_a_nul_is_refused_in_words(
    signed_in, club, club_admin, member, running_night
):
    federation = FederationAdmin.objects.get().federation
    signed_in.raise_request_exception = False  # a 500 is listed with the others
    refused = []
    for path, name in pages(club, club_admin, member, running_night, federation.slug):
        response = signed_in.get(path, {name: "Anne\x00"})
        said = response.content.decode()
        if response.status_code != 400 or f"{REFUSED} : le paramètre « {name} »" not in said:
            refused.append((path, name, response.status_code))

    assert refused == []


def test_the_page_says_it_in_the_sites_layout_with_a_way_back(signed_in, club):
    response = signed_in.get(reverse("members", args=[club.slug]), {"q": "\x00"})

    assert response.status_code == 400
    assert "Demande refusée" in response.text
    assert f'href="{reverse("home")}"' in response.text
    assert response["Content-Language"] == "fr"


def test_the_api_says_it_with_the_parameter_as_the_place(signed_in, club):
    response = signed_in.get(f"{API}/clubs/{club.slug}/nights/", {"season": "2025\x00"})

    assert response.status_code == 400
    assert response.json()["problems"] == [
        {
            "code": "nul_character",
            "place": "season",
            "message": f"{REFUSED} : le paramètre « season » en contient un.",
        }
    ]


def test_a_parameters_name_with_a_nul_is_refused_too(client, club):
    response = client.get(f"/clubs/{club.slug}/?sai%00son=2025")

    assert response.status_code == 400
    assert "le paramètre « sai\u2400son »" in response.text


@pytest.mark.parametrize(
    "path", ["/compte/invitation/%00/", "/clubs/rcwhist/salle/%00/", "/api/v1/clubs/a%00b/"]
)
def test_a_path_with_a_nul_is_not_found(client, club, path):
    # The URL converters' answer: no slug nor number holds a NUL, and a link's token is
    # hashed before it is looked up (no NUL reaches the database).
    assert client.get(path).status_code == 404


def test_a_form_sent_with_a_nul_in_its_address_is_refused_before_it_is_read(signed_in, club):
    response = signed_in.post(
        reverse("member-add", args=[club.slug]) + "?next=%00", {"display_name": "Anne"}
    )

    assert response.status_code == 400
