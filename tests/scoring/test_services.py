"""Recording, correcting and deleting deals: points, dealers and standings follow, refused
deals change nothing, and a closed night is locked."""

import random
from fractions import Fraction

import pytest
from django.core.exceptions import ValidationError

from club.name_order import name_sorted
from config.celery import app
from games.demo import random_deal
from games.models import Tournament
from games.services import poule_create
from infra.outbox import TaskName
from scoring.models import PouleStanding, RankingSnapshot, TournamentStanding
from scoring.services import (
    deal_correct,
    deal_delete,
    deal_record,
    deals_record,
    ranking_publish,
    tournament_close,
    tournament_reopen,
    tournament_standings_update,
)
from tests.factories import PlayerFactory, PouleFactory, TournamentFactory, night_started

pytestmark = pytest.mark.django_db

# Deals name players by seat number. Points are those of the rcwhist table.
EMBALLAGE_1_3_MADE = {"contract": "emballage", "bid": 8, "declarers": ["1", "3"], "tricks": 9}
EMBALLAGE_1_3_DOWN = {"contract": "emballage", "bid": 8, "declarers": ["1", "3"], "tricks": 6}
SOLO_2_DOWN = {"contract": "solo", "bid": 6, "declarers": ["2"], "tricks": 5}
SOLO_3_MADE = {"contract": "solo", "bid": 6, "declarers": ["3"], "tricks": 7}
PASS = {"contract": "pass"}


@pytest.fixture
def tournament(club, season, point_table):
    tournament = TournamentFactory(club=club, season=season, point_table=point_table)
    return night_started(tournament)


@pytest.fixture
def table_of_4(tournament):
    return PouleFactory(tournament=tournament, round=1, table=1, size=4)


@pytest.fixture
def table_of_5(tournament):
    return PouleFactory(tournament=tournament, round=1, table=2, size=5)


def sheet(poule):
    return [(d.position, d.data, d.points, d.dealer) for d in poule.deals.order_by("position")]


def poule_standings(poule):
    return {
        line.seat: (line.rank, line.game_points, line.tournament_points)
        for line in PouleStanding.objects.filter(poule=poule)
    }


def tournament_standings_of(tournament):
    return {
        line.player_id: (line.rank, line.tournament_points, line.game_points)
        for line in TournamentStanding.objects.filter(tournament=tournament)
    }


def seat_player(poule, number):
    return poule.seats.get(number=number).player


def test_a_recorded_deal_stores_the_points_of_every_seat_and_its_dealer(table_of_4, scorer):
    deal = deal_record(table_of_4, EMBALLAGE_1_3_MADE, by=scorer)

    deal.refresh_from_db()
    assert deal.position == 1
    assert deal.data == EMBALLAGE_1_3_MADE
    assert deal.points == [5, -5, 5, -5]
    assert deal.dealer == 1
    assert deal.counted
    assert deal.recorded_by == scorer


def test_the_dealer_moves_clockwise_after_each_played_deal_but_not_after_a_pass(table_of_4):
    deals_record(table_of_4, [EMBALLAGE_1_3_MADE, PASS, SOLO_2_DOWN, SOLO_3_MADE])

    assert [dealer for *_, dealer in sheet(table_of_4)] == [1, 2, 2, 3]
    table_of_4.refresh_from_db()
    assert table_of_4.counted_deals == 3


def test_the_mort_at_a_table_of_5_scores_nothing(table_of_5):
    # Seat 1 deals first and sits the deal out.
    deal = deal_record(
        table_of_5, {"contract": "emballage", "bid": 8, "declarers": ["2", "4"], "tricks": 9}
    )

    deal.refresh_from_db()
    assert deal.dealer == 1
    assert deal.points == [0, 5, -5, 5, -5]


def test_a_recorded_deal_updates_the_poule_and_night_standings(table_of_4):
    deal_record(table_of_4, EMBALLAGE_1_3_MADE)

    assert poule_standings(table_of_4) == {
        1: (1, 5, Fraction(4)),
        3: (1, 5, Fraction(4)),
        2: (3, -5, Fraction(0)),
        4: (3, -5, Fraction(0)),
    }
    anne, chloe = seat_player(table_of_4, 1), seat_player(table_of_4, 3)
    standings = tournament_standings_of(table_of_4.tournament)
    assert standings[anne.pk] == (1, Fraction(4), 5)
    assert standings[chloe.pk] == (1, Fraction(4), 5)


def all_standings(tournament):
    poules = {
        (line.poule_id, line.player_id): (
            *(line.seat, line.rank, line.tied),
            *(line.game_points, line.tournament_points),
        )
        for line in PouleStanding.objects.filter(poule__tournament=tournament)
    }
    night = {
        line.player_id: (
            *(line.rank, line.tied, line.tournament_points, line.points_units),
            *(line.game_points, line.poules_played, line.poules_won),
        )
        for line in TournamentStanding.objects.filter(tournament=tournament)
    }
    return poules, night


def test_deals_recorded_one_by_one_leave_the_standings_of_the_night_summed_whole(tournament):
    # Each deal writes only the lines it changed: what is stored is what summing the whole
    # night again gives, ties and shared points included.
    rng = random.Random(7)
    tables = [PouleFactory(tournament=tournament, round=1, table=n, size=4) for n in (1, 2, 3)]
    tables.append(PouleFactory(tournament=tournament, round=1, table=4, size=5))
    for _ in range(8):
        for poule in tables:
            seats = [str(n) for n in range(1, poule.seats.count() + 1)]
            if len(seats) == 5:
                # At five, the dealer's seat sits out: the next deal among the other four.
                dealer = poule.deals.filter(counted=True).count() % 5
                seats = [seat for index, seat in enumerate(seats) if index != dealer]
            deal_record(poule, random_deal(rng, seats))
        assert_standings_summed_whole(tournament)


def assert_standings_summed_whole(tournament):
    recorded = all_standings(tournament)
    tournament_standings_update(tournament)
    assert all_standings(tournament) == recorded


@pytest.mark.parametrize(
    ("poule_fixture", "refused_deal", "place", "reason"),
    [
        (
            "table_of_4",
            {**EMBALLAGE_1_3_MADE, "tricks": 14},
            "deals[2].tricks: ",
            "14 is outside 0..13",
        ),
        (
            "table_of_4",
            {"contract": "solo", "bid": 6, "declarers": ["5"], "tricks": 7},
            "deals[2].declarers: ",
            "is not at this table",
        ),
        (
            # Two deals played: the third is dealt by seat 3, the mort.
            "table_of_5",
            {"contract": "solo", "bid": 6, "declarers": ["3"], "tricks": 7},
            "deals[2].declarers: ",
            "seat 3 is the mort",
        ),
    ],
    ids=["tricks-14", "declarer-not-at-the-table", "the-mort-declares"],
)
def test_a_refused_deal_names_its_place_and_changes_nothing(
    request, poule_fixture, refused_deal, place, reason
):
    poule = request.getfixturevalue(poule_fixture)
    deals_record(
        poule,
        [
            {"contract": "emballage", "bid": 8, "declarers": ["2", "4"], "tricks": 9},
            {"contract": "solo", "bid": 6, "declarers": ["4"], "tricks": 5},
        ],
    )
    before = (sheet(poule), poule_standings(poule), tournament_standings_of(poule.tournament))

    with pytest.raises(ValidationError) as refused:
        deal_record(poule, refused_deal)

    [message] = refused.value.messages
    assert message.startswith(place)
    assert reason in message
    assert (
        sheet(poule),
        poule_standings(poule),
        tournament_standings_of(poule.tournament),
    ) == before


def test_a_refused_deal_among_several_records_none_of_them(table_of_4):
    with pytest.raises(ValidationError) as refused:
        deals_record(table_of_4, [EMBALLAGE_1_3_MADE, {**SOLO_2_DOWN, "bid": 12}, PASS])

    assert refused.value.messages[0].startswith("deals[1].bid:")
    assert not table_of_4.deals.exists()
    assert not PouleStanding.objects.filter(poule=table_of_4).exists()


def test_a_corrected_deal_updates_its_points_and_every_standing(table_of_4):
    first = deal_record(table_of_4, EMBALLAGE_1_3_MADE)
    deal_record(table_of_4, SOLO_3_MADE)

    deal_correct(first, EMBALLAGE_1_3_DOWN)

    first.refresh_from_db()
    assert first.data == EMBALLAGE_1_3_DOWN
    assert first.points == [-8, 8, -8, 8]
    # Seats 2 and 4: 8 - 3 = 5, tied first; seat 3: -8 + 9 = 1, third and positive;
    # seat 1: -8 - 3 = -11.
    assert poule_standings(table_of_4) == {
        2: (1, 5, Fraction(4)),
        4: (1, 5, Fraction(4)),
        3: (3, 1, Fraction(1)),
        1: (4, -11, Fraction(0)),
    }
    standings = tournament_standings_of(table_of_4.tournament)
    assert standings[seat_player(table_of_4, 2).pk] == (1, Fraction(4), 5)
    assert standings[seat_player(table_of_4, 3).pk] == (3, Fraction(1), 1)
    assert standings[seat_player(table_of_4, 1).pk] == (4, Fraction(0), -11)


def test_a_refused_correction_leaves_the_deal_as_it_was(table_of_4):
    deal = deal_record(table_of_4, EMBALLAGE_1_3_MADE)
    before = (sheet(table_of_4), poule_standings(table_of_4))

    with pytest.raises(ValidationError, match=r"deals\[0\]\.tricks"):
        deal_correct(deal, {**EMBALLAGE_1_3_MADE, "tricks": 14})

    assert (sheet(table_of_4), poule_standings(table_of_4)) == before


def test_correcting_a_deal_into_a_pass_moves_the_later_dealers(table_of_4):
    first, *_ = deals_record(table_of_4, [EMBALLAGE_1_3_MADE, SOLO_2_DOWN, SOLO_3_MADE])

    deal_correct(first, PASS)

    assert [dealer for *_, dealer in sheet(table_of_4)] == [1, 1, 2]
    first.refresh_from_db()
    assert first.points == [0, 0, 0, 0]
    assert not first.counted


def test_deleting_a_deal_renumbers_the_later_deals(table_of_4):
    _, second, third = deals_record(table_of_4, [EMBALLAGE_1_3_MADE, SOLO_2_DOWN, SOLO_3_MADE])

    deal_delete(second)

    assert [(number, data) for number, data, *_ in sheet(table_of_4)] == [
        (1, EMBALLAGE_1_3_MADE),
        (2, SOLO_3_MADE),
    ]
    # The former third deal is now dealt by seat 2.
    third.refresh_from_db()
    assert (third.position, third.dealer) == (2, 2)
    # Seat 3 keeps 5 from the emballage and 9 from the solo.
    assert poule_standings(table_of_4)[3] == (1, 14, Fraction(5))


def test_deleting_the_last_deal_empties_the_standings_points(table_of_4):
    deal = deal_record(table_of_4, EMBALLAGE_1_3_MADE)

    deal_delete(deal)

    assert not table_of_4.deals.exists()
    assert {line.game_points for line in PouleStanding.objects.filter(poule=table_of_4)} <= {0}


def test_deleting_a_deal_that_would_make_a_later_declarer_the_mort_is_refused(table_of_5):
    # Dealers 1, 2, 3: seat 3 is the mort of the third deal. Without the first deal, seat 2
    # would deal it and seat 3 would not be the mort, but seat 2 declares it.
    first, *_ = deals_record(
        table_of_5,
        [
            {"contract": "emballage", "bid": 8, "declarers": ["2", "4"], "tricks": 9},
            {"contract": "solo", "bid": 6, "declarers": ["4"], "tricks": 7},
            {"contract": "solo", "bid": 6, "declarers": ["2"], "tricks": 7},
        ],
    )
    before = (sheet(table_of_5), poule_standings(table_of_5))

    with pytest.raises(ValidationError) as refused:
        deal_delete(first)

    [message] = refused.value.messages
    assert message.startswith("deals[1].declarers: ")
    assert "seat 2 is the mort" in message
    assert (sheet(table_of_5), poule_standings(table_of_5)) == before


def test_correcting_a_deal_into_a_pass_that_makes_a_later_declarer_the_mort_is_refused(
    table_of_5,
):
    first, _ = deals_record(
        table_of_5,
        [
            {"contract": "emballage", "bid": 8, "declarers": ["2", "4"], "tricks": 9},
            {"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 7},
        ],
    )
    before = (sheet(table_of_5), poule_standings(table_of_5))

    # After a pass, seat 1 deals again and sits the second deal out.
    with pytest.raises(ValidationError, match=r"deals\[1\]\.declarers: seat 1 is the mort"):
        deal_correct(first, PASS)

    assert (sheet(table_of_5), poule_standings(table_of_5)) == before


@pytest.fixture
def closed_night(tournament, table_of_4, django_capture_on_commit_callbacks):
    deal_record(table_of_4, EMBALLAGE_1_3_MADE)
    with django_capture_on_commit_callbacks(execute=True):
        return tournament_close(tournament, unfinished_ok=True)


def test_a_closed_night_refuses_new_deals(closed_night, table_of_4):
    with pytest.raises(ValidationError, match="clôturée"):
        deal_record(table_of_4, SOLO_3_MADE)
    assert table_of_4.deals.count() == 1


def test_a_closed_night_refuses_corrections_and_deletions(closed_night, table_of_4):
    deal = table_of_4.deals.get()

    with pytest.raises(ValidationError, match="clôturée"):
        deal_correct(deal, EMBALLAGE_1_3_DOWN)
    with pytest.raises(ValidationError, match="clôturée"):
        deal_delete(deal)

    deal.refresh_from_db()
    assert deal.data == EMBALLAGE_1_3_MADE


def test_a_closed_night_refuses_new_tables(closed_night):
    with pytest.raises(ValidationError, match="clôturée"):
        poule_create(
            closed_night,
            round=2,
            table=1,
            players=PlayerFactory.create_batch(4, club=closed_night.club),
        )


def test_a_closed_night_cannot_be_closed_again(closed_night):
    with pytest.raises(ValidationError):
        tournament_close(closed_night, unfinished_ok=True)


def test_a_night_without_deals_cannot_be_closed(tournament, table_of_4):
    with pytest.raises(ValidationError):
        tournament_close(tournament, unfinished_ok=True)

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING


def by_name(player):
    # The club's order (« Béatrice » before « Bruno »), not the code points' (é after r).
    return (name_sorted(player.display_name), player.pk)


def test_closing_a_night_computes_the_season_ranking(
    tournament, table_of_4, django_capture_on_commit_callbacks
):
    deal_record(table_of_4, EMBALLAGE_1_3_MADE)

    with django_capture_on_commit_callbacks(execute=True):
        tournament_close(tournament, unfinished_ok=True)

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CLOSED
    ranking = RankingSnapshot.objects.get(season=tournament.season, published_at__isnull=True)
    assert ranking.tournaments == 1
    lines = [
        (line.player, line.rank, line.tournament_points, line.tournaments_played)
        for line in ranking.lines.order_by("position")
    ]
    anne, bruno, chloe, didier = (seat_player(table_of_4, n) for n in (1, 2, 3, 4))
    # Tied players are listed by name.
    first, second = sorted([anne, chloe], key=by_name), sorted([bruno, didier], key=by_name)
    assert lines == [
        (first[0], 1, Fraction(4), 1),
        (first[1], 1, Fraction(4), 1),
        (second[0], 3, Fraction(0), 1),
        (second[1], 3, Fraction(0), 1),
    ]


def test_the_season_ranking_counts_only_closed_nights(closed_night, club, season, point_table):
    running = night_started(TournamentFactory(club=club, season=season, point_table=point_table))
    deal_record(PouleFactory(tournament=running), EMBALLAGE_1_3_MADE)

    ranking = RankingSnapshot.objects.get(season=season, published_at__isnull=True)
    assert ranking.tournaments == 1
    assert ranking.lines.count() == 4


def test_reopening_a_night_takes_it_out_of_the_ranking_until_it_closes_again(
    closed_night, table_of_4, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        tournament_reopen(closed_night)
    ranking = RankingSnapshot.objects.get(season=closed_night.season, published_at__isnull=True)
    assert ranking.tournaments == 0
    assert not ranking.lines.exists()

    deal_correct(table_of_4.deals.get(), EMBALLAGE_1_3_DOWN)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_close(closed_night, unfinished_ok=True)

    ranking = RankingSnapshot.objects.get(season=closed_night.season, published_at__isnull=True)
    assert ranking.tournaments == 1
    winners = {line.player for line in ranking.lines.filter(rank=1)}
    assert winners == {seat_player(table_of_4, 2), seat_player(table_of_4, 4)}


def test_a_season_without_a_closed_night_has_no_ranking_to_publish(tournament, table_of_4):
    deal_record(table_of_4, EMBALLAGE_1_3_MADE)

    with pytest.raises(ValidationError, match="Aucune soirée clôturée"):
        ranking_publish(tournament.season)

    assert not RankingSnapshot.objects.filter(season=tournament.season).exists()


def test_closing_queues_the_ranking_and_the_results_by_their_tasks_names(
    tournament, table_of_4, django_capture_on_commit_callbacks
):
    deal_record(table_of_4, EMBALLAGE_1_3_MADE)
    with django_capture_on_commit_callbacks() as callbacks:
        tournament_close(tournament, unfinished_ok=True)
    queued = sorted(callback.args[0] for callback in callbacks)
    assert queued == sorted(
        [TaskName.SEASON_RANKING_UPDATE, TaskName.RESULTS_EMAIL, TaskName.RATINGS_UPDATE]
    )
    app.loader.import_default_modules()
    assert {TaskName.SEASON_RANKING_UPDATE, TaskName.RESULTS_EMAIL, TaskName.RATINGS_UPDATE} <= set(
        app.tasks
    )


def test_the_counted_nights_are_the_closed_and_published_ones(club, season, point_table):
    for status, _label in Tournament.Status.choices:
        night = TournamentFactory(club=club, season=season, point_table=point_table)
        Tournament.objects.filter(pk=night.pk).update(status=status)

    counted = Tournament.objects.filter(season=season).counted()

    assert sorted(t.status for t in counted) == ["closed", "published"]
    assert all(t.is_locked for t in counted)
