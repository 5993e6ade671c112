"""A club admin never confirms a merge he proposed, even when one of the records is his own."""

import pytest
from django.core.exceptions import PermissionDenied

from club.models import Membership, PlayerMerge
from club.permissions import is_club_admin
from scoring.services import merge_confirm, merge_propose
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_an_admin_cannot_fold_another_clubs_player_into_his_own_record_alone(club, club_admin):
    elsewhere = ClubFactory(name="Club d'ailleurs")
    victim = PlayerFactory(
        user=UserFactory(username="victime"), club=elsewhere, club__role=Membership.Role.ADMIN
    )
    # Its other admin: the victim's role could end without leaving his club without one.
    PlayerFactory(user=UserFactory(username="autre"), club=elsewhere, club__role="admin")
    merge = merge_propose(club_admin.player, victim, club, club_admin)

    with pytest.raises(PermissionDenied):
        merge_confirm(merge, club_admin)

    assert PlayerMerge.objects.get(pk=merge.pk).status == PlayerMerge.Status.PROPOSED
    assert not is_club_admin(club_admin, elsewhere)
