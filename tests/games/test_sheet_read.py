"""The score sheet's one read (games/sheet_read.py): a poule's seats in seat order with their
players, the one poule and night on every seat, the viewer's role in the club; nothing for a
poule asked under another night's or club's address."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.sheet_read import sheet_seats

pytestmark = pytest.mark.django_db


def test_a_poules_seats_come_in_seat_order_with_the_scorers_role_in_one_query(
    running_night, scorer
):
    poule = running_night.poules.get(round=1, table=1)
    slug = running_night.club.slug
    with CaptureQueriesContext(connection) as queries:
        seats, role = sheet_seats(scorer, slug, running_night.pk, poule.pk)
        players = [seat.player.pk for seat in seats]
        club = seats[-1].poule.tournament.club
    assert len(queries) == 1
    assert [seat.number for seat in seats] == list(range(1, len(seats) + 1))
    assert players == [seat.player_id for seat in poule.seats.order_by("number")]
    assert {id(seat.poule) for seat in seats} == {id(seats[0].poule)}
    assert (club, role) == (running_night.club, "scorer")


def test_a_visitor_has_no_role(running_night):
    poule = running_night.poules.get(round=1, table=1)
    seats, role = sheet_seats(AnonymousUser(), running_night.club.slug, running_night.pk, poule.pk)
    assert seats and role is None


def test_a_poule_asked_under_another_nights_or_clubs_address_has_no_seat(running_night, scorer):
    poule = running_night.poules.get(round=1, table=1)
    slug = running_night.club.slug
    assert sheet_seats(scorer, slug, running_night.pk + 1, poule.pk) == ([], None)
    assert sheet_seats(scorer, f"{slug}-autre", running_night.pk, poule.pk) == ([], None)
