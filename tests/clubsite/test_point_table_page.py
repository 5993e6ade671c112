"""The point table as a page: the season's table, read without storing anything, each contract
linked to the heading that explains it."""

from __future__ import annotations

import datetime

import pytest

from clubsite import pages
from clubsite.point_table_page import point_table_page, season_of, season_table
from games.models import PointTable
from tests.factories import SeasonFactory

pytestmark = pytest.mark.django_db
TODAY = datetime.date(2025, 3, 1)


def test_the_season_under_way_is_shown_else_the_latest(club):
    old, current = SeasonFactory(club=club, year=2024), SeasonFactory(club=club, year=2025)
    assert season_of(club, TODAY) == current
    assert season_of(club, datetime.date(2030, 1, 1)) == current
    assert season_of(club, datetime.date(2024, 6, 1)) == old


def test_a_preset_never_stored_is_read_from_its_file_and_not_stored(club):
    club.default_rules = "whisthub"
    table = season_table(club, None)
    assert table.pk is None and table.name == "whisthub" and table.data["rows"]
    assert not PointTable.objects.filter(name="whisthub").exists()


def test_the_seasons_own_rules_win_over_the_clubs(club):
    season = SeasonFactory(club=club, year=2025, default_rules="iwwa")
    assert season_table(club, season).name == "iwwa"


def test_a_hearts_club_reads_its_values_by_name(club):
    club.default_rules = "coeurs"
    shown = point_table_page(club, TODAY, member=False)
    assert shown.rows == []
    assert ("La dame de pique", 12) in shown.values


def test_a_members_only_rules_page_links_no_visitor_to_it(club):
    pages.page_create(
        club, {"title": "Règles du jeu", "text": "## Solo", "members_only": True}, None
    )
    assert point_table_page(club, TODAY, member=False).rules_url == ""
    shown = point_table_page(club, TODAY, member=True)
    assert shown.rules_url == "/clubs/rcwhist/regles-du-jeu/"
    solo = next(line for line in shown.rows if line.row.contract == "solo")
    assert solo.rule_url == "/clubs/rcwhist/regles-du-jeu/#solo"
