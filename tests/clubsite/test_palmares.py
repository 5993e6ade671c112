"""The club's palmarès read from its published results: each season's champion (imported
seasons too), the most nights won, the best night, the rare contracts made; the demo club's
palmarès agrees with its published rankings, season by season."""

from __future__ import annotations

import datetime
import io
from fractions import Fraction

import pytest
from django.core.management import call_command

from club.models import Club, Membership
from clubsite.palmares import PALMARES_QUERIES, club_palmares
from games import services
from games.models import Tournament
from scoring import services as scoring_services
from scoring.models import RankingSnapshot, TournamentStanding
from tests.factories import PlayerFactory, SeasonFactory

pytestmark = pytest.mark.django_db

CHELEM = {"contract": "chelem", "bid": 13, "declarers": ["1"], "tricks": 13}
TABLE_MISERY = {"contract": "grande_misere_table", "declarers": ["2"], "tricks": 0}
SOLO = {"contract": "solo", "bid": 6, "declarers": ["3"], "tricks": 7}


def played_night(club, season, point_table, players, deals, *, day: int, publish: bool = True):
    """A night of one table of four who play ``deals``, closed and (``publish``) published."""
    night = services.tournament_create(
        club=club,
        season=season,
        date=datetime.date(2024, 5, day),
        game="belgian_whist",
        point_table=point_table,
        rounds=1,
    )
    services.presence_set(night, players)
    scoring_services.round_draw(night, 1, seed=day)
    scoring_services.deals_record(night.poules.get(), deals)
    scoring_services.tournament_close(night, unfinished_ok=True)
    return scoring_services.tournament_publish(night) if publish else night


@pytest.fixture
def players(club):
    return PlayerFactory.create_batch(4, club=club)


def test_a_chelem_and_a_grande_misere_sur_table_made_are_listed_with_their_night(
    club, season, point_table, players, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        night = played_night(club, season, point_table, players, [CHELEM, TABLE_MISERY], day=2)
    seats = {seat.number: seat.player for seat in night.poules.get().seats.all()}

    made = club_palmares(club).contracts_made

    assert {(m.contract, m.player, m.night, m.times) for m in made} == {
        ("chelem", seats[1], night, 1),
        ("grande_misere_table", seats[2], night, 1),
    }
    assert {str(m.label) for m in made} == {"Solo chelem", "Grande misère sur table"}


def test_a_night_not_published_counts_for_nobody(
    club, season, point_table, players, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        played_night(club, season, point_table, players, [CHELEM], day=2, publish=False)

    palmares = club_palmares(club)

    assert palmares.empty
    assert palmares.nights_won == [] and palmares.best_nights == []


def test_the_most_nights_won_and_the_best_night_come_from_the_published_standings(
    club, season, point_table, players, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        nights = [
            played_night(club, season, point_table, players, [SOLO, CHELEM], day=day)
            for day in (2, 9, 16)
        ]
    winners = TournamentStanding.objects.filter(tournament__in=nights, rank=1)
    best = TournamentStanding.objects.filter(tournament__in=nights).order_by("-game_points")[0]

    palmares = club_palmares(club)

    counted = {line.player.pk: line.won for line in palmares.nights_won}
    assert sum(counted.values()) == winners.count()
    for player in {w.player_id for w in winners}:
        assert counted[player] == winners.filter(player=player).count()
    [best_night] = palmares.best_nights
    assert (best_night.game, best_night.points) == ("belgian_whist", best.game_points)
    assert best_night.player.pk == best.player_id and best_night.night == best.tournament


def test_each_season_has_its_champion_an_imported_one_and_a_tie_too(club, players):
    first, second = players[:2]
    past = SeasonFactory(club=club, year=2019)
    snapshot = RankingSnapshot.objects.create(
        season=past, computed_at=past_time(), published_at=past_time(), imported=True
    )
    for position, player in enumerate((first, second), start=1):
        snapshot.lines.create(
            player=player, rank=1, tied=True, position=position, tournament_points=Fraction(80)
        )

    [champion] = club_palmares(club).champions

    assert champion.season == past and champion.imported
    assert champion.players == [first, second] and champion.points == 80


def past_time():
    return datetime.datetime(2019, 12, 31, tzinfo=datetime.UTC)


def test_the_palmares_is_read_in_a_few_queries_whatever_the_club_has_published(
    club,
    season,
    point_table,
    players,
    django_assert_num_queries,
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks(execute=True):
        for day in (2, 9, 16, 23):
            played_night(club, season, point_table, players, [SOLO, CHELEM, TABLE_MISERY], day=day)
        scoring_services.ranking_publish(season)

    with django_assert_num_queries(PALMARES_QUERIES):
        palmares = club_palmares(club)

    assert len(palmares.contracts_made) == 8 and len(palmares.champions) == 1


def test_the_demo_clubs_palmares_matches_its_published_rankings_for_every_season(
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo_club", stdout=io.StringIO())

    for club in Club.objects.filter(seasons__rankings__isnull=False).distinct():
        palmares = club_palmares(club)
        published = {
            snapshot.season: snapshot
            for snapshot in RankingSnapshot.objects.filter(season__club=club).latest_published()
        }
        assert {champion.season for champion in palmares.champions} == set(published)
        for champion in palmares.champions:
            lines = published[champion.season].lines.in_order()
            first = [line.player for line in lines if line.rank == 1]
            assert champion.players == first
            assert champion.points == lines[0].tournament_points
        # The winners of the club's own published nights, and nobody else, counted in the
        # nights won (an inter-club night it hosted, the demo has one, is its federation's).
        won = TournamentStanding.objects.filter(
            tournament__club=club,
            tournament__status=Tournament.Status.PUBLISHED,
            tournament__federation_season=None,
            rank=1,
        )
        most = max((won.filter(player=s.player).count() for s in won), default=0)
        assert palmares.nights_won == [] or palmares.nights_won[0].won == most
        for line in palmares.nights_won:
            assert line.won == won.filter(player=line.player).count()
    rcwhist = Club.objects.get(name="RCWhist La Chevalerie")
    seasons = {c.season.name: c for c in club_palmares(rcwhist).champions}
    assert sorted(seasons) == ["2022", "2023", "2024", "2025"]
    assert seasons["2022"].imported and not seasons["2025"].imported
    assert Membership.objects.filter(club=rcwhist).exists()
