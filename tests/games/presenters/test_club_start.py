"""The home page's list of clubs (games/presenters/club_start.py): the next night is the one
not yet started."""

import datetime

import pytest
from django.utils import timezone

from games import calendar
from games.presenters.club_start import listed_clubs
from tests.factories import ClubFactory, SeasonFactory, TournamentFactory, night_started

pytestmark = pytest.mark.django_db


def _plan(club, date, hour=20):
    calendar.night_plan(club, date, calendar.NightPlan(start=datetime.time(hour, 0)))


def test_tonights_night_is_next_until_it_starts_then_the_one_after():
    club = ClubFactory(name="Les As de Gembloux")
    today = timezone.localdate()
    _plan(club, today)
    _plan(club, today + datetime.timedelta(days=7))
    (listed,) = listed_clubs(today, datetime.time(18, 0))
    assert listed.next_night_date == today
    (listed,) = listed_clubs(today, datetime.time(20, 30))
    assert listed.next_night_date == today + datetime.timedelta(days=7)


def test_a_night_opened_early_is_no_longer_the_next_one():
    club = ClubFactory(name="Les As de Gembloux")
    today = timezone.localdate()
    _plan(club, today)
    _plan(club, today + datetime.timedelta(days=7))
    season = SeasonFactory(club=club, year=today.year)
    night_started(TournamentFactory(club=club, season=season, date=today))
    (listed,) = listed_clubs(today, datetime.time(18, 0))
    assert listed.next_night_date == today + datetime.timedelta(days=7)
