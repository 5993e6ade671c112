"""A club night being run in the site: nine members present and round 1 drawn."""

from __future__ import annotations

import pytest

from club.models import Club, Player, Season
from games import services
from games.models import PointTable, Tournament
from scoring import services as scoring_services
from tests.conftest import NIGHT_DATE

# Fixed, so that every test sees the same tables.
DRAW_SEED = 1234


@pytest.fixture
def tonight(club: Club, season: Season, point_table: PointTable) -> Tournament:
    return services.tournament_create(
        club=club, season=season, date=NIGHT_DATE, game="belgian_whist", point_table=point_table
    )


@pytest.fixture
def running_night(tonight: Tournament, club_members: list[Player]) -> Tournament:
    """Nine present: round 1 seats them at a table of 4 and a table of 5."""
    services.presence_set(tonight, club_members[:9])
    scoring_services.round_draw(tonight, 1, seed=DRAW_SEED)
    tonight.refresh_from_db()
    return tonight
