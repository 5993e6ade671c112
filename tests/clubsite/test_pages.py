"""A club's pages written, changed, restored and deleted: each change a version (who, when),
each refusal in words with nothing written."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from clubsite import pages
from clubsite.models import Page, PageVersion
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db


def test_a_page_without_an_address_takes_its_titles_and_is_rendered_once(club, club_admin):
    page = pages.page_create(
        club, {"title": "Règlement interne", "text": "**Silence**"}, club_admin
    )
    assert page.slug == "reglement-interne"
    assert page.html == "<p><strong>Silence</strong></p>\n"
    version = page.versions.get()
    assert (version.number, version.saved_by, version.text) == (1, club_admin, "**Silence**")


def test_every_change_keeps_the_version_before(club, club_admin, superuser):
    page = pages.page_create(club, {"title": "Le club", "text": "Jeudi"}, club_admin)
    page = pages.page_update(page, {"text": "Mardi"}, superuser)
    assert page.version == 2 and page.html == "<p>Mardi</p>\n"
    versions = list(page.versions.order_by("number").values_list("number", "text", "saved_by"))
    assert versions == [(1, "Jeudi", club_admin.pk), (2, "Mardi", superuser.pk)]


def test_an_earlier_version_put_back_is_saved_as_the_next(club, club_admin):
    page = pages.page_create(club, {"title": "Le club", "text": "Jeudi"}, club_admin)
    page = pages.page_update(page, {"title": "Notre club", "text": "Mardi"}, club_admin)
    page = pages.page_restore(page, 1, club_admin)
    assert (page.version, page.title, page.text, page.html) == (
        3,
        "Le club",
        "Jeudi",
        "<p>Jeudi</p>\n",
    )
    assert page.versions.get(number=3).restored_from == 1
    assert page.versions.count() == 3


def test_a_version_the_page_never_had_is_refused_in_words(club, club_admin):
    page = pages.page_create(club, {"title": "Le club"}, club_admin)
    with pytest.raises(ValidationError, match="pas de version 7"):
        pages.page_restore(page, 7, club_admin)


@pytest.mark.parametrize(
    "slug",
    [
        "gestion",
        "classement",
        "soirees",
        "membres",
        "actualites",
        "photos",
        "palmares",
        "contact",
        "table-des-points",
    ],
)
def test_an_address_the_site_uses_is_refused_in_words(club, club_admin, slug):
    with pytest.raises(ValidationError, match="page du site") as refused:
        pages.page_create(club, {"title": "Ma page", "slug": slug}, club_admin)
    assert "slug" in refused.value.error_dict
    assert not Page.objects.exists()


def test_a_title_that_spells_a_site_address_is_refused_too(club, club_admin):
    with pytest.raises(ValidationError, match="gestion"):
        pages.page_create(club, {"title": "Gestion"}, club_admin)


def test_a_title_of_no_letter_and_no_address_is_refused_in_words(club, club_admin):
    with pytest.raises(ValidationError, match="lettres ou de chiffres"):
        pages.page_create(club, {"title": "★★★"}, club_admin)


def test_two_pages_of_a_club_may_not_share_an_address_but_two_clubs_may(club, club_admin):
    pages.page_create(club, {"title": "Le club"}, club_admin)
    with pytest.raises(ValidationError, match="déjà une page"):
        pages.page_create(club, {"title": "Le club"}, club_admin)
    pages.page_create(ClubFactory(name="Voisins"), {"title": "Le club"}, None)
    assert Page.objects.count() == 2


def test_a_text_too_long_or_too_deep_is_refused_and_nothing_changes(club, club_admin):
    page = pages.page_create(club, {"title": "Le club", "text": "Jeudi"}, club_admin)
    with pytest.raises(ValidationError, match="au plus"):
        pages.page_update(page, {"text": "a" * 2_000_000}, club_admin)
    with pytest.raises(ValidationError, match="imbrique"):
        pages.page_update(page, {"text": "- " * 10_000 + "fond"}, club_admin)
    page.refresh_from_db()
    assert (page.version, page.text) == (1, "Jeudi")
    assert PageVersion.objects.count() == 1


def test_a_deleted_page_takes_its_history_with_it(club, club_admin):
    page = pages.page_create(club, {"title": "Le club"}, club_admin)
    pages.page_delete(page)
    assert not Page.objects.exists() and not PageVersion.objects.exists()


def test_an_address_taken_at_the_same_moment_is_refused_in_words(club, club_admin, monkeypatch):
    pages.page_create(club, {"title": "Le club"}, club_admin)
    # The check saw the address free (another admin's save not yet committed).
    monkeypatch.setattr(Page, "validate_constraints", lambda self, exclude=None: None)
    with pytest.raises(ValidationError, match="déjà une page"):
        pages.page_create(club, {"title": "Le club"}, club_admin)
    assert Page.objects.count() == 1


def test_a_typed_address_is_written_as_an_address_and_checked_so(club, club_admin):
    page = pages.page_create(club, {"title": "Le club", "slug": "Règles_Internes"}, club_admin)
    assert page.slug == "regles_internes"
    with pytest.raises(ValidationError, match="gestion"):
        pages.page_create(club, {"title": "Ma page", "slug": "GESTION"}, club_admin)
