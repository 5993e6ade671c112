"""The score sheet's two plain statements (games/sheet_sql.py), on PostgreSQL: each returns
what the ORM's query of the same rows returns (``sheet_read.poule_seats_orm``,
``sheets.night_rows_orm``), the role's rule included, so that a model's new column or a
changed rule cannot leave the statements behind."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection, transaction
from django.utils import timezone

from club.models import Membership
from games import sheet_sql
from games.sheet_read import poule_seats, poule_seats_orm
from scoring import services
from scoring.services.sheets import night_locked, night_rows_orm

pytestmark = pytest.mark.django_db

SOLO = {"contract": "solo", "bid": 6, "declarers": ["3"], "tricks": 7}
PASS = {"contract": "pass"}
EMBALLAGE = {"contract": "emballage", "bid": 8, "declarers": ["2", "4"], "tricks": 9}


@pytest.fixture(autouse=True)
def _postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the plain statements run on PostgreSQL only (elsewhere the ORM's query)")


def _fields(instance: Any, *, but: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        field.attname: getattr(instance, field.attname)
        for field in instance._meta.concrete_fields
        if field.attname not in but
    }


def _as_read(seats: list[Any]) -> list[list[dict[str, Any]]]:
    return [
        [
            _fields(seat),
            _fields(seat.player),
            _fields(seat.poule),
            _fields(seat.poule.tournament),
            _fields(seat.poule.tournament.club),
            # Its grid is left to load when asked (the next test).
            _fields(seat.poule.tournament.point_table, but=("data",)),
        ]
        for seat in seats
    ]


def test_the_seats_statement_reads_what_the_orm_reads_for_every_role(
    running_night, scorer, club_admin, member, outsider
):
    former = Membership.objects.get(player__user=member)
    poule = running_night.poules.get(round=1, table=2)  # the table of 5
    services.deal_record(poule, SOLO)
    for user in (scorer, club_admin, member, outsider, AnonymousUser()):
        read, role = poule_seats(user, poule.pk)
        by_orm, orm_role = poule_seats_orm(user, poule.pk)
        assert role == orm_role
        assert _as_read(read) == _as_read(by_orm)
        assert len(read) == 5 and {id(seat.poule) for seat in read} == {id(read[0].poule)}
    assert {poule_seats(user, poule.pk)[1] for user in (scorer, club_admin, member)} == {
        "scorer",
        "admin",
        "member",
    }
    # A former member has no role, as the ORM's rule says.
    Membership.objects.filter(pk=former.pk).update(end=timezone.localdate())
    assert poule_seats(member, poule.pk)[1] is None is poule_seats_orm(member, poule.pk)[1]


def test_the_point_tables_grid_is_read_when_asked_only(running_night):
    poule = running_night.poules.get(round=1, table=1)
    read, _role = poule_seats(AnonymousUser(), poule.pk)
    point_table = read[0].poule.tournament.point_table
    assert point_table.get_deferred_fields() == {"data"}
    assert point_table.data == running_night.point_table.data  # loaded on the first ask


def test_no_seat_and_no_role_for_a_poule_without_seats(running_night, scorer):
    assert poule_seats(scorer, 0) == ([], None) == poule_seats_orm(scorer, 0)


def _night_cases(night: Any) -> list[tuple[Any, bool]]:
    first, second = night.poules.filter(round=1).order_by("table")
    return [(None, False), (first, False), (second, False), (first, True), (second, True)]


def test_the_nights_statement_reads_what_the_orm_reads(running_night):
    first, second = running_night.poules.filter(round=1).order_by("table")
    # Before any deal (no standing line), then with deals at one table, then at both.
    for deals in ([], [(first, SOLO), (first, PASS)], [(second, EMBALLAGE), (first, SOLO)]):
        for poule, data in deals:
            services.deal_record(poule, data)
        for poule, lock in _night_cases(running_night):
            with transaction.atomic():
                rows = sheet_sql.night_rows(running_night.pk, poule and poule.pk, lock=lock)
                by_orm = [
                    tuple(row) for row in night_rows_orm(running_night, lock=lock, poule=poule)
                ]
            width = len(by_orm[0])
            assert [row[:width] for row in rows] == by_orm


def test_the_locked_read_hands_the_poules_deals_as_the_orm_makes_them(running_night):
    first = running_night.poules.filter(round=1).order_by("table").first()
    for data in (SOLO, EMBALLAGE, PASS):
        services.deal_record(first, data)
    with transaction.atomic():
        _status, _corrections, _lines, deals = night_locked(running_night, poule=first)
    stored = list(first.deals.order_by("position"))
    assert [_fields(deal) for deal in deals] == [_fields(deal) for deal in stored]
