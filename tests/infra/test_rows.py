"""The import's raw writer (``infra.rows.rows_insert``: COPY on PostgreSQL) stores the rows the
ORM stores (``bulk_create``, each field's ``pre_save`` applied): same values, read back alike.
On SQLite both paths are the ORM's; the test earns its keep on PostgreSQL."""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace

import pytest
from django.db import connection
from django.utils import timezone

from club.models import Club, Season
from games.models import Deal, Poule
from infra.rows import STALE_ROWS, rows_insert, statistics_sent, tables_analysed
from scoring.models import TournamentStanding
from scoring.services.sheets import (
    NIGHT_STANDING_COLUMNS,
    night_standing_line,
    night_standing_row,
)
from tests.factories import ClubFactory, PouleFactory, TournamentFactory

pytestmark = pytest.mark.django_db

# What a deal's data may hold that COPY's text format escapes (a tab, a line end, a
# backslash) or that JSON writes its own way (quotes, accents, a non-Latin letter).
AWKWARD = {"contract": "trou\tà\\deux\n", "note": 'il a dit "passe"\r', "name": "Ærø ß Ж"}


def _engine_lines(players: list) -> list[SimpleNamespace]:
    # Three tied second (4/3 each) beside a whole winner: points in thirds and in units.
    points = [Fraction(4), Fraction(4, 3), Fraction(4, 3), Fraction(4, 3)]
    return [
        SimpleNamespace(
            player=player.pk,
            rank=1 if index == 0 else 2,
            tied=index > 0,
            tournament_points=value,
            game_points=40 - 13 * index,
            poules_played=1,
            poules_won=1 if index == 0 else 0,
        )
        for index, (player, value) in enumerate(zip(players, points, strict=True))
    ]


def _stored_standings(tournament) -> list[tuple]:
    return list(
        TournamentStanding.objects.filter(tournament=tournament)
        .order_by("player_id")
        .values_list(*NIGHT_STANDING_COLUMNS[1:])
    )


def test_a_nights_standings_copied_are_those_the_orm_stores_points_in_units_included():
    poule = PouleFactory()
    players = [seat.player for seat in poule.seats.order_by("number")]
    lines = _engine_lines(players)
    copied = poule.tournament
    saved = TournamentFactory(club=copied.club, season=copied.season, date=copied.date)
    rows_insert(
        TournamentStanding,
        NIGHT_STANDING_COLUMNS,
        [night_standing_row(copied.pk, line) for line in lines],
    )
    TournamentStanding.objects.bulk_create([night_standing_line(saved.pk, line) for line in lines])
    stored = _stored_standings(copied)
    assert stored == _stored_standings(saved)
    # 4 points and 4/3 in 1/420 points: COPY's units are those the field's pre_save writes.
    assert sorted(row[4] for row in stored) == [560, 560, 560, 1680]


def test_a_deal_copied_is_the_deal_the_orm_stores_awkward_text_included():
    poule = PouleFactory()
    other = Poule.objects.get(pk=PouleFactory(tournament=poule.tournament, table=2).pk)
    columns = ("poule_id", "position", "data", "dealer", "points", "counted", "client_digest")
    values = (1, AWKWARD, None, [7, -7, 0, 0], True, "")
    # COPY names every column without a database default: the time too (the ORM's is its own).
    rows_insert(Deal, (*columns, "recorded_at"), [(poule.pk, *values, timezone.now())])
    Deal.objects.bulk_create([Deal(**dict(zip(columns, (other.pk, *values), strict=True)))])
    fields = columns[1:]
    copied = Deal.objects.filter(poule=poule).values_list(*fields).get()
    saved = Deal.objects.filter(poule=other).values_list(*fields).get()
    assert copied == saved == values


@pytest.mark.parametrize(
    ("data", "read_back"),
    [
        # Past 64 bits: orjson refuses it, json writes it.
        ({"tricks": 2**70}, {"tricks": 2**70}),
        # A key that is not text: json writes it as text.
        ({1: "un", "2": [True, None, 1.5]}, {"1": "un", "2": [True, None, 1.5]}),
    ],
)
def test_a_json_value_orjson_refuses_is_copied_as_the_orm_stores_it(data, read_back):
    """COPY's JSON goes by orjson when it can (``infra.rows.copy_value``); what it refuses goes
    by ``json`` as before: stored as the ORM stores it."""
    poule = PouleFactory()
    other = Poule.objects.get(pk=PouleFactory(tournament=poule.tournament, table=2).pk)
    columns = ("poule_id", "position", "data", "dealer", "points", "counted", "client_digest")
    values = (1, data, None, [0, 0, 0, 0], True, "")
    rows_insert(Deal, (*columns, "recorded_at"), [(poule.pk, *values, timezone.now())])
    Deal.objects.bulk_create([Deal(**dict(zip(columns, (other.pk, *values), strict=True)))])
    copied = Deal.objects.get(poule=poule).data
    saved = Deal.objects.get(poule=other).data
    assert copied == saved == read_back


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's statistics")
@pytest.mark.django_db(transaction=True)
def test_only_the_tables_changed_by_a_tenth_since_their_analysis_are_analysed_again():
    tables_analysed([Club, Season])
    ClubFactory.create_batch(STALE_ROWS + 10)
    statistics_sent()

    assert tables_analysed([Club, Season]) == [Club._meta.db_table]
    statistics_sent()
    # Just analysed, and the seasons untouched: nothing to do.
    assert tables_analysed([Club, Season]) == []
    # A few rows more than a table of hundreds held: still fresh enough.
    ClubFactory.create_batch(3)
    statistics_sent()
    assert tables_analysed([Club]) == []
