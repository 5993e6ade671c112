"""The « cote » and the night statistics: stored at close, deterministic, a correction moves
that night and the later ones only, and a hand-worked night's figures."""

from __future__ import annotations

import datetime
import random

import pytest
from django.core.management import call_command

from games import services as games_services
from games.demo import random_night
from games.models import Deal, Seat, Tournament
from games.nightfile import tournament_import
from scoring import services as scoring_services
from scoring.models import PlayerNightStats, PlayerRating
from scoring.statistics.cote import (
    INITIAL_MU,
    INITIAL_SIGMA,
    SEASON_SIGMA_GROWTH,
    NightRecord,
    PouleRecord,
    Rating,
    rate_match,
    rate_night,
    rate_with_openskill,
)

pytestmark = pytest.mark.django_db


def ratings_table() -> dict[tuple[int, int], tuple[float, float, int, float, float, bool]]:
    return {
        (r.tournament_id, r.player_id): (r.mu, r.sigma, r.deals, r.expected, r.actual, r.current)
        for r in PlayerRating.objects.all()
    }


@pytest.fixture
def three_nights(club, club_members, django_capture_on_commit_callbacks) -> list[Tournament]:
    """Three imported (closed) nights of 2024, a week apart, nine of twelve members each."""
    nights = []
    rng = random.Random(7)
    for week in range(3):
        doc = random_night(
            rng,
            club=club.name,
            season="2024",
            date=datetime.date(2024, 3, 7) + datetime.timedelta(days=7 * week),
            members=[p.display_name for p in club_members],
            present=9,
        )
        with django_capture_on_commit_callbacks(execute=True):
            nights.append(tournament_import(doc))
    return nights


def test_closing_nights_stores_a_rating_per_player_and_night(three_nights):
    for night in three_nights:
        assert PlayerRating.objects.filter(tournament=night).count() == 9
        assert PlayerNightStats.objects.filter(tournament=night).count() == 9
    # One current row per player: his latest night.
    current = PlayerRating.objects.filter(current=True)
    assert current.count() == len({r.player_id for r in PlayerRating.objects.all()})
    for row in current:
        later = PlayerRating.objects.filter(
            player=row.player, tournament__date__gt=row.tournament.date
        )
        assert not later.exists()


def test_the_rebuild_finds_the_same_numbers_every_time(three_nights):
    stored = ratings_table()
    call_command("ratings_rebuild", stdout=open("/dev/null", "w"))
    assert ratings_table() == stored
    scoring_services.ratings_rebuild()
    assert ratings_table() == stored


def test_a_correction_moves_that_night_and_the_later_ones_and_nothing_before(
    three_nights, django_capture_on_commit_callbacks
):
    first, second, third = three_nights
    before = ratings_table()
    deal = (
        Deal.objects.filter(poule__tournament=second, counted=True, data__contract="solo")
        .order_by("pk")
        .first()
    )
    flipped = {**deal.data, "tricks": 0 if deal.data["tricks"] >= deal.data["bid"] else 13}
    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.deal_correct(deal, flipped, closed_ok=True)
    after = ratings_table()
    assert set(after) == set(before)
    for key in before:
        night = key[0]
        if night == first.pk:
            assert after[key] == before[key]
    changed = {key[0] for key in before if after[key][:2] != before[key][:2]}
    assert second.pk in changed and third.pk in changed


def test_reopening_a_night_takes_its_ratings_away_until_it_is_closed_again(
    three_nights, django_capture_on_commit_callbacks
):
    stored = ratings_table()
    third = three_nights[2]
    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.tournament_reopen(third)
    assert not PlayerRating.objects.filter(tournament=third).exists()
    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.tournament_close(third, unfinished_ok=True, send_results=False)
    assert ratings_table() == stored


def test_uncertainty_grows_between_seasons_up_to_the_starting_sigma():
    ratings = {1: Rating(30.0, 2.0, 10, season=1), 2: Rating(20.0, INITIAL_SIGMA, 0, season=1)}
    night = NightRecord(key=1, season=2, poules=(PouleRecord((1, 2), (1, 2), ()),))
    rate_night(ratings, night, "deals")
    assert ratings[1].sigma == pytest.approx(2.0 + SEASON_SIGMA_GROWTH)
    assert ratings[2].sigma == pytest.approx(INITIAL_SIGMA)


# A hand-worked night: four players at one table, one round, three deals (rcwhist table).
#   emballage 8 by seats 1 and 2, 9 tricks: u = 4 + 1 = 5 → seats 1, 2 +5; seats 3, 4 −5
#   solo 6 by seat 3, 6 tricks: u = 2 → seat 3 +6; the others −2
#   petite misère by seat 4, no trick: u = 4 → seat 4 +12; the others −4
HAND_DEALS = [
    {"contract": "emballage", "bid": 8, "declarers": ["1", "2"], "tricks": 9},
    {"contract": "solo", "bid": 6, "declarers": ["3"], "tricks": 6},
    {"contract": "petite_misere", "declarers": ["4"], "tricks": {"4": 0}},
]


def test_statistics_of_a_hand_worked_night(
    club, season, point_table, club_members, django_capture_on_commit_callbacks
):
    night = games_services.tournament_create(
        club=club,
        season=season,
        date=datetime.date(2024, 5, 2),
        game="belgian_whist",
        point_table=point_table,
        rounds=1,
    )
    games_services.presence_set(night, club_members[:4])
    scoring_services.round_draw(night, 1, seed=1)
    poule = night.poules.get()
    for deal in HAND_DEALS:
        scoring_services.deal_record(poule, deal)
    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.tournament_close(night, unfinished_ok=True, send_results=False)
    seat = {s.number: s.player_id for s in Seat.objects.filter(poule=poule)}
    stats = {row.player_id: row.data for row in PlayerNightStats.objects.filter(tournament=night)}

    one, three, four = stats[seat[1]], stats[seat[3]], stats[seat[4]]
    assert (one["deals"], one["points"], one["mort"]) == (3, -1, 0)
    assert one["roles"] == {"declarer": [0, 0], "partner": [1, 5], "defender": [2, -6]}
    assert one["contracts"] == {"emballage": [1, 1]}
    assert one["partners"] == {str(seat[2]): [1, 1, 5]}
    # Seat 2 scored +5, −2, −4 beside him.
    assert one["opponents"][str(seat[2])] == [3, -1, -1]
    assert three["roles"] == {"declarer": [1, 6], "partner": [0, 0], "defender": [2, -9]}
    assert three["contracts"] == {"solo": [1, 1]}
    assert (four["points"], four["best_deal"]) == (5, 12)
    assert four["roles"]["declarer"] == [1, 12]
    # The club counts the emballage once (one declaring side), not once per declarer.
    sides = [stats[seat[n]]["sides"] for n in (1, 2)]
    assert sum(side.get("emballage", [0])[0] for side in sides) == 1
    # Seat 4 won the table: he finished above all three, seat 3 (−3) above nobody.
    ratings = {r.player_id: r for r in PlayerRating.objects.filter(tournament=night)}
    assert ratings[seat[4]].actual == 3.0
    assert ratings[seat[3]].actual == 0.0
    # Before their first night everybody is alike: each expected to beat half the table.
    assert ratings[seat[4]].expected == pytest.approx(1.5)


def test_the_mort_is_counted_at_a_table_of_five(running_night, django_capture_on_commit_callbacks):
    poule = next(p for p in running_night.poules.all() if p.seats.count() == 5)
    # Seat 1 deals the first deal: at a table of five he is its mort.
    scoring_services.deal_record(poule, HAND_DEALS[1] | {"declarers": ["3"]})
    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.tournament_close(running_night, unfinished_ok=True, send_results=False)
    seat_one = Seat.objects.get(poule=poule, number=1).player_id
    assert PlayerNightStats.objects.get(tournament=running_night, player=seat_one).data["mort"] == 1


def test_each_match_is_rated_as_openskill_rates_it_on_the_scale_without_drift():
    """The rating updates the players' own objects rather than through ``rate`` (which copies
    them first): the numbers are OpenSkill's for a side weighing the start plus its members'
    distances from it, each member taking his share of his side's update; ties and sides of
    one to three alike."""
    cases = [
        ([(1,), (2, 3, 4)], [1, 0]),
        ([(1, 2), (3, 4)], [0, 1]),
        ([(1,), (2,), (3, 4)], [0, 2, 1]),
        ([(1,), (2,), (3,), (4,)], [1, 0, 1, 3]),
    ]
    start = {1: (27.0, 6.0), 2: (22.5, 8.0), 3: (25.0, 3.5), 4: (31.0, 7.1)}
    for sides, ranks in cases:
        ratings = {p: Rating(*start[p]) for p in start}
        rate_match(ratings, sides, ranks)
        offsets = [INITIAL_MU * (1 - 1 / len(side)) for side in sides]
        weighed = [
            [(start[p][0] - offset, start[p][1]) for p in side]
            for side, offset in zip(sides, offsets, strict=True)
        ]
        expected = rate_with_openskill(weighed, ranks)
        for side, before, team in zip(sides, weighed, expected, strict=True):
            for player, (mu_before, _s), (mu, sigma) in zip(side, before, team, strict=True):
                share = start[player][0] + (mu - mu_before) / len(side)
                assert (ratings[player].mu, ratings[player].sigma) == pytest.approx((share, sigma))
