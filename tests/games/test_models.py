"""The draw's rules hold in the services and, where a row could break them, in the database."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from games.models import Deal, Poule, Seat
from games.services import poule_create
from scoring.services import deal_record
from tests.factories import PlayerFactory, PouleFactory, TournamentFactory

pytestmark = pytest.mark.django_db

PASS = {"contract": "pass"}


@pytest.fixture
def tournament(club, season, point_table):
    return TournamentFactory(club=club, season=season, point_table=point_table)


def test_a_player_at_two_tables_of_one_round_is_refused_by_the_draw(tournament):
    table_1 = PouleFactory(tournament=tournament, round=1, table=1)
    anne = table_1.seats.get(number=1).player
    others = PlayerFactory.create_batch(3, club=tournament.club)

    with pytest.raises(ValidationError) as refused:
        poule_create(tournament, round=1, table=2, players=[*others, anne])

    assert refused.value.messages == [f"{anne} est déjà assis à une autre table du tour 1."]
    assert Poule.objects.filter(tournament=tournament).count() == 1
    assert not Seat.objects.filter(player__in=others).exists()


def test_a_player_at_two_tables_of_one_round_is_refused_by_the_database(tournament):
    table_1 = PouleFactory(tournament=tournament, round=1, table=1)
    table_2 = PouleFactory(tournament=tournament, round=1, table=2)
    anne = table_1.seats.get(number=1).player

    with transaction.atomic(), pytest.raises(IntegrityError):
        Seat.objects.create(poule=table_2, player=anne, number=5, tournament=tournament, round=1)


def test_a_player_may_play_every_round_of_the_night(tournament):
    players = PlayerFactory.create_batch(4, club=tournament.club)

    for round_no in (1, 2, 3):
        poule_create(tournament, round=round_no, table=1, players=players)

    assert Seat.objects.filter(player=players[0], tournament=tournament).count() == 3


def test_two_seats_of_a_table_cannot_share_a_number(tournament):
    poule = PouleFactory(tournament=tournament, round=1, table=1)

    with transaction.atomic(), pytest.raises(IntegrityError):
        Seat.objects.create(
            poule=poule, player=PlayerFactory(), number=2, tournament=tournament, round=1
        )


def test_two_deals_of_a_table_cannot_share_a_place(tournament):
    poule = PouleFactory(tournament=tournament)
    deal_record(poule, PASS)

    with transaction.atomic(), pytest.raises(IntegrityError):
        Deal.objects.create(poule=poule, position=1, data=PASS)


def test_two_tables_of_a_round_cannot_share_a_number(tournament):
    PouleFactory(tournament=tournament, round=1, table=1)

    with pytest.raises(ValidationError, match="existe déjà dans ce tour"):
        PouleFactory(tournament=tournament, round=1, table=1)


@pytest.mark.parametrize("size", [3, 6])
def test_a_belgian_whist_table_of_other_than_4_or_5_is_refused(tournament, size):
    with pytest.raises(ValidationError) as refused:
        PouleFactory(tournament=tournament, size=size)

    assert refused.value.messages == [f"Une table compte de 4 à 5 joueurs, pas {size}."]
    assert not Poule.objects.filter(tournament=tournament).exists()


@pytest.mark.parametrize("size", [4, 5])
def test_a_table_of_4_or_5_is_seated_in_the_given_order(tournament, size):
    players = PlayerFactory.create_batch(size, club=tournament.club)

    poule = poule_create(tournament, round=1, table=1, players=players)

    assert [seat.player for seat in poule.seats.order_by("number")] == players


def test_a_round_beyond_the_nights_rounds_is_refused(tournament):
    assert tournament.rounds == 3

    with pytest.raises(ValidationError) as refused:
        PouleFactory(tournament=tournament, round=4)

    assert refused.value.messages == ["La soirée compte 3 tours : pas de tour 4."]
    assert not Poule.objects.filter(tournament=tournament).exists()


def test_a_seat_number_beyond_5_is_refused_by_the_database(tournament):
    poule = PouleFactory(tournament=tournament)

    with transaction.atomic(), pytest.raises(IntegrityError):
        Seat.objects.create(
            poule=poule, player=PlayerFactory(), number=6, tournament=tournament, round=1
        )
