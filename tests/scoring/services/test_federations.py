"""A federation's ranking: which nights count (championship nights only, or every night of its
clubs), published nights only, visitors playing without joining the host club, and the clubs
whose rules count inter-club nights in their own ranking."""

import datetime
from fractions import Fraction

import pytest
from django.core.exceptions import ValidationError

from club.models import Club, FederationSeason, Membership
from club.services import federation_open, federation_season_create
from games.services import poule_create, presence_set
from scoring.models import FederationRanking, RankingSnapshot
from scoring.services import (
    deal_correct,
    deal_record,
    season_ranking_update,
    tournament_close,
    tournament_publish,
    tournament_unpublish,
)
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    SeasonFactory,
    TournamentFactory,
    night_started,
)

pytestmark = pytest.mark.django_db

SOLO_1_MADE = {"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 7}
SOLO_2_MADE = {"contract": "solo", "bid": 6, "declarers": ["2"], "tricks": 7}


@pytest.fixture
def league(club, season):
    """Two clubs in one federation, its 2024 season counting its championship nights."""
    neighbour = ClubFactory(name="Cercle voisin")
    SeasonFactory(club=neighbour, year=2024)
    federation = federation_open("Ligue de whist du Brabant", clubs=[club, neighbour])
    fed_season = federation_season_create(
        federation, "2024", datetime.date(2024, 1, 1), datetime.date(2024, 12, 31)
    )
    return federation, fed_season, neighbour


def interclub_night(club, season, point_table, fed_season, players, deals, *, day=14):
    """A night ``club`` hosts for the federation, one table of ``players``, closed."""
    night = TournamentFactory(
        club=club,
        season=season,
        point_table=point_table,
        date=datetime.date(2024, 3, day),
        federation_season=fed_season,
    )
    presence_set(night, players)
    night_started(night)
    poule = poule_create(night, round=1, table=1, players=players)
    for deal in deals:
        deal_record(poule, deal)
    return tournament_close(night, unfinished_ok=True), poule


def test_a_visitor_of_a_federation_club_plays_an_interclub_night_without_joining(
    league, club, season, point_table, django_capture_on_commit_callbacks
):
    _federation, fed_season, neighbour = league
    hosts = PlayerFactory.create_batch(2, club=club)
    visitors = PlayerFactory.create_batch(2, club=neighbour)

    with django_capture_on_commit_callbacks(execute=True):
        night, _poule = interclub_night(
            club, season, point_table, fed_season, hosts + visitors, [SOLO_1_MADE]
        )

    assert set(night.present.all()) == set(hosts + visitors)
    assert not Membership.objects.filter(club=club, player__in=visitors).exists()


def test_a_player_of_no_federation_club_is_refused_at_an_interclub_night(
    league, club, season, point_table
):
    _federation, fed_season, _neighbour = league
    stranger = PlayerFactory(club=ClubFactory(name="Club d'ailleurs"))
    night = TournamentFactory(
        club=club, season=season, point_table=point_table, federation_season=fed_season
    )

    with pytest.raises(ValidationError, match="fédération"):
        presence_set(night, [stranger, *PlayerFactory.create_batch(3, club=club)])


def test_a_club_outside_the_federation_cannot_host_its_nights(league, point_table):
    _federation, fed_season, _neighbour = league
    outside = ClubFactory(name="Club d'ailleurs")
    season = SeasonFactory(club=outside, year=2024)

    with pytest.raises(ValidationError, match="fédération"):
        TournamentFactory(
            club=outside, season=season, point_table=point_table, federation_season=fed_season
        )


def test_the_federation_ranks_its_published_interclub_nights_across_clubs(
    league, club, season, point_table, django_capture_on_commit_callbacks
):
    federation, fed_season, neighbour = league
    hosts = PlayerFactory.create_batch(2, club=club)
    visitors = PlayerFactory.create_batch(2, club=neighbour)
    with django_capture_on_commit_callbacks(execute=True):
        night, _poule = interclub_night(
            club, season, point_table, fed_season, hosts + visitors, [SOLO_2_MADE]
        )
    # Closed, not yet published by its host: the federation shows nothing of it.
    assert not FederationRanking.objects.filter(season=fed_season).exists()

    with django_capture_on_commit_callbacks(execute=True):
        tournament_publish(night)

    ranking = FederationRanking.objects.get(season=fed_season)
    lines = list(ranking.lines.order_by("position"))
    assert ranking.tournaments == 1
    assert lines[0].player == hosts[1]  # the solo's declarer, first with 5 points
    assert lines[0].tournament_points == Fraction(5)
    assert {line.player for line in lines} == set(hosts + visitors)

    with django_capture_on_commit_callbacks(execute=True):
        tournament_unpublish(night)
    assert FederationRanking.objects.get(season=fed_season).lines.count() == 0


def test_a_correction_of_a_published_interclub_night_moves_the_federation_ranking(
    league, club, season, point_table, django_capture_on_commit_callbacks
):
    _federation, fed_season, neighbour = league
    players = PlayerFactory.create_batch(2, club=club) + PlayerFactory.create_batch(
        2, club=neighbour
    )
    with django_capture_on_commit_callbacks(execute=True):
        night, poule = interclub_night(
            club, season, point_table, fed_season, players, [SOLO_2_MADE]
        )
        tournament_publish(night)
    deal = poule.deals.get()

    with django_capture_on_commit_callbacks(execute=True):
        deal_correct(deal, SOLO_1_MADE, closed_ok=True)

    first = FederationRanking.objects.get(season=fed_season).lines.get(position=1)
    assert first.player == players[0]


def test_a_season_that_counts_every_night_ranks_the_clubs_ordinary_nights(
    league, club, season, point_table, django_capture_on_commit_callbacks
):
    _federation, fed_season, _neighbour = league
    fed_season.counts = FederationSeason.Counts.ALL
    fed_season.save()
    players = PlayerFactory.create_batch(4, club=club)
    night = TournamentFactory(club=club, season=season, point_table=point_table)
    presence_set(night, players)
    night_started(night)
    poule = poule_create(night, round=1, table=1, players=players)
    deal_record(poule, SOLO_1_MADE)

    with django_capture_on_commit_callbacks(execute=True):
        tournament_close(night, unfinished_ok=True)
        tournament_publish(night)

    ranking = FederationRanking.objects.get(season=fed_season)
    assert ranking.tournaments == 1
    assert ranking.lines.get(position=1).player == players[0]


def test_an_interclub_night_counts_in_a_club_ranking_only_where_its_rules_say_so(
    league, club, season, point_table, django_capture_on_commit_callbacks
):
    _federation, fed_season, neighbour = league
    hosts = PlayerFactory.create_batch(2, club=club)
    visitors = PlayerFactory.create_batch(2, club=neighbour)
    neighbour.ranking_interclub = True
    neighbour.save()
    with django_capture_on_commit_callbacks(execute=True):
        interclub_night(club, season, point_table, fed_season, hosts + visitors, [SOLO_1_MADE])

    # The host club's rules leave inter-club nights to the federation.
    host_ranking = season_ranking_update(season)
    assert host_ranking.lines.count() == 0
    # The neighbour counts them, for its own members only.
    neighbour_season = neighbour.seasons.get()
    visited = RankingSnapshot.objects.get(season=neighbour_season, published_at=None)
    assert {line.player for line in visited.lines.all()} == set(visitors)
    assert visited.tournaments == 1


# A club that counts inter-club nights in its own ranking counts its hosted nights once.


def test_a_hosted_interclub_night_counts_once_in_a_host_ranking_that_counts_them(
    league,
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
