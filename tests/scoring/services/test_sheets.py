"""The night's locked read (scoring/services/sheets.py, ``night_locked``): after every deal,
one query gives the night's state, each poule's history count, every standing line of the
night once and the poule's own deals in playing order, as the separate reads gave them."""

import pytest
from django.db import transaction

from scoring import services
from scoring.models import PouleStanding
from scoring.services.sheets import night_lines, night_locked

pytestmark = pytest.mark.django_db

SOLO = {"contract": "solo", "bid": 6, "declarers": ["3"], "tricks": 7}
PASS = {"contract": "pass"}
EMBALLAGE = {"contract": "emballage", "bid": 8, "declarers": ["2", "4"], "tricks": 9}


def test_the_locked_read_brings_the_poules_deals_and_each_line_once(
    running_night, django_assert_num_queries
):
    first, second = running_night.poules.filter(round=1).order_by("table")
    for data in (SOLO, EMBALLAGE, PASS, SOLO):
        services.deal_record(first, data)
    services.deal_record(second, EMBALLAGE)
    with transaction.atomic(), django_assert_num_queries(1):
        status, corrections, lines, deals = night_locked(running_night, poule=first)
    assert status == running_night.Status.RUNNING
    assert corrections == {first.pk: 0, second.pk: 0}
    # Each standing line once, in the order the night's standings read them.
    assert lines == night_lines(running_night)
    assert len(lines) == first.seats.count() + second.seats.count()
    # The poule's own deals, as stored, in playing order; none of the other poule's.
    stored = list(first.deals.order_by("position"))
    assert [deal.pk for deal in deals] == [deal.pk for deal in stored]
    for read, deal in zip(deals, stored, strict=True):
        assert (read.position, read.data, read.points, read.dealer, read.counted) == (
            deal.position,
            deal.data,
            deal.points,
            deal.dealer,
            deal.counted,
        )
        assert read.poule is first


def test_a_poule_without_deals_yet_is_read_with_none(running_night):
    first, second = running_night.poules.filter(round=1).order_by("table")
    services.deal_record(second, SOLO)
    with transaction.atomic():
        _status, corrections, lines, deals = night_locked(running_night, poule=first)
    assert deals == [] and first.pk in corrections
    assert {line.poule_id for line in lines} == {second.pk}


def test_a_poule_whose_lines_lack_seat_1_has_its_deals_read_apart(running_night):
    first = running_night.poules.filter(round=1).order_by("table").first()
    for data in (SOLO, EMBALLAGE):
        services.deal_record(first, data)
    PouleStanding.objects.filter(poule=first, seat=1).update(seat=5)
    with transaction.atomic():
        _status, _corrections, _lines, deals = night_locked(running_night, poule=first)
    assert [deal.pk for deal in deals] == list(
        first.deals.order_by("position").values_list("pk", flat=True)
    )
    assert len(deals) == 2
