"""The games tests' shared fixtures: a night on the club's calendar, next Friday."""

from __future__ import annotations

import pytest

from games import calendar
from games.models import PlannedNight
from tests.games.calendar_days import next_friday


@pytest.fixture
def night(club) -> PlannedNight:
    """A night on the club's calendar next Friday at 20:00, at the Salle Saint-Roch."""
    return calendar.night_plan(club, next_friday(), calendar.NightPlan(place="Salle Saint-Roch"))
