"""The demo club: a realistic club with two seasons of nights, built by one command."""

import io

import pytest
from django.core.management import call_command

from club.models import Club, Federation, Membership, Player
from games.models import PlannedNight, Reply, Tournament
from scoring.models import FederationRanking, PlayerNightStats, PlayerRating, RankingSnapshot

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
        # The club's own nights: the inter-club night it hosted counts for the federation.
        tournaments = Tournament.objects.filter(season=season, federation_season=None)
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
        # Published with each night (the club's setting), the last publication counts them all.
        published = RankingSnapshot.objects.filter(season=season).latest_published().get()
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
    # The club's album, its photos copied (clubsite/photos/demo.py).
    album = club.albums.get()
    assert album.photos.filter(status="ready").count() == 4
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
    federation_built_with_its_ranking(out.getvalue())

    tournaments = Tournament.objects.count()
    again = io.StringIO()
    call_command("demo_club", stdout=again)

    assert Tournament.objects.count() == tournaments
    assert Club.objects.filter(name="RCWhist La Chevalerie").count() == 1
    assert Club.objects.count() == 3
    assert Federation.objects.count() == 1
    assert "Admin login: admin / " in again.getvalue()
    assert "Ligue belge de whist already exists" in again.getvalue()


def federation_built_with_its_ranking(printed: str) -> None:
    """The league of the demo's two clubs and Wavre's: its season, ranked from two published
    inter-club nights where players of the three clubs played without joining the host."""
    federation = Federation.objects.get(name="Ligue belge de whist")
    clubs = set(federation.clubs.values_list("name", flat=True))
    assert clubs == {"RCWhist La Chevalerie", "Cercle des Cœurs de Namur", "Whist Club de Wavre"}
    assert "Ligue belge de whist: 3 clubs" in printed
    # Each club was asked and accepted by its own admin (Wavre's president has no login).
    answers = {
        (i.club.name, i.status, getattr(i.answered_by, "username", None))
        for i in federation.invitations.select_related("club", "answered_by")
    }
    assert answers == {
        ("RCWhist La Chevalerie", "accepted", "admin"),
        ("Cercle des Cœurs de Namur", "accepted", "coeurs"),
        ("Whist Club de Wavre", "accepted", None),
    }
    wavre = Club.objects.get(name="Whist Club de Wavre")
    assert Player.objects.in_club(wavre).count() == 12
    rcwhist = Club.objects.get(name="RCWhist La Chevalerie")
    assert Player.objects.in_club(wavre).filter(memberships__club=rcwhist).count() == 2
    admin = Player.objects.get(user__username="admin")
    assert list(federation.admins.values_list("player", flat=True)) == [admin.pk]
    season = federation.seasons.get()
    assert (season.name, season.game, season.counts) == ("2025", "belgian_whist", "championship")
    assert season.ranking_best_n is None
    nights = Tournament.objects.filter(federation_season=season)
    assert {night.club.name for night in nights} == {"RCWhist La Chevalerie", "Whist Club de Wavre"}
    for night in nights:
        assert night.status == Tournament.Status.PUBLISHED and night.game == "belgian_whist"
        present = set(night.present.values_list("pk", flat=True))
        assert set(night.standings.values_list("player", flat=True)) == present
        # Visitors played without joining the host club.
        members = set(Player.objects.in_club(night.club).values_list("pk", flat=True))
        assert present - members
        assert not Membership.objects.filter(club=night.club, player__in=present - members)
    # The ranking was computed when the nights were published (the outbox's task).
    ranking = FederationRanking.objects.get(season=season)
    assert (ranking.tournaments, ranking.clubs) == (2, 2)
    ranked = set(ranking.lines.values_list("player", flat=True))
    assert ranked == set(nights.values_list("present", flat=True))
    ranked_clubs = set(
        Membership.objects.filter(player__in=ranked).values_list("club__name", flat=True)
    )
    assert ranked_clubs == clubs
    # Some played both nights, at both hosts.
    assert ranking.lines.filter(tournaments_played=2, clubs_played=2).exists()
    assert [line.position for line in ranking.lines.order_by("position")] == list(
        range(1, len(ranked) + 1)
    )
