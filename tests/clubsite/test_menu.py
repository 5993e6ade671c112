"""The club site's menu: the viewer's pages in order, then the point table, in one query."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import translation

from club.permissions import club_access
from clubsite import pages
from clubsite.menu import club_site_menu

pytestmark = pytest.mark.django_db


@pytest.fixture
def club_pages(club):
    pages.page_create(club, {"title": "Le club", "position": 1}, None)
    pages.page_create(
        club, {"title": "Règlement interne", "position": 2, "members_only": True}, None
    )
    pages.page_create(club, {"title": "Our club", "position": 3, "language": "en"}, None)
    pages.page_create(club, {"title": "Règles du jeu", "position": 4, "language": "fr"}, None)


def test_a_visitor_sees_the_public_pages_of_his_language_then_the_point_table(
    club, club_pages, django_assert_num_queries
):
    access = club_access(AnonymousUser(), club)
    with translation.override("fr"), django_assert_num_queries(1):
        entries = club_site_menu(club, access)
    # The club's pages in order, then the site's own sections; no « Contact » without an
    # address to write to.
    assert [e.title for e in entries] == [
        "Le club",
        "Règles du jeu",
        "Actualités",
        "Photos",
        "Palmarès",
        "Table des points",
    ]
    assert entries[0].url == "/clubs/rcwhist/le-club/"
    assert entries[-1].url == "/clubs/rcwhist/table-des-points/"
    club.contact_email = "secretariat@rcwhist.example"
    with translation.override("fr"):
        entries = club_site_menu(club, club_access(AnonymousUser(), club))
    assert (entries[-1].title, entries[-1].url) == ("Contact", "/clubs/rcwhist/contact/")


def test_a_member_sees_the_members_pages_too_for_one_more_query(
    club, club_pages, member, django_assert_num_queries
):
    access = club_access(member, club)
    with translation.override("en"), django_assert_num_queries(2):
        entries = club_site_menu(club, access)
    assert [e.title for e in entries][:3] == ["Le club", "Règlement interne", "Our club"]
    assert entries[1].members_only


def test_the_query_count_does_not_grow_with_the_pages(club, django_assert_num_queries):
    for n in range(30):
        pages.page_create(club, {"title": f"Page {n}"}, None)
    with django_assert_num_queries(1):
        assert len(club_site_menu(club, club_access(AnonymousUser(), club))) == 30 + 4
