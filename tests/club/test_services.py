"""The club's services: clubs, seasons and players created with their checks."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError

from club import services as club_services
from club.models import Membership, Player
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db


def test_the_season_of_a_new_night_is_opened_for_its_calendar_year(club):
    season = club_services.season_for_date(club, datetime.date(2026, 11, 21))
    assert (season.name, season.start, season.end) == (
        "2026",
        datetime.date(2026, 1, 1),
        datetime.date(2026, 12, 31),
    )
    assert club_services.season_for_date(club, datetime.date(2026, 3, 1)) == season


def test_a_club_met_in_a_file_is_opened_with_a_slug_of_its_own(db):
    first = club_services.club_named("Whist Club Namur")
    ClubFactory(name="Autre", slug="whist-club-liege")
    second = club_services.club_named("Whist Club Liège")
    assert first.slug == "whist-club-namur"
    assert second.slug == "whist-club-liege-2"
    assert club_services.club_named("Whist Club Namur") == first


def test_a_new_season_takes_the_dates_its_name_says(club):
    season = club_services.season_named(club, "2024-2025", datetime.date(2024, 10, 3))
    assert (season.start, season.end) == (datetime.date(2024, 1, 1), datetime.date(2025, 12, 31))
    other = club_services.season_named(club, "Printemps", datetime.date(2026, 4, 2))
    assert (other.start, other.end) == (datetime.date(2026, 1, 1), datetime.date(2026, 12, 31))


def test_an_existing_season_keeps_the_dates_the_club_gave_it(club, season):
    found = club_services.season_named(club, season.name, season.start)
    assert found == season


def test_a_player_joins_with_his_membership_and_his_name_split(club):
    player = club_services.player_join(
        club, "  Zoé   De Smet ", start=datetime.date(2026, 1, 8), status=Membership.Status.GUEST
    )
    assert (player.display_name, player.first_name, player.last_name) == (
        "Zoé De Smet",
        "Zoé",
        "De Smet",
    )
    membership = player.memberships.get()
    assert (membership.club, membership.status) == (club, Membership.Status.GUEST)


@pytest.mark.parametrize("spelling", [str.upper, lambda name: name.replace("e", "é")])
def test_a_name_already_in_the_club_is_refused_whatever_its_case_and_accents(
    club, club_members, spelling
):
    name = spelling(club_members[0].display_name)
    with pytest.raises(ValidationError, match="déjà dans la liste du club"):
        club_services.player_join(club, name, start=datetime.date(2026, 1, 8))
    assert Player.objects.filter(display_name=name).count() == 0


def test_a_player_without_a_name_is_refused(club):
    with pytest.raises(ValidationError, match="Donnez le nom"):
        club_services.player_join(club, "   ", start=datetime.date(2026, 1, 8))
