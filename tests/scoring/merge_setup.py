"""One person with two records, for the merge's tests: ``kept`` plays at the club, ``merged``
(a former member of the club, now at the neighbouring club) played at the club before and at
the neighbour's since. Every night closed and published, the club's season ranking published
once with both records, the « cote » and the statistics stored."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from club.models import Club, Membership, Player, Season
from games.models import PointTable, Tournament
from games.services import poule_create, presence_set
from scoring.services import deal_record, ranking_publish, tournament_close, tournament_publish
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    SeasonFactory,
    TournamentFactory,
    UserFactory,
    night_started,
)

SOLO_1_MADE = {"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 7}


@dataclass
class TwoRecords:
    club: Club
    season: Season
    neighbour: Club
    neighbour_season: Season
    neighbour_admin: Any
    kept: Player
    merged: Player
    nights: dict[str, Tournament]


def night(
    club: Club, season: Season, table: PointTable, players: list[Player], day: int
) -> Tournament:
    """A closed and published night of one table; its first player makes a solo."""
    tournament = TournamentFactory(
        club=club, season=season, point_table=table, date=datetime.date(2024, 3, day)
    )
    presence_set(tournament, players)
    night_started(tournament)
    poule = poule_create(tournament, round=1, table=1, players=players)
    deal_record(poule, SOLO_1_MADE)
    tournament_close(tournament, unfinished_ok=True)
    tournament_publish(tournament)
    return tournament


def two_records(club: Club, season: Season, table: PointTable, capture: Any) -> TwoRecords:
    neighbour = ClubFactory(name="Cercle voisin", slug="voisin")
    neighbour_season = SeasonFactory(club=neighbour, year=2024)
    admin_user = UserFactory(username="voisin-admin")
    PlayerFactory(user=admin_user, club=neighbour, club__role=Membership.Role.ADMIN)
    kept = PlayerFactory(display_name="Zoé Dupont", club=club)
    merged = PlayerFactory(
        display_name="Zoe Dupont", club=club, club__end=datetime.date(2024, 12, 31)
    )
    Membership.objects.create(player=merged, club=neighbour, start=datetime.date(2024, 1, 1))
    regulars = PlayerFactory.create_batch(3, club=club)
    visitors = PlayerFactory.create_batch(3, club=neighbour)
    with capture(execute=True):
        nights = {
            "kept": night(club, season, table, [kept, *regulars], 7),
            "merged": night(club, season, table, [merged, *regulars], 14),
            "neighbour": night(neighbour, neighbour_season, table, [merged, *visitors], 21),
        }
        ranking_publish(season)
    return TwoRecords(club, season, neighbour, neighbour_season, admin_user, kept, merged, nights)
