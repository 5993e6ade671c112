"""The club site's menu on the club's own page."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubsite import pages

pytestmark = pytest.mark.django_db


def test_the_club_page_shows_the_menu_of_the_visitors_pages(client, club):
    pages.page_create(club, {"title": "Le club", "position": 1}, None)
    pages.page_create(club, {"title": "Règlement interne", "members_only": True}, None)
    html = client.get(reverse("club-detail", args=["rcwhist"])).content.decode()
    assert 'href="/clubs/rcwhist/le-club/"' in html
    assert "reglement-interne" not in html
    assert 'href="/clubs/rcwhist/table-des-points/"' in html


def test_a_member_finds_the_members_pages_in_the_menu(client, club, member):
    pages.page_create(club, {"title": "Règlement interne", "members_only": True}, None)
    client.force_login(member)
    html = client.get(reverse("club-detail", args=["rcwhist"])).content.decode()
    assert 'href="/clubs/rcwhist/reglement-interne/"' in html


def test_the_menu_costs_the_club_page_one_query_however_many_pages(client, club):
    url = reverse("club-detail", args=["rcwhist"])
    client.get(url)
    with CaptureQueriesContext(connection) as empty:
        client.get(url)
    for n in range(20):
        pages.page_create(club, {"title": f"Page {n}"}, None)
    with CaptureQueriesContext(connection) as full:
        client.get(url)
    assert len(full) == len(empty)
    assert sum("clubsite_page" in q["sql"] for q in full.captured_queries) == 1


def test_the_menu_marks_the_page_being_read(client, club):
    pages.page_create(club, {"title": "Le club"}, None)
    html = client.get("/clubs/rcwhist/le-club/").content.decode()
    assert 'href="/clubs/rcwhist/le-club/" aria-current="page"' in html


def test_a_pages_description_is_its_text_in_plain_words_escaped_once(client, club):
    text = "Le club « La Chevalerie » joue **le jeudi** & le *samedi*.\n\n" + "mot " * 40
    pages.page_create(club, {"title": "Le club", "text": text}, None)

    html = client.get(reverse("site-page", args=["rcwhist", "le-club"])).content.decode()

    description = html.split('<meta name="description" content="', 1)[1].split('"', 1)[0]
    assert description.startswith("Le club «\u00a0La Chevalerie\u00a0» joue le jeudi &amp; le")
    assert "&amp;nbsp;" not in description and "<" not in description
    assert description.endswith("mot…")
