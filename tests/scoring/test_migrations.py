"""scoring 0007: the zeros an imported ranking was stored with where its table gave nothing
become unknown (NULL), and each import gets its record of the columns it read; a computed
ranking's zeros are real and stay. scoring 0012: each player's seasons summed from the night
lines already stored, as the service sums them; 0013 rewrites the cote once every column exists;
0015: the night lines get their poules and the summaries the list of the player's nights."""

from __future__ import annotations

import datetime
import random

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from games.demo import random_night
from games.models import Tournament
from games.nightfile import tournament_import
from scoring.models import PlayerNightStats, PlayerSeasonStats
from scoring.services import tournament_publish
from tests.factories import ClubFactory, PlayerFactory, SeasonFactory
from tests.games.test_migrations import migrate

BEFORE = ("scoring", "0006_federation_rankings")


def before_the_unknowns() -> list[tuple[str, str]]:
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    return [*(node for node in leaves if node[0] != "scoring"), BEFORE]


def snapshot(apps, season, *, imported: bool, nights: list[int]):
    Snapshot = apps.get_model("scoring", "RankingSnapshot")
    Line = apps.get_model("scoring", "RankingLine")
    now = timezone.now()
    made = Snapshot.objects.create(
        season_id=season.pk, computed_at=now, published_at=now, tournaments=12, imported=imported
    )
    for position, played in enumerate(nights, start=1):
        Line.objects.create(
            snapshot=made,
            player_id=PlayerFactory(club=season.club).pk,
            rank=position,
            position=position,
            tournament_points=10 * position,
            game_points=0,
            tournaments_played=played,
            tournaments_counted=played,
            tournaments_won=0,
        )
    return made.pk


@pytest.mark.django_db(transaction=True)
def test_an_imported_rankings_unknown_zeros_become_null_and_a_computed_ones_stay():
    old = migrate(before_the_unknowns())
    club = ClubFactory()
    with_nights = snapshot(old, SeasonFactory(club=club, year=2014), imported=True, nights=[12, 0])
    without = snapshot(old, SeasonFactory(club=club, year=2015), imported=True, nights=[0, 0])
    computed = snapshot(old, SeasonFactory(club=club, year=2016), imported=False, nights=[3, 0])

    latest = migrate()

    Snapshot = latest.get_model("scoring", "RankingSnapshot")
    Line = latest.get_model("scoring", "RankingLine")

    def lines(pk):
        return list(
            Line.objects.filter(snapshot_id=pk)
            .order_by("position")
            .values_list(
                "game_points", "tournaments_played", "tournaments_counted", "tournaments_won"
            )
        )

    assert lines(with_nights) == [(None, 12, 12, None), (None, None, None, None)]
    assert lines(without) == [(None, None, None, None)] * 2
    assert lines(computed) == [(0, 3, 3, 0), (0, 0, 0, 0)]
    columns = dict(Snapshot.objects.values_list("pk", "imported_columns"))
    assert columns[with_nights] == ["rank", "name", "points", "nights"]
    assert columns[without] == ["rank", "name", "points"]
    assert columns[computed] == []
    tournaments = dict(Snapshot.objects.values_list("pk", "tournaments"))
    assert (tournaments[with_nights], tournaments[without], tournaments[computed]) == (
        None,
        None,
        12,
    )

    # And back: the zeros the columns without NULL need.
    old = migrate(before_the_unknowns())
    back = old.get_model("scoring", "RankingLine").objects.filter(snapshot_id=without)
    assert set(back.values_list("game_points", "tournaments_played")) == {(0, 0)}
    migrate()


def three_nights_imported(club, club_members, capture, *, seed: int) -> None:
    """Three weekly nights of 2024 imported (their queued work run), the first published."""
    rng = random.Random(seed)
    for week in range(3):
        doc = random_night(
            rng,
            club=club.name,
            season="2024",
            date=datetime.date(2024, 3, 7) + datetime.timedelta(days=7 * week),
            members=[p.display_name for p in club_members],
            present=9,
        )
        with capture(execute=True):
            tournament_import(doc)
    tournament_publish(Tournament.objects.order_by("date").first())


# scoring 0012: each player's seasons summed from the night lines already stored (from before
# 0009: the rest of the way, 0013 rewrites the cote of a site with nights once the columns exist).
BEFORE_SUMMARIES = ("scoring", "0008_rating_change_and_moves")


@pytest.mark.django_db(transaction=True)
def test_the_season_summaries_are_filled_as_the_service_writes_them(
    club, club_members, django_capture_on_commit_callbacks
):
    three_nights_imported(club, club_members, django_capture_on_commit_callbacks, seed=4)
    written = {
        (row.player_id, row.season_id, row.published_only): row.data
        for row in PlayerSeasonStats.objects.all()
    }
    PlayerSeasonStats.objects.all().delete()
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    migrate([*(node for node in leaves if node[0] != "scoring"), BEFORE_SUMMARIES])

    latest = migrate()

    filled = {
        (row.player_id, row.season_id, row.published_only): row.data
        for row in latest.get_model("scoring", "PlayerSeasonStats").objects.all()
    }
    assert written and filled == written


# scoring 0015: each stored night line gets his poules of the night, and each season summary
# lists his nights as « Mes résultats » shows them, as the service now writes both.
BEFORE_LISTED = ("scoring", "0014_season_nights")


@pytest.mark.django_db(transaction=True)
def test_the_night_lines_and_summaries_stored_before_their_list_get_it_as_the_service_writes_it(
    club, club_members, django_capture_on_commit_callbacks
):
    three_nights_imported(club, club_members, django_capture_on_commit_callbacks, seed=5)
    lines = {(row.tournament_id, row.player_id): row.data for row in PlayerNightStats.objects.all()}
    written = {
        (row.player_id, row.season_id, row.published_only): row.data
        for row in PlayerSeasonStats.objects.all()
    }
    assert all(summary["listed"] for (_p, _s, public), summary in written.items() if not public)
    # As a site stored them before: lines without their poules, summaries without their list.
    for row in PlayerNightStats.objects.all():
        del row.data["poules"]
        row.save()
    for row in PlayerSeasonStats.objects.filter(published_only=False):
        del row.data["listed"]
        row.save()
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    migrate([*(node for node in leaves if node[0] != "scoring"), BEFORE_LISTED])

    latest = migrate()

    filled_lines = {
        (row.tournament_id, row.player_id): row.data
        for row in latest.get_model("scoring", "PlayerNightStats").objects.all()
    }
    filled = {
        (row.player_id, row.season_id, row.published_only): row.data
        for row in latest.get_model("scoring", "PlayerSeasonStats").objects.all()
    }
    assert filled_lines == lines
    assert written and filled == written
