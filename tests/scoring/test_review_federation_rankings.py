"""A club that counts inter-club nights in its own ranking counts its hosted nights once."""

from fractions import Fraction

import pytest

from club.models import Club
from scoring.services import season_ranking_update
from tests.factories import ClubFactory, PlayerFactory, SeasonFactory
from tests.scoring.test_federations import SOLO_1_MADE, interclub_night, league  # noqa: F401

pytestmark = pytest.mark.django_db


def test_a_hosted_interclub_night_counts_once_in_a_host_ranking_that_counts_them(
    league,  # noqa: F811
    club,
    season,
    point_table,
    django_capture_on_commit_callbacks,
):
    federation, fed_season, neighbour = league
    third = ClubFactory(name="Troisième cercle")
    SeasonFactory(club=third, year=2024)
    federation.clubs.add(third)
    Club.objects.filter(pk=club.pk).update(ranking_interclub=True)
    club.refresh_from_db()
    hosts = PlayerFactory.create_batch(2, club=club)
    visitors = PlayerFactory.create_batch(2, club=neighbour)
    with django_capture_on_commit_callbacks(execute=True):
        interclub_night(club, season, point_table, fed_season, hosts + visitors, [SOLO_1_MADE])

    ranking = season_ranking_update(season)

    first = ranking.lines.get(player=hosts[0])
    assert first.tournaments_played == 1
    assert first.tournament_points == Fraction(5)
    # A visitor plays without joining the host club: he is ranked by his own club.
    assert not ranking.lines.filter(player__in=visitors).exists()
