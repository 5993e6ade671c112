"""The demo club: a realistic club with two seasons of nights, built by one command."""

import io

import pytest
from django.core.management import call_command

from club.models import Club, Player
from games.models import Tournament
from scoring.models import RankingSnapshot

pytestmark = pytest.mark.django_db


def test_demo_club_builds_two_seasons_of_the_rcwhist_club_and_keeps_them_on_a_second_run(
    django_capture_on_commit_callbacks,
):
    out = io.StringIO()

    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo_club", stdout=out)

    club = Club.objects.get(name="RCWhist La Chevalerie")
    assert Player.objects.in_club(club).count() == 28
    assert sorted(club.seasons.values_list("name", flat=True)) == ["2024", "2025"]
    table_sizes = set()
    for season in club.seasons.all():
        nights = Tournament.objects.filter(season=season)
        assert nights.count() >= 8
        assert all(night.status == Tournament.Status.PUBLISHED for night in nights)
        assert all(night.rounds == 3 for night in nights)
        assert {poule.round for night in nights for poule in night.poules.all()} == {1, 2, 3}
        for night in nights:
            table_sizes |= {poule.seats.count() for poule in night.poules.all()}
        ranking = RankingSnapshot.objects.get(season=season, published_at__isnull=True)
        assert ranking.tournaments == nights.count()
        assert ranking.lines.count() == 28
        published = RankingSnapshot.objects.get(season=season, published_at__isnull=False)
        assert published.tournaments == nights.count()
    assert table_sizes == {4, 5}
    assert "Admin login: admin / " in out.getvalue()
    assert Player.objects.get(user__username="admin").memberships.get().role == "admin"

    nights = Tournament.objects.count()
    again = io.StringIO()
    call_command("demo_club", stdout=again)

    assert Tournament.objects.count() == nights
    assert Club.objects.filter(name="RCWhist La Chevalerie").count() == 1
    assert "Admin login: admin / " in again.getvalue()
