"""A club joining or leaving a federation whose season counts every night of its clubs moves
that season's ranking: it joins once its admin accepts the federation's invitation, not when
the invitation is sent."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from club.models import FederationAdmin, FederationSeason, Membership
from club.services import federation_open, federation_season_create
from games.services import poule_create, presence_set
from scoring.models import FederationRanking
from scoring.services import deal_record, tournament_close, tournament_publish
from tests.conftest import persona
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    SeasonFactory,
    TournamentFactory,
    night_started,
)

pytestmark = pytest.mark.django_db

SOLO_1_MADE = {"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 7}


def test_a_club_joining_and_leaving_moves_a_season_counting_every_night(
    client, club, point_table, django_capture_on_commit_callbacks
):
    newcomer = ClubFactory(name="Nouveau cercle", slug="nouveau")
    newcomer_season = SeasonFactory(club=newcomer, year=2024)
    federation = federation_open("Ligue du Brabant", clubs=[club])
    user = persona(club, "ligue", Membership.Role.MEMBER)
    FederationAdmin.objects.create(federation=federation, player=user.player)
    fed_season = federation_season_create(
        federation,
        "2024",
        datetime.date(2024, 1, 1),
        datetime.date(2024, 12, 31),
        counts=FederationSeason.Counts.ALL,
    )
    players = PlayerFactory.create_batch(4, club=newcomer)
    night = TournamentFactory(
        club=newcomer,
        season=newcomer_season,
        point_table=point_table,
        date=datetime.date(2024, 3, 7),
    )
    presence_set(night, players)
    night_started(night)
    deal_record(poule_create(night, round=1, table=1, players=players), SOLO_1_MADE)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_close(night, unfinished_ok=True)
        tournament_publish(night)
    newcomer_admin = persona(newcomer, "president-nouveau", Membership.Role.ADMIN)
    client.force_login(user)

    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("federation-club-invite", args=[federation.slug]), {"club": newcomer.pk}
        )
    assert not FederationRanking.objects.filter(season=fed_season, tournaments=1).exists()

    client.force_login(newcomer_admin)
    invitation = federation.invitations.get()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("club-federation-answer", args=[newcomer.slug, invitation.pk, "accepter"])
        )
    assert FederationRanking.objects.get(season=fed_season).tournaments == 1

    client.force_login(user)

    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("federation-club-remove", args=[federation.slug, newcomer.pk]))
    assert FederationRanking.objects.get(season=fed_season).tournaments == 0
