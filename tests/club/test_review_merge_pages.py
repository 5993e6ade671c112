"""The merge's proposal page shows another club's player as the public sees him."""

import datetime

import pytest
from django.urls import reverse

from club.models import Player
from tests.factories import ClubFactory, PlayerFactory, SeasonFactory, TournamentFactory

pytestmark = pytest.mark.django_db


def test_the_proposal_page_keeps_another_clubs_hidden_name_and_unpublished_nights(
    client, club, club_admin, point_table
):
    elsewhere = ClubFactory(name="Club d'ailleurs")
    hidden = PlayerFactory(
        display_name="Zoé Secrète",
        first_name="Zoé",
        last_name="Secrète",
        public_name=Player.PublicName.INITIALS,
        club=elsewhere,
    )
    night = TournamentFactory(
        club=elsewhere,
        season=SeasonFactory(club=elsewhere, year=2024),
        point_table=point_table,
        date=datetime.date(2024, 3, 7),
        name="Soirée privée du club d'ailleurs",
    )
    night.present.add(hidden)
    member = PlayerFactory(display_name="Zoé Dupont", club=club)
    client.force_login(club_admin)

    page = client.get(reverse("member-merge-propose", args=[club.slug, member.pk, hidden.pk]))

    assert page.status_code == 200
    text = page.content.decode()
    assert "Z.S." in text
    assert "Secrète" not in text
    assert "Soirée privée" not in text
