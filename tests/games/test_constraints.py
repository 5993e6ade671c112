"""The draw's rules hold in the services and, where a row could break them, in the database."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from games.models import Deal, Poule, Seat
from games.services import deal_record, poule_create
from tests.factories import PlayerFactory, PouleFactory, TournamentFactory

pytestmark = pytest.mark.django_db

PASS = {"contract": "pass"}


@pytest.fixture
def night(club, season, point_table):
    return TournamentFactory(club=club, season=season, point_table=point_table)


def test_a_player_at_two_tables_of_one_round_is_refused_by_the_draw(night):
    table_1 = PouleFactory(tournament=night, round=1, table=1)
    anne = table_1.seats.get(number=1).player
    others = PlayerFactory.create_batch(3, club=night.club)

    with pytest.raises(ValidationError) as refused:
        poule_create(night, round=1, table=2, players=[*others, anne])

    assert refused.value.messages == [f"{anne} est déjà assis à une autre table du tour 1."]
    assert Poule.objects.filter(tournament=night).count() == 1
    assert not Seat.objects.filter(player__in=others).exists()


def test_a_player_at_two_tables_of_one_round_is_refused_by_the_database(night):
    table_1 = PouleFactory(tournament=night, round=1, table=1)
    table_2 = PouleFactory(tournament=night, round=1, table=2)
    anne = table_1.seats.get(number=1).player

    with transaction.atomic(), pytest.raises(IntegrityError):
        Seat.objects.create(poule=table_2, player=anne, number=5, tournament=night, round=1)


def test_a_player_may_play_every_round_of_the_night(night):
    players = PlayerFactory.create_batch(4, club=night.club)

    for round_no in (1, 2, 3):
        poule_create(night, round=round_no, table=1, players=players)

    assert Seat.objects.filter(player=players[0], tournament=night).count() == 3


def test_two_seats_of_a_table_cannot_share_a_number(night):
    poule = PouleFactory(tournament=night, round=1, table=1)

    with transaction.atomic(), pytest.raises(IntegrityError):
        Seat.objects.create(
            poule=poule, player=PlayerFactory(), number=2, tournament=night, round=1
        )


def test_two_deals_of_a_table_cannot_share_a_number(night):
    poule = PouleFactory(tournament=night)
    deal_record(poule, PASS)

    with transaction.atomic(), pytest.raises(IntegrityError):
        Deal.objects.create(poule=poule, number=1, data=PASS)


def test_two_tables_of_a_round_cannot_share_a_number(night):
    PouleFactory(tournament=night, round=1, table=1)

    with pytest.raises(ValidationError, match="existe déjà dans ce tour"):
        PouleFactory(tournament=night, round=1, table=1)


@pytest.mark.parametrize("size", [3, 6])
def test_a_belgian_whist_table_of_other_than_4_or_5_is_refused(night, size):
    with pytest.raises(ValidationError) as refused:
        PouleFactory(tournament=night, size=size)

    assert refused.value.messages == [f"Une table compte de 4 à 5 joueurs, pas {size}."]
    assert not Poule.objects.filter(tournament=night).exists()


@pytest.mark.parametrize("size", [4, 5])
def test_a_table_of_4_or_5_is_seated_in_the_given_order(night, size):
    players = PlayerFactory.create_batch(size, club=night.club)

    poule = poule_create(night, round=1, table=1, players=players)

    assert [seat.player for seat in poule.seats.order_by("number")] == players


def test_a_round_beyond_the_nights_rounds_is_refused(night):
    assert night.rounds == 3

    with pytest.raises(ValidationError) as refused:
        PouleFactory(tournament=night, round=4)

    assert refused.value.messages == ["La soirée compte 3 tours : pas de tour 4."]
    assert not Poule.objects.filter(tournament=night).exists()


def test_a_seat_number_beyond_5_is_refused_by_the_database(night):
    poule = PouleFactory(tournament=night)

    with transaction.atomic(), pytest.raises(IntegrityError):
        Seat.objects.create(
            poule=poule, player=PlayerFactory(), number=6, tournament=night, round=1
        )
