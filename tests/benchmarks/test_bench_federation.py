"""``manage.py bench federation`` at a tiny size: what it prints, and the rows its generator
writes (each generated night's standings are what the services store when its deals are
recorded on the score sheet). Never a time asserted: the machine decides those."""

import datetime
import io
import os

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from benchmarks import federation_load
from benchmarks.federation_data import DEALS, TABLE, generate
from club.models import Membership
from games.models import Tournament
from games.services import poule_create, presence_set, tournament_create
from scoring.models import FederationRanking
from scoring.services import deal_record
from tests.factories import night_started


@pytest.mark.django_db(transaction=True)
def test_the_federation_bench_prints_each_figure_at_a_tiny_size():
    out = io.StringIO()

    call_command(
        "bench",
        "federation",
        "--clubs",
        "2",
        "--seasons",
        "1",
        "--nights",
        "10",
        "--deals",
        "3",
        "--scorers",
        "0",
        stdout=out,
    )

    printed = out.getvalue()
    assert "record a deal (deal_record), empty database: p50 " in printed
    assert "generated 2 clubs × 1 seasons × 10 nights in " in printed
    assert (
        "rows: clubs 2, players 48, seasons 2, nights 20, inter-club nights 2, presences 160, "
        "poules 40, seats 160, deals " in printed
    )
    assert "stored standings of 5 generated nights scored again by the engine: identical" in (
        printed
    )
    assert "record a deal (deal_record), 20 nights generated: p50 " in printed
    assert "full / empty: p50 " in printed
    assert "federation ranking task, season " in printed
    assert "2 nights of 2 clubs" in printed  # the championship counts its inter-club nights
    assert "20 nights of 2 clubs" in printed  # the season counting every night of its clubs
    assert "public page /federations/ligue-banc/" in printed or "ranking read instead" in printed
    assert "load test: skipped (--scorers 0)" in printed
    assert "goals (printed, never asserted):" in printed


@pytest.mark.skipif(connection.vendor == "postgresql", reason="the refusal is SQLite's")
def test_the_federation_bench_refuses_sqlite_at_a_federations_scale():
    with pytest.raises(CommandError, match="measured on PostgreSQL only: set DATABASE_URL"):
        call_command("bench", "federation")


def _replayed(night: Tournament) -> Tournament:
    """The generated night played again through the services: the same players at the same
    seats, each stored deal recorded on the score sheet as a scorer would."""
    again = tournament_create(
        club=night.club,
        season=night.season,
        date=night.date + datetime.timedelta(days=1),
        game="belgian_whist",
        point_table=night.point_table,
        rounds=1,
        federation_season=night.federation_season,
    )
    presence_set(again, list(night.present.all()))
    night_started(again)
    for poule in night.poules.order_by("table"):
        players = [seat.player for seat in poule.seats.order_by("number")]
        replay = poule_create(again, round=1, table=poule.table, players=players)
        for deal in poule.deals.order_by("position"):
            deal_record(replay, deal.data)
    return again


def _poule_lines(night: Tournament) -> list[tuple]:
    return sorted(
        (table, player, seat, rank, tied, game_points, str(points))
        for table, player, seat, rank, tied, game_points, points in night.poules.values_list(
            "table",
            "standings__player",
            "standings__seat",
            "standings__rank",
            "standings__tied",
            "standings__game_points",
            "standings__tournament_points",
        )
    )


def _night_lines(night: Tournament) -> list[tuple]:
    return sorted(
        night.standings.values_list(
            "player",
            "rank",
            "tied",
            "tournament_points",
            "points_units",
            "game_points",
            "poules_played",
            "poules_won",
        )
    )


@pytest.mark.django_db
def test_generated_nights_store_what_the_services_store_for_their_deals():
    generated = generate(7, lambda line: None, clubs=2, seasons=1, nights=10)

    nights = Tournament.objects.filter(club__in=generated.clubs)
    assert nights.count() == 20
    assert set(nights.values_list("status", flat=True)) == {Tournament.Status.PUBLISHED}
    interclub = nights.exclude(federation_season=None)
    assert interclub.count() == 2  # the tenth night of each club
    for night in [nights.filter(federation_season=None).first(), interclub.first()]:
        assert night.present.count() == 2 * TABLE
        for poule in night.poules.all():
            assert poule.deals.filter(counted=True).count() == DEALS == poule.counted_deals
        again = _replayed(night)
        assert _poule_lines(again) == _poule_lines(night)
        assert _night_lines(again) == _night_lines(night)
    # Visitors play the inter-club night without joining the host club.
    night = interclub.first()
    members = set(Membership.objects.filter(club=night.club).values_list("player", flat=True))
    visitors = set(night.present.values_list("pk", flat=True)) - members
    assert len(visitors) == TABLE
    ranking = FederationRanking.objects.get(season=generated.every_night)
    assert (ranking.tournaments, ranking.clubs) == (20, 2)
    assert FederationRanking.objects.get(season=generated.championship[-1]).tournaments == 2


def test_the_physical_limit_shares_the_deals_cpu_among_the_cores_the_workers_can_use():
    cores = os.cpu_count() or 1
    assert federation_load.physical_limit_ms(25.0, 200, 1) == 5000.0
    assert federation_load.physical_limit_ms(25.0, 200, 64) == 5000.0 / min(64, cores)


def test_the_workers_cpu_is_read_from_their_parent():
    # This test's process is a child of its parent: its CPU time counts among the children's.
    sum(range(2_000_000))
    assert federation_load.workers_cpu_seconds(os.getppid()) >= os.times().user * 0.5
