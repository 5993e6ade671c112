"""Two club admins at once, on PostgreSQL (row locks; SQLite runs one writer at a time): two
admins demoting each other, two saves of the same point table. Each run ends with one done and
the other refused in words — never a deadlock, never a server error."""

from __future__ import annotations

import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from club import services
from club.models import Membership
from club.services import members as member_services
from games import point_tables
from games.models import PointTable
from games.services import point_table_for_preset
from tests.conftest import persona
from tests.factories import ClubFactory
from tests.scoring.services.test_draw import at_once

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("row locks and deadlocks are PostgreSQL's; SQLite runs one writer at a time")


def test_two_admins_demoting_each_other_at_once_leave_one_admin(monkeypatch):
    real = member_services._admins_left
    meet = threading.Barrier(2)

    def both_inside(club, but):
        # Each admin's change reaches the count of admins left with its own membership locked
        # when nothing orders them: the order in which the two would then deadlock.
        try:
            meet.wait(timeout=2)
        except threading.BrokenBarrierError:
            pass  # the club's lock made the other wait outside: no meeting, as it should be
        return real(club, but)

    monkeypatch.setattr(member_services, "_admins_left", both_inside)
    for run in range(2):
        meet.reset()
        club = ClubFactory(name=f"Cercle {run}")
        first = persona(club, f"first-{run}", Membership.Role.ADMIN)
        second = persona(club, f"second-{run}", Membership.Role.ADMIN)
        mine, yours = (Membership.objects.get(club=club, player__user=u) for u in (first, second))

        outcomes = at_once(
            lambda m=mine: services.role_set(m, Membership.Role.MEMBER),
            lambda m=yours: services.membership_end(m, m.start),
        )

        assert sorted(outcomes) == ["done", "refused"], outcomes
        left = Membership.objects.admins().filter(club=club)
        assert left.count() == 1


def test_two_first_saves_of_a_shared_table_at_once_make_one_version(monkeypatch):
    shared = point_table_for_preset("rcwhist")
    real_save = PointTable.save
    meet = threading.Barrier(2)
    refusals: list[str] = []

    def both_writing(table, *args, **kwargs):
        # Both saves reach the insert of the club's version 2 together when nothing orders
        # them: the second then breaks the unique version (a server error).
        if table.pk is None and table.club_id is not None:
            try:
                meet.wait(timeout=2)
            except threading.BrokenBarrierError:
                pass  # the table's lock made the other wait: no meeting, as it should be
        return real_save(table, *args, **kwargs)

    monkeypatch.setattr(PointTable, "save", both_writing)
    for run in range(2):
        meet.reset()
        club = ClubFactory(name=f"Cercle {run}")

        def save(tricks, club=club):
            points = shared.data["rows"][0]["declarer"][tricks] + 1
            data = point_tables.grid_with(shared.data, {(0, tricks): (points, -points)})
            try:
                point_tables.point_table_club_save(club, shared, data)
            except ValidationError as refused:
                refusals.extend(refused.messages)
                raise

        outcomes = at_once(lambda: save(12), lambda: save(13))

        assert sorted(outcomes) == ["done", "refused"], outcomes
        assert "a changé depuis que vous l'avez ouvert" in refusals[-1]
        assert club.point_tables.count() == 1
