"""The pages' queries: what a sitemap may list, what a reader's menu shows."""

from __future__ import annotations

import pytest

from clubsite import pages
from clubsite.models import Page

pytestmark = pytest.mark.django_db


def test_a_members_only_page_is_never_public(club):
    pages.page_create(club, {"title": "Le club"}, None)
    pages.page_create(club, {"title": "Règlement interne", "members_only": True}, None)
    assert list(Page.objects.public().values_list("slug", flat=True)) == ["le-club"]
    assert Page.objects.seen_by(member=True).count() == 2


def test_a_page_in_every_language_is_in_each_readers(club):
    pages.page_create(club, {"title": "Le club"}, None)
    pages.page_create(club, {"title": "The club", "language": "en"}, None)
    pages.page_create(club, {"title": "De club", "language": "nl"}, None)
    assert sorted(Page.objects.in_language("en").values_list("slug", flat=True)) == [
        "le-club",
        "the-club",
    ]


def test_the_menus_order_is_the_admins_then_the_titles(club):
    pages.page_create(club, {"title": "Zèbre", "position": 1}, None)
    pages.page_create(club, {"title": "Règles", "position": 2}, None)
    pages.page_create(club, {"title": "Accueil", "position": 1}, None)
    assert [p.title for p in Page.objects.in_menu_order()] == ["Accueil", "Zèbre", "Règles"]
