"""A club's pages managed by its admins: written, changed, their history and an earlier version
put back, deleted; every other role refused."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubsite import pages
from clubsite.models import Page
from tests.conftest import persona
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def page(club, club_admin):
    return pages.page_create(club, {"title": "Le club", "text": "Jeudi"}, club_admin)


def form(**changes):
    data = {"title": "Le club", "slug": "", "language": "", "position": "1", "text": "Jeudi"}
    return {**data, **changes}


def test_the_list_of_pages_asks_a_fixed_number_of_queries(
    client, club, club_admin, django_assert_num_queries
):
    for n in range(12):
        pages.page_create(club, {"title": f"Page {n}"}, club_admin)
    client.force_login(club_admin)
    url = reverse("site-pages", args=["rcwhist"])
    client.get(url)
    # The session, the user, the club, the admin's role, the pages.
    with django_assert_num_queries(5):
        response = client.get(url)
    assert response.content.decode().count("/historique/") == 12


def test_an_admin_writes_a_page_from_the_form(client, club, club_admin):
    client.force_login(club_admin)
    response = client.post(
        reverse("site-page-add", args=["rcwhist"]),
        form(title="Règlement interne", text="1. Silence", members_only="on"),
    )
    page = Page.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("site-page-edit", args=["rcwhist", page.pk])
    assert (page.slug, page.members_only, page.html) == (
        "reglement-interne",
        True,
        "<ol>\n<li>Silence</li>\n</ol>\n",
    )


def test_a_reserved_address_is_refused_on_the_form_in_words(client, club, club_admin):
    client.force_login(club_admin)
    response = client.post(reverse("site-page-add", args=["rcwhist"]), form(slug="gestion"))
    assert response.status_code == 200
    assert "celle d&#x27;une page du site" in response.content.decode()
    assert not Page.objects.exists()


def test_a_text_past_the_cap_is_refused_on_the_form_in_words(client, page, club_admin):
    client.force_login(club_admin)
    response = client.post(
        reverse("site-page-edit", args=["rcwhist", page.pk]), form(text="a" * 2_000_000)
    )
    assert response.status_code == 200
    assert "100" in response.content.decode() and "caractères" in response.content.decode()
    page.refresh_from_db()
    assert page.version == 1


def test_a_text_too_deep_is_refused_on_the_form_in_words(client, page, club_admin):
    client.force_login(club_admin)
    response = client.post(
        reverse("site-page-edit", args=["rcwhist", page.pk]), form(text="> " * 10_000 + "x")
    )
    assert response.status_code == 200
    assert "imbrique trop" in response.content.decode()


def test_an_admin_changes_a_page_then_puts_the_first_version_back(client, page, club_admin):
    client.force_login(club_admin)
    client.post(reverse("site-page-edit", args=["rcwhist", page.pk]), form(text="Mardi"))
    history = client.get(reverse("site-page-history", args=["rcwhist", page.pk]) + "?version=1")
    html = history.content.decode()
    assert "Version 2" in html and "president" in html and "Jeudi" in html
    response = client.post(reverse("site-page-restore", args=["rcwhist", page.pk, 1]))
    assert response.status_code == 302
    page.refresh_from_db()
    assert (page.version, page.text) == (3, "Jeudi")


def test_a_version_the_page_never_had_is_refused_in_words(client, page, club_admin):
    client.force_login(club_admin)
    response = client.post(reverse("site-page-restore", args=["rcwhist", page.pk, 9]), follow=True)
    assert "pas de version 9" in response.content.decode()


def test_an_admin_deletes_a_page_after_confirming(client, page, club_admin):
    client.force_login(club_admin)
    url = reverse("site-page-delete", args=["rcwhist", page.pk])
    assert "Supprimer la page" in client.get(url).content.decode()
    assert Page.objects.exists()
    assert client.post(url).status_code == 302
    assert not Page.objects.exists()


def test_another_clubs_admin_finds_neither_the_pages_nor_their_management(client, page):
    other = persona(ClubFactory(name="Whist Club Liège"), "liege", "admin")
    client.force_login(other)
    for url in (
        reverse("site-pages", args=["rcwhist"]),
        reverse("site-page-edit", args=["rcwhist", page.pk]),
        reverse("site-page-history", args=["rcwhist", page.pk]),
    ):
        assert client.get(url).status_code == 404
    assert client.post(reverse("site-page-delete", args=["rcwhist", page.pk])).status_code == 404
    assert Page.objects.exists()


def test_an_admin_of_another_club_cannot_reach_a_page_through_his_own_clubs_address(client, page):
    other_club = ClubFactory(name="Whist Club Liège", slug="liege")
    client.force_login(persona(other_club, "liege", "admin"))
    assert client.get(reverse("site-page-edit", args=["liege", page.pk])).status_code == 404


def test_a_member_is_told_he_may_not(client, page, member):
    client.force_login(member)
    assert client.get(reverse("site-page-edit", args=["rcwhist", page.pk])).status_code == 403
    assert (
        client.post(reverse("site-page-edit", args=["rcwhist", page.pk]), form()).status_code == 403
    )


def test_the_clubs_management_page_links_the_pages(client, club, club_admin):
    client.force_login(club_admin)
    html = client.get(reverse("club-admin", args=["rcwhist"])).content.decode()
    assert reverse("site-pages", args=["rcwhist"]) in html
