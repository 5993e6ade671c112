"""The demo clubs' pages: written once, the rules page explaining the point table's contracts."""

from __future__ import annotations

import datetime

import pytest

from clubsite.demo import demo_pages
from clubsite.models import Page
from clubsite.point_table_page import point_table_page
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db


def test_the_demo_clubs_get_their_pages_once(club):
    hearts = ClubFactory(name="Cercle des Cœurs de Namur", slug="coeurs")
    assert demo_pages(club, hearts, None) == "Club site pages: 5 written."
    assert demo_pages(club, hearts, None) == "Club site pages: 0 written."
    assert list(Page.objects.filter(club=club).values_list("slug", "members_only")) == [
        ("le-club", False),
        ("reglement-interne", True),
        ("regles-du-jeu", False),
    ]
    assert "<table>" in Page.objects.get(club=club, slug="le-club").html
    assert Page.objects.filter(club=hearts).count() == 2


def test_the_demo_rules_page_explains_the_main_contracts_of_the_point_table(club):
    demo_pages(club, ClubFactory(name="Cœurs"), None)
    shown = point_table_page(club, datetime.date(2025, 3, 1), member=False)
    linked = {line.row.contract for line in shown.rows if line.rule_url}
    assert {"emballage", "solo", "petite_misere", "abondance", "trou", "chelem"} <= linked
