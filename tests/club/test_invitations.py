"""An invitation speaks for the club that sent it only: one club's admin cannot give himself,
through an invitation, a player's rights in another club."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from club import invitations
from club.models import Membership, PlayerClaim
from games.models import Deal
from tests.conftest import persona
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory

pytestmark = pytest.mark.django_db

INVITE_LINK = re.compile(r"https?://testserver(/compte/invitation/[^/\s]+/)")
CONFIRM_LINK = re.compile(r"https?://testserver(/compte/relier/[^/\s]+/)")
PASSWORD = "un-mot-de-passe-solide-2026"
EVIL = "quelquun@example.net"
SOLO = {"contract": "solo", "bid": 6, "declarers": ["3"], "tricks": 6}


@pytest.fixture
def club_b(db):
    return ClubFactory(name="Whist Club Liège", slug="liege")


@pytest.fixture
def admin_b(club_b):
    return persona(club_b, "admin-liege", Membership.Role.ADMIN)


def both_clubs_player(club, club_b, email=""):
    """P: a scorer of club A (the RCWhist fixture) and a member of club B, without account."""
    player = PlayerFactory(club=club, club__role=Membership.Role.SCORER, email=email)
    MembershipFactory(club=club_b, player=player)
    return player


def invite_and_accept(client, club_b, admin_b, player, mailoutbox):
    """Club B's admin invites the player at an address he controls and opens the link."""
    client.force_login(admin_b)
    client.post(reverse("invite", args=[club_b.slug, player.pk]), {"email": EVIL})
    client.logout()
    path = INVITE_LINK.search(mailoutbox[-1].body).group(1)
    response = client.post(path, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert response.status_code == 302
    return response


def test_an_invitation_from_club_b_gives_no_rights_in_club_a(
    client, club, club_b, admin_b, running_night, mailoutbox
):
    player = both_clubs_player(club, club_b, email="p.dupont@example.org")

    invite_and_accept(client, club_b, admin_b, player, mailoutbox)

    player.refresh_from_db()
    assert player.user is None
    assert player.email == "p.dupont@example.org"  # nothing overwrote the address on file
    # The new account (signed in) is nobody in club A: A's running night stays closed to it.
    night_url = reverse("games:tournament", args=[club.slug, running_night.pk])
    assert client.get(night_url).status_code == 404
    poule = running_night.poules.first()
    sheet_url = reverse("games:sheet", args=[club.slug, running_night.pk, poule.pk])
    response = client.post(sheet_url, {"contract": "solo", "bid": 6, "declarers": "3"})
    assert response.status_code == 404
    assert not Deal.objects.exists()


def test_the_address_on_file_confirms_the_claim_and_only_then_the_account_gets_the_player(
    client, club, club_b, admin_b, mailoutbox
):
    player = both_clubs_player(club, club_b, email="p.dupont@example.org")
    invite_and_accept(client, club_b, admin_b, player, mailoutbox)
    confirmation = mailoutbox[-1]
    assert confirmation.to == ["p.dupont@example.org"]
    assert EVIL in confirmation.body

    path = CONFIRM_LINK.search(confirmation.body).group(1)
    assert client.get(path).status_code == 200  # a mail scanner opening it confirms nothing
    player.refresh_from_db()
    assert player.user is None

    client.post(path)

    player.refresh_from_db()
    assert player.user.email == EVIL
    assert player.email == "p.dupont@example.org"
    assert client.post(path).status_code == 404  # once


def test_without_an_address_on_file_the_other_club_approves_and_the_inviting_club_cannot(
    client, club, club_b, admin_b, club_admin, mailoutbox
):
    player = both_clubs_player(club, club_b)
    invite_and_accept(client, club_b, admin_b, player, mailoutbox)
    player.refresh_from_db()
    assert player.email == ""  # club B's address does not become the one on file
    claim = PlayerClaim.objects.get()
    assert len(mailoutbox) == 1  # the invitation only: no address to confirm from

    client.force_login(admin_b)
    approve_b = reverse("claim-approve", args=[club_b.slug, claim.pk])
    assert client.post(approve_b).status_code == 404
    client.force_login(club_admin)
    client.post(reverse("claim-approve", args=[club.slug, claim.pk]))

    player.refresh_from_db()
    assert player.user == claim.user


def test_a_member_of_another_club_cannot_approve_for_its_admin(
    client, club, club_b, admin_b, scorer, mailoutbox
):
    player = both_clubs_player(club, club_b)
    invite_and_accept(client, club_b, admin_b, player, mailoutbox)
    claim = PlayerClaim.objects.get()

    client.force_login(scorer)
    response = client.post(reverse("claim-approve", args=[club.slug, claim.pk]))

    assert response.status_code == 403
    player.refresh_from_db()
    assert player.user is None


def test_an_invitation_to_another_address_than_the_one_on_file_waits_for_it(
    client, club, mailoutbox, club_admin
):
    player = PlayerFactory(club=club, email="anne@example.org")
    invitation = None
    invitations.invitation_send(
        club, player, "autre@example.org", by=club_admin, link_for=lambda token: token
    )
    invitation = player.invitations.get()

    user = invitations.invitation_accept(
        invitation, PASSWORD, confirm_link_for=lambda token: f"http://testserver/{token}"
    )

    player.refresh_from_db()
    assert player.user is None and user.player_claims.get().player == player
    assert mailoutbox[-1].to == ["anne@example.org"]


def test_a_player_of_one_club_invited_at_his_own_address_gets_his_account_at_once(
    client, club, club_admin, mailoutbox
):
    player = PlayerFactory(club=club)
    invitations.invitation_send(
        club, player, "bruno@example.org", by=club_admin, link_for=lambda token: token
    )

    invitations.invitation_accept(player.invitations.get(), PASSWORD)

    player.refresh_from_db()
    assert player.user.email == "bruno@example.org"
    assert not PlayerClaim.objects.exists()
