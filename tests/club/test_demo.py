"""The demo club: a realistic club with two seasons of nights, built by one command."""

import io

import pytest
from django.core.management import call_command

from club.models import Club, Player
from games.models import PlannedNight, Reply, Tournament
from scoring.models import PlayerNightStats, PlayerRating, RankingSnapshot

pytestmark = pytest.mark.django_db


def test_demo_club_builds_two_seasons_of_the_rcwhist_club_and_keeps_them_on_a_second_run(
    django_capture_on_commit_callbacks,
):
    out = io.StringIO()

    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo_club", stdout=out)

    club = Club.objects.get(name="RCWhist La Chevalerie")
    # 28 members, and two former players of the rankings imported from the club's past.
    assert Player.objects.in_club(club).count() == 30
    # The coming Fridays on its calendar, the next ones with replies.
    planned = PlannedNight.objects.filter(club=club)
    assert planned.count() == 8 and all(n.date.weekday() == 4 for n in planned)
    assert Reply.objects.filter(night__club=club, answer="yes").count() >= 10
    assert sorted(club.seasons.values_list("name", flat=True)) == ["2022", "2023", "2024", "2025"]
    imported = RankingSnapshot.objects.filter(season__club=club, imported=True)
    assert sorted(imported.values_list("season__name", flat=True)) == ["2022", "2023"]
    assert all(snapshot.lines.count() == 20 for snapshot in imported)
    table_sizes = set()
    for season in club.seasons.filter(tournaments__isnull=False).distinct():
        tournaments = Tournament.objects.filter(season=season)
        assert tournaments.count() >= 8
        assert all(tournament.status == Tournament.Status.PUBLISHED for tournament in tournaments)
        assert all(tournament.rounds == 3 for tournament in tournaments)
        assert {poule.round for tournament in tournaments for poule in tournament.poules.all()} == {
            1,
            2,
            3,
        }
        for tournament in tournaments:
            table_sizes |= {poule.seats.count() for poule in tournament.poules.all()}
        ranking = RankingSnapshot.objects.get(season=season, published_at__isnull=True)
        assert ranking.tournaments == tournaments.count()
        assert ranking.lines.count() == 28
        published = RankingSnapshot.objects.get(season=season, published_at__isnull=False)
        assert published.tournaments == tournaments.count()
    assert table_sizes == {4, 5}
    # The « cote » and the statistics are there from the first page view: computed when the
    # demo's nights were closed, for every player of every night.
    nights = Tournament.objects.filter(club=club)
    assert PlayerRating.objects.filter(tournament__in=nights).count() == sum(
        n.standings.count() for n in nights
    )
    assert PlayerNightStats.objects.filter(tournament__in=nights).count() > 0
    assert PlayerRating.objects.filter(tournament__club__default_rules="coeurs").exists()
    assert "Admin login: admin / " in out.getvalue()
    assert Player.objects.get(user__username="admin").memberships.get(club=club).role == "admin"
    # The second club plays hearts; its president is a club admin without staff rights, and
    # the RCWhist president is a plain member there (one player, a role in each club).
    hearts = Club.objects.get(name="Cercle des Cœurs de Namur")
    assert hearts.default_game == "hearts"
    nights = Tournament.objects.filter(club=hearts)
    assert nights.count() == 6
    assert {night.game for night in nights} == {"hearts"}
    assert RankingSnapshot.objects.filter(season__club=hearts, published_at__isnull=False).exists()
    president = Player.objects.get(user__username="coeurs")
    assert president.memberships.get().role == "admin"
    assert not president.user.is_staff
    roles = dict(
        Player.objects.get(user__username="admin").memberships.values_list("club__name", "role")
    )
    assert roles == {"RCWhist La Chevalerie": "admin", "Cercle des Cœurs de Namur": "member"}
    assert "Cercle des Cœurs de Namur admin login: coeurs / " in out.getvalue()

    tournaments = Tournament.objects.count()
    again = io.StringIO()
    call_command("demo_club", stdout=again)

    assert Tournament.objects.count() == tournaments
    assert Club.objects.filter(name="RCWhist La Chevalerie").count() == 1
    assert Club.objects.count() == 2
    assert "Admin login: admin / " in again.getvalue()
