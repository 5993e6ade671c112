"""Each player's season summary kept in step with his nights: written with the cote and at
close, moved by publishing, taking back and reopening a night, and always what adding up his
stored night lines gives."""

from __future__ import annotations

import datetime
import random

import pytest

from games.demo import random_night
from games.models import COUNTED_STATUSES, Tournament
from games.nightfile import tournament_import
from scoring import services as scoring_services
from scoring.models import PlayerNightStats, PlayerRating, PlayerSeasonStats, SeasonNights
from scoring.services.season_stats import season_stats_store
from scoring.statistics.chart import season_nights
from scoring.statistics.seasons import season_summary
from scoring.statistics.totals import player_statistics

pytestmark = pytest.mark.django_db


@pytest.fixture
def nights(club, club_members, django_capture_on_commit_callbacks) -> list[Tournament]:
    """Three imported (closed) nights of 2024 with their cote, nine of twelve members each."""
    rng = random.Random(11)
    imported = []
    for week in range(3):
        doc = random_night(
            rng,
            club=club.name,
            season="2024",
            date=datetime.date(2024, 3, 7) + datetime.timedelta(days=7 * week),
            members=[p.display_name for p in club_members],
            present=9,
        )
        with django_capture_on_commit_callbacks(execute=True):
            imported.append(tournament_import(doc))
    return imported


def summaries() -> dict[tuple[int, int, bool], dict]:
    return {
        (row.player_id, row.season_id, row.published_only): row.data
        for row in PlayerSeasonStats.objects.all()
    }


def added_up_from_the_nights() -> dict[tuple[int, int, bool], dict]:
    """What the summaries must hold: the stored night lines of counted nights, added up; his
    own with his cote after his latest rated night of the season, as the cote stored it."""
    found: dict[tuple[int, int, bool], list] = {}
    ratings = {(r.tournament_id, r.player_id): r for r in PlayerRating.objects.all()}
    cotes: dict[tuple[int, int, bool], list] = {}
    for line in (
        PlayerNightStats.objects.filter(tournament__status__in=COUNTED_STATUSES)
        .order_by("tournament__date", "tournament_id")
        .select_related("tournament")
    ):
        night = line.tournament
        row = (night.pk, night.date, night.name, line.data)
        found.setdefault((line.player_id, night.season_id, False), []).append(row)
        if night.status == Tournament.Status.PUBLISHED:
            found.setdefault((line.player_id, night.season_id, True), []).append(row)
        rating = ratings.get((night.pk, line.player_id))
        if rating is not None:
            cote = [rating.mu, rating.change, night.pk, night.date.isoformat()]
            cotes[line.player_id, night.season_id, False] = cote
    # His own summary lists his nights (« Mes résultats ») and keeps his cote; the public's
    # does not.
    return {
        key: season_summary(rows, listed=True, cote=cotes.get(key))
        if not key[2]
        else season_summary(rows)
        for key, rows in found.items()
    }


def test_the_cote_writes_each_players_season_as_his_nights_add_up(nights):
    assert summaries() == added_up_from_the_nights()
    assert not PlayerSeasonStats.objects.filter(published_only=True).exists()


def test_publishing_taking_back_and_reopening_a_night_keep_the_summaries_in_step(nights):
    first = nights[0]
    scoring_services.tournament_publish(first)
    published = PlayerSeasonStats.objects.filter(published_only=True)
    assert {row.data["nights"] for row in published} == {1}
    assert summaries() == added_up_from_the_nights()

    scoring_services.tournament_unpublish(first)
    assert not PlayerSeasonStats.objects.filter(published_only=True).exists()

    scoring_services.tournament_reopen(first)
    assert summaries() == added_up_from_the_nights()
    players = set(
        PlayerNightStats.objects.filter(tournament=first).values_list("player", flat=True)
    )
    for row in PlayerSeasonStats.objects.filter(player__in=players):
        assert (
            row.data["nights"]
            == PlayerNightStats.objects.filter(
                player=row.player_id, tournament__in=nights[1:]
            ).count()
        )


def test_his_own_summary_keeps_his_cote_after_his_latest_rated_night_through_its_rewrites(
    nights,
):
    """As a close leaves it (the night's lines written, its cote not yet): his cote after the
    night before; once the cote is written again from the night, after it."""
    last = nights[-1]
    PlayerRating.objects.filter(tournament=last).delete()
    season_stats_store([last.season_id])
    assert summaries() == added_up_from_the_nights()
    kept = {
        row.data["cote"][2]
        for row in PlayerSeasonStats.objects.filter(published_only=False)
        if row.data["cote"] is not None
    }
    assert last.pk not in kept

    scoring_services.ratings_update(last)

    assert summaries() == added_up_from_the_nights()
    players = set(PlayerRating.objects.filter(tournament=last).values_list("player", flat=True))
    for row in PlayerSeasonStats.objects.filter(player__in=players, published_only=False):
        rating = PlayerRating.objects.get(tournament=last, player=row.player_id)
        assert row.data["cote"] == [rating.mu, rating.change, last.pk, last.date.isoformat()]
    assert not PlayerSeasonStats.objects.filter(published_only=True).exists()


def stored_chart(season_id: int) -> list[list[int]]:
    return SeasonNights.objects.get(season=season_id).nights


def test_the_seasons_published_nights_are_stored_for_the_chart_as_counted(nights):
    """The club's side of « Mes résultats »' chart, the same for every member, follows the
    nights published and taken back, as counting it from the standings says."""
    first, season = nights[0], nights[0].season_id
    assert stored_chart(season) == []

    scoring_services.tournament_publish(first)
    awarded = sum(line.points_units for line in first.standings.all())
    assert stored_chart(season) == [[first.pk, awarded, first.standings.count()]]
    assert stored_chart(season) == [
        [pk, units, newcomers] for pk, _date, _name, units, newcomers in season_nights(season)
    ]

    scoring_services.tournament_unpublish(first)
    assert stored_chart(season) == []


def test_a_player_without_nights_left_in_a_season_keeps_no_summary(nights):
    line = PlayerNightStats.objects.filter(tournament=nights[0]).first()
    PlayerNightStats.objects.filter(player=line.player_id).delete()
    season_stats_store([nights[0].season_id], [line.player_id])
    assert not PlayerSeasonStats.objects.filter(player=line.player_id).exists()


def test_his_statistics_page_adds_up_his_seasons(nights, club):
    line = PlayerNightStats.objects.filter(tournament=nights[0]).first()
    stats = player_statistics(line.player, club, own=True)
    his = PlayerNightStats.objects.filter(player=line.player_id)
    assert stats.nights == his.count()
    assert stats.deals == sum(row.data["deals"] for row in his)
    # The public reads his published nights only: none yet.
    assert player_statistics(line.player, club).nights == 0
