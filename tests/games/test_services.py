"""A club night's set-up (games.services): who is present, guests."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from club.models import Membership, Player
from games import services
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def test_a_player_from_another_club_cannot_be_present(tonight):
    stranger = PlayerFactory()
    with pytest.raises(ValidationError, match="Pas membre du club"):
        services.presence_set(tonight, [stranger])
    assert not tonight.present.exists()


def test_a_guest_is_created_and_ticked_present_in_one_step(tonight):
    guest = services.player_add_to_tournament(tonight, "  Olivier   Lambert ", guest=True)
    assert guest.display_name == "Olivier Lambert"
    assert tonight.present.filter(pk=guest.pk).exists()
    membership = Membership.objects.get(player=guest, club=tonight.club)
    assert membership.status == Membership.Status.GUEST


def test_a_new_player_with_a_club_members_name_is_refused(tonight, club_members):
    with pytest.raises(ValidationError, match="déjà dans la liste"):
        services.player_add_to_tournament(
            tonight, club_members[0].display_name.upper(), guest=False
        )
    assert Player.objects.filter(display_name=club_members[0].display_name).count() == 1
