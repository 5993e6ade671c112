"""A season's rules changed by its club admin (scoring.services.season_rules_set / _preview):
whether guests are ranked, best N nights and the minimum, checked against the engine's own
ranking; the provisional ranking follows at once, the published one waits."""

import datetime
import random

import pytest
from django.core.exceptions import ValidationError

from club.models import Membership
from club.services import guest_to_member
from games.demo import random_night
from games.nightfile import tournament_import
from scoring import services
from scoring.engine.ranking import RankingRules, TournamentEntry, season_ranking
from scoring.models import RankingSnapshot, TournamentStanding

pytestmark = pytest.mark.django_db


@pytest.fixture
def three_nights(club, season, club_members, django_capture_on_commit_callbacks):
    """Three closed nights of the season, the first member a guest."""
    Membership.objects.filter(club=club, player=club_members[0]).update(status="guest")
    rng = random.Random(7)
    with django_capture_on_commit_callbacks(execute=True):
        for day in (10, 40, 70):
            doc = random_night(
                rng,
                club=club.name,
                season=season.name,
                date=datetime.date(2024, 1, 1) + datetime.timedelta(days=day),
                members=[p.display_name for p in club_members],
                present=9 if day != 40 else 12,
            )
            tournament_import(doc)
    return club_members


def engine_ranking(season, rules, leave_out=()):
    """The engine's ranking of the season's stored results (each night's points as stored)."""
    entries = [
        TournamentEntry(s.player_id, s.tournament_id, s.tournament_points, s.game_points, s.rank)
        for s in TournamentStanding.objects.filter(tournament__season=season)
        if s.player_id not in leave_out
    ]
    return [(line.player, line.rank) for line in season_ranking(entries, rules)]


def live_lines(season):
    snapshot = RankingSnapshot.objects.get(season=season, published_at__isnull=True)
    return [(line.player_id, line.rank) for line in snapshot.lines.order_by("position")]


def test_a_season_that_ranks_members_only_leaves_guests_out_as_the_engine_would(
    season, three_nights
):
    guest = three_nights[0]
    assert guest.pk in dict(live_lines(season))

    services.season_rules_set(season, ranking_guests=False)

    lines = live_lines(season)
    assert guest.pk not in dict(lines)
    expected = engine_ranking(season, season.ranking_rules(), leave_out={guest.pk})
    assert sorted(lines, key=lambda x: (x[1] or 99, x[0])) == sorted(
        expected, key=lambda x: (x[1] or 99, x[0])
    )


def test_a_guest_turned_member_is_ranked_with_all_his_results(
    club, season, three_nights, django_capture_on_commit_callbacks
):
    guest = three_nights[0]
    services.season_rules_set(season, ranking_guests=False)
    with django_capture_on_commit_callbacks(execute=True):
        guest_to_member(Membership.objects.get(club=club, player=guest))
    assert guest.pk in dict(live_lines(season))
    played = TournamentStanding.objects.filter(player=guest, tournament__season=season).count()
    line = RankingSnapshot.objects.get(season=season, published_at__isnull=True).lines.get(
        player=guest
    )
    assert line.tournaments_played == played


def test_best_two_of_three_nights_matches_the_engine(season, three_nights):
    services.season_rules_set(season, ranking_best_n=2, ranking_min_tournaments=3)
    rules = RankingRules(best_n=2, min_tournaments=3)
    expected = dict(engine_ranking(season, rules))
    assert dict(live_lines(season)) == expected
    # Only those who came to all three nights are ranked.
    played = {
        p: TournamentStanding.objects.filter(player=p, tournament__season=season).count()
        for p in expected
    }
    assert {p for p, rank in expected.items() if rank is not None} == {
        p for p, n in played.items() if n == 3
    }


def test_the_preview_shows_before_and_after_and_writes_nothing(season, three_nights):
    before = live_lines(season)
    changes = services.season_rules_preview(season, ranking_min_tournaments=3)
    assert live_lines(season) == before
    season.refresh_from_db()
    assert season.ranking_min_tournaments is None
    moved = [c for c in changes if c.moved]
    assert moved and all(c.after.rank is None for c in moved if c.after.tournaments_played < 3)
    with pytest.raises(ValidationError):
        services.season_rules_preview(season, ranking_best_n=0)


def test_the_published_ranking_stays_until_the_next_publication(season, three_nights):
    published = services.ranking_publish(season)
    lines = list(published.lines.values_list("player_id", "rank"))
    services.season_rules_set(season, ranking_min_tournaments=3)
    published.refresh_from_db()
    assert list(published.lines.values_list("player_id", "rank")) == lines
    assert published.rules.get("min_tournaments") == 0
    live = RankingSnapshot.objects.get(season=season, published_at__isnull=True)
    assert live.rules["min_tournaments"] == 3


def test_refused_rules_change_nothing(season, three_nights):
    before = live_lines(season)
    with pytest.raises(ValidationError):
        services.season_rules_set(season, ranking_precedence=["tournament_points", "charm"])
    season.refresh_from_db()
    assert season.ranking_precedence is None
    assert live_lines(season) == before
