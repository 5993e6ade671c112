"""The draw of a round (scoring.services.round_draw): tables of 4 and 5, the stored seed,
redraws until the first deal, later rounds by repeats avoided or by tonight's standings."""

from __future__ import annotations

import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from games import services
from games import services as games
from games.models import Deal, DrawMethod, Poule, RoundDraw, Seat, Tournament
from games.services import point_table_for_preset
from scoring import services as scoring
from scoring import services as scoring_services
from scoring.models import TournamentStanding
from tests.conftest import DRAW_SEED, NIGHT_DATE
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

# Seat 1 deals first, and is the mort at a table of 5: these deals fit both tables.
EMBALLAGE = {"contract": "emballage", "bid": 8, "declarers": ["2", "4"], "tricks": 9}


def tables_of(tournament: Tournament, round: int) -> list[list[int]]:
    return [
        list(poule.seats.order_by("number").values_list("player_id", flat=True))
        for poule in tournament.poules.filter(round=round).order_by("table")
    ]


def test_nine_present_players_sit_at_a_table_of_4_and_a_table_of_5(running_night):
    sizes = sorted(len(table) for table in tables_of(running_night, 1))
    assert sizes == [4, 5]
    assert running_night.status == Tournament.Status.RUNNING


def test_a_draw_stores_its_seed_and_the_same_seed_reproduces_it(running_night):
    first = tables_of(running_night, 1)
    draw = RoundDraw.objects.get(tournament=running_night, round=1)
    assert draw.seed == DRAW_SEED and draw.method == "random"
    scoring_services.round_draw(running_night, 1, seed=draw.seed)
    assert tables_of(running_night, 1) == first


def test_a_round_can_be_redrawn_until_its_first_deal(running_night):
    scoring_services.round_draw(running_night, 1, seed=DRAW_SEED + 1)
    poule = running_night.poules.filter(round=1).first()
    scoring_services.deal_record(poule, EMBALLAGE)
    with pytest.raises(ValidationError, match="déjà des donnes"):
        scoring_services.round_draw(running_night, 1)
    assert Poule.objects.filter(tournament=running_night, round=1).count() == 2


@pytest.mark.parametrize("present", [1, 2, 3, 6, 7, 11])
def test_a_count_that_cannot_be_seated_is_refused_with_a_suggestion(tonight, present):
    players = PlayerFactory.create_batch(present, club=tonight.club)
    services.presence_set(tonight, players)
    with pytest.raises(ValidationError) as refused:
        scoring_services.round_draw(tonight, 1)
    assert str(present) in refused.value.messages[0]
    assert "ajoutez" in refused.value.messages[0]
    assert not tonight.poules.exists()


def test_round_two_avoids_players_meeting_again(tonight, club):
    players = PlayerFactory.create_batch(16, club=club)
    services.presence_set(tonight, players)
    scoring_services.round_draw(tonight, 1, seed=1)
    scoring_services.round_draw(tonight, 2, seed=2)
    met = set()
    for table in tables_of(tonight, 1):
        met |= {frozenset((a, b)) for a in table for b in table if a != b}
    for table in tables_of(tonight, 2):
        assert not {frozenset((a, b)) for a in table for b in table if a != b} & met
    assert RoundDraw.objects.get(tournament=tonight, round=2).repeats == 0


def test_round_two_seeded_by_standings_puts_the_four_best_at_table_1(running_night):
    running_night.draw_method = DrawMethod.STANDINGS
    running_night.save()
    for poule in running_night.poules.filter(round=1):
        scoring_services.deal_record(poule, EMBALLAGE)
    scoring_services.round_draw(running_night, 2, seed=5)
    best = list(
        TournamentStanding.objects.filter(tournament=running_night)
        .order_by("rank", "player__display_name")
        .values_list("player_id", flat=True)[:4]
    )
    assert sorted(tables_of(running_night, 2)[0]) == sorted(best)


def test_a_round_beyond_the_nights_rounds_is_refused(running_night):
    with pytest.raises(ValidationError, match="pas de tour 4"):
        scoring_services.round_draw(running_night, 4)


def test_a_seat_holds_each_present_player_once_per_round(running_night):
    seated = list(
        Seat.objects.filter(tournament=running_night, round=1).values_list("player_id", flat=True)
    )
    assert sorted(seated) == sorted(running_night.present.values_list("pk", flat=True))


def test_a_classic_whist_night_is_drawn_only_at_tables_of_4(club, season, club_members):
    tournament = services.tournament_create(
        club=club,
        season=season,
        date=season.start,
        game="whist",
        point_table=point_table_for_preset("whist7"),
    )
    services.presence_set(tournament, club_members[:9])
    with pytest.raises(ValidationError, match="une table compte 4 joueurs"):
        scoring_services.round_draw(tournament, 1)
    assert not tournament.poules.exists()
    services.presence_set(tournament, club_members[:8])
    scoring_services.round_draw(tournament, 1)
    assert [p.seats.count() for p in tournament.poules.all()] == [4, 4]


# Two scorers at once: a round drawn again while the first deal of that round is recorded.
# On PostgreSQL (row locks; SQLite serialises whole transactions) each run ends with one of the
# two done and the other refused in words — never a deadlock, never a half-written night.

RUNS = 20
SOLO = {"contract": "solo", "bid": 6, "declarers": ["3"], "tricks": 6}


def at_once(*jobs):
    """Run the jobs in threads released together; each returns "done", "refused" or the
    unexpected error."""
    start = threading.Barrier(len(jobs))
    outcomes: list[str] = [""] * len(jobs)

    def run(index, job):
        start.wait()
        try:
            job()
            outcomes[index] = "done"
        except ValidationError:
            outcomes[index] = "refused"
        except Exception as error:
            outcomes[index] = repr(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_a_redraw_racing_the_first_deal_never_deadlocks(club, season, point_table, club_members):
    if connection.vendor != "postgresql":
        pytest.skip("row locks and deadlocks are PostgreSQL's; SQLite runs one writer at a time")
    for run in range(RUNS):
        night = games.tournament_create(
            club=club,
            season=season,
            date=NIGHT_DATE,
            name=f"Course {run}",
            game="belgian_whist",
            point_table=point_table,
        )
        games.presence_set(night, club_members[:8])
        scoring.round_draw(night, 1, seed=run)
        poule = Poule.objects.filter(tournament=night, round=1).first()

        outcomes = at_once(
            lambda night=night, run=run: scoring.round_draw(night, 1, seed=run + 1000),
            lambda poule=poule: scoring.deal_record(poule, SOLO),
        )

        assert sorted(outcomes) == ["done", "refused"], outcomes
        dealt = Deal.objects.filter(poule__tournament=night).count()
        assert dealt == (1 if outcomes[1] == "done" else 0)
