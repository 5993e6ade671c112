"""Publishing a night: the season's ranking follows it unless the club publishes it itself."""

from __future__ import annotations

import pytest

from club.models import Club
from infra.models import PendingWork
from infra.outbox import TaskName
from scoring.models import RankingSnapshot
from scoring.services import tournament_publish
from tests.club.views.test_member import night_with
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def published_rankings(season) -> int:
    return RankingSnapshot.objects.filter(season=season, published_at__isnull=False).count()


def test_publishing_a_night_publishes_the_season_ranking_with_it(
    club, season, django_capture_on_commit_callbacks
):
    players = PlayerFactory.create_batch(4, club=club)
    deal = {"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 7}
    with django_capture_on_commit_callbacks(execute=True):
        night = night_with(season, 3, players, [deal], publish=False)
    assert published_rankings(season) == 0

    with django_capture_on_commit_callbacks(execute=True):
        tournament_publish(night)

    snapshot = RankingSnapshot.objects.get(season=season, published_at__isnull=False)
    assert snapshot.tournaments == 1
    assert {line.player_id for line in snapshot.lines.all()} == {p.pk for p in players}


def test_a_club_that_publishes_its_ranking_itself_keeps_it_unpublished(
    club, season, django_capture_on_commit_callbacks
):
    Club.objects.filter(pk=club.pk).update(ranking_follows_nights=False)
    players = PlayerFactory.create_batch(4, club=club)
    deal = {"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 7}
    with django_capture_on_commit_callbacks(execute=True):
        night_with(season, 3, players, [deal])

    assert published_rankings(season) == 0
    assert not PendingWork.objects.filter(task=TaskName.RANKING_PUBLISH).exists()
