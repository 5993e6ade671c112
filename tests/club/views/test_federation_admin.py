"""A federation's administrators run it from its own pages: its clubs, its administrators, its
seasons and their rules (the ranking follows a change); nobody else gets in."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from club.models import FederationAdmin, FederationSeason, Membership
from club.services import (
    federation_club_invite,
    federation_invitation_answer,
    federation_open,
    federation_season_create,
)
from club.views.club_settings import ClubSettingsForm
from games import services as games_services
from infra.models import PendingWork
from infra.outbox import TaskName
from scoring import services as scoring_services
from scoring.models import FederationRanking, RankingSnapshot
from tests.conftest import persona
from tests.factories import ClubFactory, PlayerFactory, SeasonFactory, UserFactory, night_started

pytestmark = pytest.mark.django_db

SEASON_FORM = {
    "name": "2025",
    "start": "2025-01-01",
    "end": "2025-12-31",
    "game": "belgian_whist",
    "counts": "all",
    "ranking_best_n": "8",
    "ranking_min_tournaments": "3",
    "precedence_1": "tournament_points",
    "precedence_2": "game_points",
    "precedence_3": "",
}


@pytest.fixture
def neighbour(db):
    return ClubFactory(name="Cercle voisin", slug="voisin")


@pytest.fixture
def federation(club, neighbour):
    return federation_open("Ligue du Brabant", clubs=[club, neighbour])


@pytest.fixture
def fed_admin(federation):
    """Runs the federation; plays at the neighbouring club, where he has no role."""
    user = persona(federation.clubs.get(slug="voisin"), "ligue", Membership.Role.MEMBER)
    FederationAdmin.objects.create(federation=federation, player=user.player)
    return user


@pytest.fixture
def fed_season(federation):
    return federation_season_create(
        federation, "2024", datetime.date(2024, 1, 1), datetime.date(2024, 12, 31)
    )


def manage(federation, name="federation-admin", *args):
    return reverse(name, args=[federation.slug, *args])


def test_the_federation_admin_sees_its_clubs_admins_and_seasons(
    client, federation, fed_admin, fed_season
):
    client.force_login(fed_admin)

    page = client.get(manage(federation)).content.decode()

    assert "RCWhist La Chevalerie" in page and "Cercle voisin" in page
    assert fed_admin.player.display_name in page
    assert manage(federation, "federation-season-edit", fed_season.slug) in page


@pytest.mark.parametrize("role", ["club_admin", "member", "other_federation_admin", "outsider"])
def test_anybody_but_its_administrators_is_refused_every_page(
    client, request, federation, fed_admin, fed_season, role
):
    if role == "other_federation_admin":
        other = federation_open("Ligue de Liège", clubs=[ClubFactory(name="Whist Liège")])
        user = persona(ClubFactory(name="Whist Huy"), "liegeois", Membership.Role.ADMIN)
        FederationAdmin.objects.create(federation=other, player=user.player)
    else:
        # The club admin runs a club of the federation, and still has no right in it.
        user = request.getfixturevalue(role)
    client.force_login(user)
    neighbour = federation.clubs.get(slug="voisin")
    asked = federation_club_invite(federation, ClubFactory(name="Whist Wavre"), by=fed_admin)
    pages = [
        ("get", manage(federation), {}),
        ("post", manage(federation, "federation-club-invite"), {"club": ClubFactory().pk}),
        ("post", manage(federation, "federation-invitation-withdraw", asked.pk), {}),
        ("post", manage(federation, "federation-club-remove", neighbour.pk), {}),
        ("post", manage(federation, "federation-admin-add"), {"player": user.player.pk}),
        ("post", manage(federation, "federation-admin-remove", fed_admin.player.pk), {}),
        ("get", manage(federation, "federation-season-add"), {}),
        ("post", manage(federation, "federation-season-add"), SEASON_FORM),
        ("get", manage(federation, "federation-season-edit", fed_season.slug), {}),
        ("post", manage(federation, "federation-season-edit", fed_season.slug), SEASON_FORM),
    ]

    for method, path, data in pages:
        assert getattr(client, method)(path, data).status_code == 403, path

    assert federation.clubs.count() == 2
    assert list(federation.invitations.values_list("status", flat=True)) == ["pending"]
    assert list(federation.admins.values_list("player", flat=True)) == [fed_admin.player.pk]
    assert list(federation.seasons.all()) == [fed_season]


def test_a_visitor_is_sent_to_the_login_page(client, federation, fed_season):
    for path in (
        manage(federation),
        manage(federation, "federation-season-edit", fed_season.slug),
    ):
        response = client.get(path)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    response = client.post(manage(federation, "federation-club-invite"), {"club": 1})
    assert response["Location"].startswith(reverse("login"))


def test_the_admin_invites_a_club_of_the_site_and_removes_one(client, federation, fed_admin, club):
    """An invited club is no member until its admin accepts (tests/club/services/
    test_federation_clubs.py); a member club is removed at once."""
    third = ClubFactory(name="Whist Club Wavre")
    client.force_login(fed_admin)

    assert "Whist Club Wavre" in client.get(manage(federation)).content.decode()
    client.post(manage(federation, "federation-club-invite"), {"club": third.pk})
    client.post(manage(federation, "federation-club-remove", club.pk))

    assert set(federation.clubs.values_list("name", flat=True)) == {"Cercle voisin"}
    assert federation.invitations.get().club == third


def test_a_club_of_another_federation_is_not_removed_from_this_one(client, federation, fed_admin):
    stranger = ClubFactory(name="Whist Liège")
    client.force_login(fed_admin)

    response = client.post(manage(federation, "federation-club-remove", stranger.pk))

    assert response.status_code == 404


def test_the_admin_finds_a_member_of_its_clubs_with_a_login_by_name_and_makes_him_admin(
    client, federation, fed_admin, club
):
    wanted = PlayerFactory(
        display_name="Hélène Vandenberghe", user=UserFactory(username="helene"), club=club
    )
    PlayerFactory(display_name="Hélène Sans-Compte", club=club)  # no login: cannot sign in
    client.force_login(fed_admin)

    page = client.get(manage(federation), {"q": "hélène"}).content.decode()
    assert "Hélène Vandenberghe" in page
    assert "Hélène Sans-Compte" not in page

    client.post(manage(federation, "federation-admin-add"), {"player": wanted.pk})

    assert federation.admins.filter(player=wanted).exists()


@pytest.mark.parametrize("who", ["no_login", "other_club", "invited_club", "former", "guest"])
def test_only_a_member_of_its_clubs_with_a_login_may_be_named_admin(
    client, federation, fed_admin, club, who
):
    """A number posted by hand names nobody the search would not offer, and the refusal does
    not tell his name."""
    elsewhere = ClubFactory(name="Whist Liège")
    if who == "invited_club":
        federation_club_invite(federation, elsewhere, by=fed_admin)
    login = None if who == "no_login" else UserFactory(username="tente")
    nobody = PlayerFactory(
        display_name="Théodore Inconnu",
        user=login,
        club=club if who in ("no_login", "former", "guest") else elsewhere,
    )
    if who == "former":
        nobody.memberships.update(end=datetime.date(2024, 6, 30), status="former")
    if who == "guest":
        nobody.memberships.update(status=Membership.Status.GUEST)
    client.force_login(fed_admin)

    response = client.post(
        manage(federation, "federation-admin-add"), {"player": nobody.pk}, follow=True
    )

    page = response.content.decode()
    assert "parmi les membres des clubs de la fédération" in page
    assert "Théodore" not in page
    assert not federation.admins.filter(player=nobody).exists()


def test_the_last_admin_cannot_step_down(client, federation, fed_admin):
    client.force_login(fed_admin)

    response = client.post(
        manage(federation, "federation-admin-remove", fed_admin.player.pk), follow=True
    )

    assert "au moins un administrateur" in response.content.decode()
    assert federation.admins.count() == 1


def test_the_admin_creates_a_season_with_its_ranking_rules(client, federation, fed_admin):
    client.force_login(fed_admin)

    response = client.post(manage(federation, "federation-season-add"), SEASON_FORM)

    assert response.status_code == 302
    season = FederationSeason.objects.get(federation=federation)
    assert (season.name, season.start, season.end) == (
        "2025",
        datetime.date(2025, 1, 1),
        datetime.date(2025, 12, 31),
    )
    assert season.counts == "all"
    assert (season.ranking_best_n, season.ranking_min_tournaments) == (8, 3)
    assert season.ranking_precedence == ["tournament_points", "game_points"]


def test_a_season_that_ends_before_it_starts_is_refused_on_the_form(client, federation, fed_admin):
    client.force_login(fed_admin)

    response = client.post(
        manage(federation, "federation-season-add"), {**SEASON_FORM, "end": "2024-06-30"}
    )

    assert response.status_code == 200
    assert "errorlist" in response.content.decode()
    assert not FederationSeason.objects.exists()


def test_changing_a_seasons_rules_recomputes_its_ranking(
    client, federation, fed_admin, fed_season, django_capture_on_commit_callbacks
):
    client.force_login(fed_admin)
    path = manage(federation, "federation-season-edit", fed_season.slug)
    rules = {**SEASON_FORM, "name": "2024", "start": "2024-01-01", "end": "2024-12-31"}

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post(path, rules)

    assert response.status_code == 302
    fed_season.refresh_from_db()
    assert (fed_season.counts, fed_season.ranking_best_n) == ("all", 8)
    assert PendingWork.objects.filter(
        task=TaskName.FEDERATION_RANKING_UPDATE, key=fed_season.pk
    ).exists()
    for callback in callbacks:
        callback()
    ranking = FederationRanking.objects.get(season=fed_season)
    assert ranking.rules["best_n"] == 8
    assert ranking.rules["counts"] == "all"
    assert not PendingWork.objects.filter(task=TaskName.FEDERATION_RANKING_UPDATE).exists()


def test_saving_unchanged_rules_queues_no_recomputation(client, federation, fed_admin, fed_season):
    client.force_login(fed_admin)
    unchanged = {
        "start": "2024-01-01",
        "end": "2024-12-31",
        "counts": "championship",
        "ranking_best_n": "",
        "ranking_min_tournaments": "0",
        "precedence_1": "tournament_points",
        "precedence_2": "game_points",
        "precedence_3": "",
    }

    response = client.post(manage(federation, "federation-season-edit", fed_season.slug), unchanged)

    assert response.status_code == 302
    assert not PendingWork.objects.filter(task=TaskName.FEDERATION_RANKING_UPDATE).exists()


def test_a_seasons_name_and_game_stay_as_they_were(client, federation, fed_admin, fed_season):
    client.force_login(fed_admin)

    client.post(
        manage(federation, "federation-season-edit", fed_season.slug),
        {**SEASON_FORM, "name": "Autre", "game": "hearts"},
    )

    fed_season.refresh_from_db()
    assert (fed_season.name, fed_season.game) == ("2024", "belgian_whist")


def test_the_management_page_reads_the_same_queries_for_more_clubs_and_seasons(
    client, federation, fed_admin, fed_season, django_assert_num_queries
):
    client.force_login(fed_admin)
    path = manage(federation)
    # One member who chose initials from the start: naming him reads the viewer's clubs once
    # (club.names), whatever the number of such members listed after.
    PlayerFactory(
        user=UserFactory(username="initials-first"),
        club=federation.clubs.first(),
        first_name="Alice",
        last_name="Yser",
        public_name="initials",
    )
    client.get(path, {"q": "a"})
    # The session, the user, the federation, its admin check; its clubs, invitations, the
    # clubs to invite, its admins, the search (full names and those who chose initials, in
    # one query), the viewer's clubs (for a name shown by initials), its seasons.
    with django_assert_num_queries(11) as first:
        client.get(path, {"q": "a"})

    for n in range(5):
        club = ClubFactory(name=f"Club {n}")
        federation.clubs.add(club)
        asked = federation_club_invite(federation, ClubFactory(name=f"Hors ligue {n}"), by=None)
        if n % 2:
            federation_invitation_answer(asked, accept=False, by=None)
        # Members it may name: by their full name, and by initials they chose.
        PlayerFactory(user=UserFactory(username=f"full{n}"), club=club, display_name=f"Ana {n}")
        PlayerFactory(
            user=UserFactory(username=f"initials{n}"),
            club=club,
            first_name="Anne",
            last_name=f"Zed{n}",
            public_name="initials",
        )
        FederationAdmin.objects.create(
            federation=federation,
            player=PlayerFactory(user=UserFactory(username=f"admin{n}"), club=club),
        )
        federation_season_create(
            federation,
            f"20{10 + n}",
            datetime.date(2010 + n, 1, 1),
            datetime.date(2010 + n, 12, 31),
        )

    with django_assert_num_queries(len(first.captured_queries)):
        page = client.get(path, {"q": "a"}).content.decode()
    assert "Ana 4" in page and "A.Z." in page


# The club's rule: inter-club nights in its own ranking

SOLO_1_MADE = {"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 7}


def settings_form(club, **changes):
    """The club's settings as its page posts them back, the inter-club box unticked."""
    fields = [*ClubSettingsForm._meta.fields]
    data = {
        name: getattr(club, name) for name in fields if name not in ("logo", "ranking_interclub")
    }
    return {**{k: v for k, v in data.items() if v not in (False, None)}, **changes}


def test_a_club_of_a_federation_chooses_to_count_its_interclub_nights(
    client, club, club_admin, federation
):
    client.force_login(club_admin)

    page = client.get(reverse("club-settings", args=[club.slug])).content.decode()

    assert "Compter les soirées inter-clubs dans le classement du club" in page


def test_a_club_of_no_federation_is_not_asked(client, club, club_admin):
    client.force_login(club_admin)

    page = client.get(reverse("club-settings", args=[club.slug])).content.decode()

    assert "inter-clubs" not in page


def test_counting_interclub_nights_recomputes_the_clubs_current_ranking(
    client, club, neighbour, club_admin, federation, point_table, django_capture_on_commit_callbacks
):
    """A member of the club plays an inter-club night at the neighbour's: the club's ranking
    counts it once its admin ticks the box, and no more once he unticks it."""
    year = datetime.date.today().year
    current = SeasonFactory(club=club, year=year)
    fed_season = federation_season_create(
        federation, str(year), datetime.date(year, 1, 1), datetime.date(year, 12, 31)
    )
    ours = PlayerFactory(club=club)
    theirs = PlayerFactory.create_batch(3, club=neighbour)
    with django_capture_on_commit_callbacks(execute=True):
        night = games_services.tournament_create(
            club=neighbour,
            season=SeasonFactory(club=neighbour, year=year),
            date=datetime.date.today(),
            game="belgian_whist",
            point_table=point_table,
            federation_season=fed_season,
        )
        games_services.presence_set(night, [ours, *theirs])
        night_started(night)
        poule = games_services.poule_create(night, round=1, table=1, players=[ours, *theirs])
        scoring_services.deal_record(poule, SOLO_1_MADE)
        scoring_services.tournament_close(night, unfinished_ok=True)
        scoring_services.tournament_publish(night)
    client.force_login(club_admin)
    path = reverse("club-settings", args=[club.slug])

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(path, settings_form(club, ranking_interclub="on"))

    assert response.status_code == 302
    club.refresh_from_db()
    assert club.ranking_interclub
    ranked = RankingSnapshot.objects.live().get(season=current)
    assert list(ranked.lines.values_list("player", flat=True)) == [ours.pk]

    with django_capture_on_commit_callbacks(execute=True):
        client.post(path, settings_form(club))

    club.refresh_from_db()
    assert not club.ranking_interclub
    assert not RankingSnapshot.objects.live().get(season=current).lines.exists()


def test_saving_other_settings_leaves_the_ranking_alone(client, club, club_admin, federation):
    SeasonFactory(club=club, year=datetime.date.today().year)
    client.force_login(club_admin)

    client.post(reverse("club-settings", args=[club.slug]), settings_form(club, short_name="RCW"))

    club.refresh_from_db()
    assert club.short_name == "RCW"
    assert not PendingWork.objects.exists()


@pytest.mark.parametrize(
    ("name", "field"), [("federation-club-invite", "club"), ("federation-admin-add", "player")]
)
def test_a_number_that_is_no_ascii_number_names_nobody_and_is_no_server_error(
    client, federation, fed_admin, name, field
):
    # "²".isdigit() is True, and int("²") fails: it was a 500.
    client.force_login(fed_admin)
    response = client.post(manage(federation, name), {field: "²"}, follow=True)
    assert response.status_code == 200
