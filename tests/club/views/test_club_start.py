"""The home page's list of clubs (the listed ones, each with its town, game and next night, in
a fixed number of queries) and a new club's checklist of first steps, each ticked from the
club's data; its admin ticks by hand only what the data cannot tell."""

from __future__ import annotations

import datetime
import html

import pytest
from django.urls import reverse
from django.utils import timezone

from club.models import Club, ClubSignup, Membership
from club.services import club_settings_set
from club.services.signup_opening import signup_open
from games import calendar
from games import services as games_services
from games.presenters.club_start import club_checklist
from infra.dates import day_written
from tests.club.views.test_signup import answered_sign_up
from tests.factories import ClubFactory, PlayerFactory, SeasonFactory, UserFactory

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return html.unescape(response.content.decode())


def plan_night(club: Club, days: int = 7, place: str = "") -> None:
    calendar.night_plan(
        club, timezone.localdate() + datetime.timedelta(days=days), calendar.NightPlan(place=place)
    )


@pytest.fixture
def new_club(db) -> tuple[Club, object]:
    """A club opened by its secretary's sign-up, and her login."""
    signup = answered_sign_up(ClubSignup.Status.DRAFT)
    return signup_open(signup), signup.user


def test_the_home_page_lists_the_listed_clubs_with_town_game_and_next_night(client, settings):
    settings.CLUB_SIGNUP = "approval"
    ciney = ClubFactory(name="Whist Club de Ciney", town="Ciney", default_rules="rcwhist")
    hearts = ClubFactory(name="Cercle des Cœurs", default_rules="coeurs")
    ClubFactory(name="Club Discret", listed=False)
    plan_night(ciney, days=3)
    plan_night(ciney, days=10)

    page = text(client.get(reverse("home")))

    assert "Whist Club de Ciney" in page and "Cercle des Cœurs" in page
    assert "Club Discret" not in page
    assert "Ciney · Whist belge" in page
    soon = timezone.localdate() + datetime.timedelta(days=3)
    assert "Prochaine soirée" in page and f" {day_written(soon)} " in page
    assert "Pas de soirée au calendrier pour le moment." in page
    assert reverse("join-request", args=[hearts.slug]) in page
    assert reverse("signup-start") in page


def test_the_home_page_makes_as_many_queries_for_many_clubs_as_for_two(
    client, django_assert_num_queries
):
    def add_clubs(count: int) -> None:
        for n in range(count):
            club = ClubFactory(name=f"Club {Club.objects.count()} {n}", town="Namur")
            SeasonFactory(club=club, year=2025)
            plan_night(club, days=n + 1)

    add_clubs(2)
    client.get(reverse("home"))
    # The clubs with their next night, their seasons; the federations; the session (none).
    with django_assert_num_queries(4):
        few = client.get(reverse("home"))
    add_clubs(8)
    with django_assert_num_queries(4):
        many = client.get(reverse("home"))
    assert text(few).count("Prochaine soirée") == 2
    assert text(many).count("Prochaine soirée") == 10


def test_a_one_club_site_opens_on_the_club_with_the_offer_to_sign_a_club_up(client, club, settings):
    settings.CLUB_SIGNUP = "approval"
    page = text(client.get(reverse("home")))
    assert f"<h1>{club.name}</h1>" in page
    assert "Créer un club" in page

    settings.CLUB_SIGNUP = "closed"
    assert "Créer un club" not in text(client.get(reverse("home")))


def test_a_new_clubs_admin_sees_its_checklist_and_each_step_ticks_from_the_data(client, new_club):
    club, marie = new_club
    client.force_login(marie)
    steps = {step.key: step.done for step in club_checklist(club)}
    assert steps == dict.fromkeys(
        ["members", "first_night", "calendar", "point_table", "colours"], False
    )
    page = text(client.get(reverse("club-detail", args=[club.slug])))
    assert "Premiers pas du club" in page
    assert reverse("games:calendar-manage", args=[club.slug]) in page

    PlayerFactory(club=club)
    plan_night(club)
    club_settings_set(club, colour_background="#004d40")
    client.post(reverse("checklist-confirm", args=[club.slug, "point_table"]))

    steps = {step.key: step.done for step in club_checklist(Club.objects.get(pk=club.pk))}
    assert steps == {
        "members": True,
        "first_night": False,
        "calendar": True,
        "point_table": True,
        "colours": True,
    }


def test_the_checklist_reads_the_club_in_one_query(new_club, django_assert_num_queries):
    club, _marie = new_club
    PlayerFactory.create_batch(5, club=club)
    plan_night(club)

    with django_assert_num_queries(1):
        steps = club_checklist(club)

    assert [step.done for step in steps][:3] == [True, False, True]


def test_the_checklist_goes_once_every_step_is_done(new_club, point_table):
    club, _marie = new_club
    PlayerFactory(club=club)
    plan_night(club)
    club = club_settings_set(club, colour_text="#eeeeee")
    ClubSignup.objects.filter(club=club).update(steps_confirmed=["point_table"])

    assert club_checklist(club) is not None
    games_services.tournament_create(
        club=club,
        season=club.seasons.get(),
        date=datetime.date(2025, 3, 1),
        game="belgian_whist",
        point_table=point_table,
        rounds=1,
    )
    assert club_checklist(club) is None


def test_a_club_that_did_not_sign_up_has_no_checklist(client, club, club_admin):
    client.force_login(club_admin)

    assert club_checklist(club) is None
    assert "Premiers pas du club" not in text(client.get(reverse("club-detail", args=[club.slug])))


def test_the_checklist_is_its_admins_only(client, new_club):
    club, _marie = new_club
    member = UserFactory(username="membre-ciney")
    PlayerFactory(user=member, club=club)
    other_admin = UserFactory(username="autre")
    PlayerFactory(user=other_admin, club=ClubFactory(), club__role=Membership.Role.ADMIN)
    confirm = reverse("checklist-confirm", args=[club.slug, "colours"])

    client.force_login(member)
    assert "Premiers pas du club" not in text(client.get(reverse("club-detail", args=[club.slug])))
    assert client.post(confirm).status_code == 403
    client.force_login(other_admin)
    assert client.post(confirm).status_code == 404
    assert ClubSignup.objects.get(club=club).steps_confirmed == []


def test_a_step_the_data_ticks_cannot_be_ticked_by_hand(client, new_club):
    club, marie = new_club
    client.force_login(marie)

    response = client.post(reverse("checklist-confirm", args=[club.slug, "members"]), follow=True)

    assert "se coche d'elle-même" in text(response)
    assert ClubSignup.objects.get(club=club).steps_confirmed == []
