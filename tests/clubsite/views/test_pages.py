"""A club's page as its readers see it, and the point table as a page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubsite import pages
from tests.factories import SeasonFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def rules_page(club):
    return pages.page_create(
        club,
        {"title": "Règlement interne", "text": "## Horaires\n\n19 h 30", "members_only": True},
        None,
    )


def test_a_public_page_is_read_by_anybody_from_its_stored_html(client, club):
    pages.page_create(club, {"title": "Le club", "text": "Salle **du Manège**"}, None)
    response = client.get("/clubs/rcwhist/le-club/")
    assert response.status_code == 200
    assert "Salle <strong>du Manège</strong>" in response.content.decode()
    assert "Table des points" in response.content.decode()


def test_a_members_only_page_sends_a_visitor_to_log_in_and_back(client, club, rules_page):
    response = client.get("/clubs/rcwhist/reglement-interne/")
    assert response.status_code == 302
    assert response["Location"] == (reverse("login") + "?next=/clubs/rcwhist/reglement-interne/")


def test_a_members_only_page_is_read_by_a_member(client, club, rules_page, member):
    client.force_login(member)
    response = client.get("/clubs/rcwhist/reglement-interne/")
    assert response.status_code == 200 and "19 h 30" in response.content.decode()


def test_a_members_only_page_is_not_found_by_a_login_of_another_club(client, rules_page, outsider):
    client.force_login(outsider)
    assert client.get("/clubs/rcwhist/reglement-interne/").status_code == 404


def test_a_page_the_club_does_not_have_is_not_found(client, club):
    assert client.get("/clubs/rcwhist/nulle-part/").status_code == 404
    assert client.get("/clubs/inconnu/le-club/").status_code == 404


def test_the_club_apps_addresses_still_win_over_pages(client, club):
    assert client.get("/clubs/rcwhist/classement/").status_code in (200, 302)


def test_the_point_table_page_shows_the_seasons_grid_with_each_contract_linked_to_its_rule(
    client, club, django_assert_max_num_queries
):
    SeasonFactory(club=club, year=2025)
    pages.page_create(
        club,
        {"title": "Règles du jeu", "text": "## Emballage\n\n8 plis.\n\n## Petite misère"},
        None,
    )
    with django_assert_max_num_queries(8):
        response = client.get(reverse("point-table-page", args=["rcwhist"]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Table des points" in html
    assert 'href="/clubs/rcwhist/regles-du-jeu/#emballage">Emballage 8</a>' in html
    assert 'href="/clubs/rcwhist/regles-du-jeu/#petite-misere">Petite misère</a>' in html
    # A contract the rules page does not explain is named, not linked.
    assert ">Abondance 9</th>" in html


def test_the_point_table_page_without_rules_page_names_the_contracts(client, club):
    html = client.get(reverse("point-table-page", args=["rcwhist"])).content.decode()
    assert "regles-du-jeu" not in html
    assert ">Solo 6</th>" in html or "Solo" in html


def test_a_hearts_club_reads_its_few_values_by_name(client, club):
    club.default_rules = "coeurs"
    club.save()
    html = client.get(reverse("point-table-page", args=["rcwhist"])).content.decode()
    assert "<dt>La dame de pique</dt><dd>12</dd>" in html
    assert "<table" not in html


def test_a_page_written_in_english_says_so_to_the_browser(client, club):
    pages.page_create(club, {"title": "Our club", "language": "en"}, None)
    assert 'lang="en"' in client.get("/clubs/rcwhist/our-club/").content.decode()
