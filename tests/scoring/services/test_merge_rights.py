"""``merge_rights``' table, one test a line of it: who may propose, confirm, refuse and undo a
merge, asked of the rule and of the services (which ask only the rule), a refusal in words.

The world: the kept record (« Zoé ») at the kept club, the merged record (« Zoe », the side
that loses its record) at the losing club, each club with two admins; the proposing club is
one or the other; the merged record has an account or not."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied

from club.models import Membership, Player, PlayerMerge
from club.permissions import is_club_admin
from scoring.services import (
    merge_confirm,
    merge_may_confirm,
    merge_may_propose,
    merge_may_refuse,
    merge_may_undo,
    merge_propose,
    merge_refuse,
    merge_undo,
)
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@dataclass
class World:
    kept: Player
    merged: Player
    users: dict


def world(proposing: str, losing_account: bool) -> tuple[World, PlayerMerge]:
    kept_club = ClubFactory(name="Club de la fiche gardée")
    losing_club = ClubFactory(name="Club de la fiche perdue")
    users = {"anonymous": AnonymousUser()}
    for name, club, role in [
        ("kept_admin", kept_club, Membership.Role.ADMIN),
        ("kept_co_admin", kept_club, Membership.Role.ADMIN),
        ("losing_admin", losing_club, Membership.Role.ADMIN),
        ("losing_co_admin", losing_club, Membership.Role.ADMIN),
        ("member", kept_club, Membership.Role.MEMBER),
        ("unrelated_admin", ClubFactory(name="Club d'ailleurs"), Membership.Role.ADMIN),
        ("outsider", ClubFactory(name="Club lointain"), Membership.Role.MEMBER),
    ]:
        users[name] = UserFactory(username=name)
        PlayerFactory(user=users[name], club=club, club__role=role)
    users["operator"] = UserFactory(username="operator", is_superuser=True, is_staff=True)
    users["kept_account"] = UserFactory(username="zoe-gardee")
    kept = PlayerFactory(display_name="Zoé Dupont", user=users["kept_account"], club=kept_club)
    users["losing_account"] = UserFactory(username="zoe-perdue") if losing_account else None
    merged = PlayerFactory(
        display_name="Zoe Dupont", user=users["losing_account"], club=losing_club
    )
    proposer = users[f"{proposing}_admin"]
    club = kept_club if proposing == "kept" else losing_club
    return World(kept, merged, users), merge_propose(kept, merged, club, proposer)


# (proposing club, merged record has an account, who) → may confirm, refuse, undo.
CASES = {
    # The kept record's club proposes: the attack's shape (an admin folds a record into one he
    # controls); only the losing side confirms.
    ("kept", True, "operator"): (True, True, True),
    ("kept", True, "kept_admin"): (False, True, True),  # the proposer
    ("kept", True, "kept_co_admin"): (False, True, True),  # the proposing (kept) club
    ("kept", True, "losing_admin"): (False, True, False),  # the player speaks for himself
    ("kept", True, "losing_account"): (True, True, True),
    ("kept", True, "kept_account"): (False, True, False),
    ("kept", True, "member"): (False, False, False),
    ("kept", True, "unrelated_admin"): (False, False, False),
    ("kept", True, "outsider"): (False, False, False),
    ("kept", True, "anonymous"): (False, False, False),
    ("kept", False, "operator"): (True, True, True),
    ("kept", False, "kept_admin"): (False, True, True),
    ("kept", False, "kept_co_admin"): (False, True, True),
    ("kept", False, "losing_admin"): (True, True, True),  # no account: his club decides
    ("kept", False, "losing_co_admin"): (True, True, True),
    ("kept", False, "kept_account"): (False, True, False),
    ("kept", False, "member"): (False, False, False),
    ("kept", False, "unrelated_admin"): (False, False, False),
    # The losing record's club proposes: a second admin of it may confirm for a record with no
    # account, never the proposer alone.
    ("losing", True, "losing_admin"): (False, True, True),  # the proposer
    ("losing", True, "losing_co_admin"): (False, True, True),
    ("losing", True, "losing_account"): (True, True, True),
    ("losing", True, "kept_admin"): (False, True, False),
    ("losing", True, "kept_account"): (False, True, False),
    ("losing", False, "losing_admin"): (False, True, True),  # the proposer
    ("losing", False, "losing_co_admin"): (True, True, True),
    ("losing", False, "kept_admin"): (False, True, False),
    ("losing", False, "kept_account"): (False, True, False),
    ("losing", False, "operator"): (True, True, True),
}


@pytest.mark.parametrize(
    ("proposing", "losing_account", "who"),
    list(CASES),
    ids=[f"{p}-club-proposes-{'with' if a else 'no'}-account-{w}" for p, a, w in CASES],
)
def test_who_may_confirm_refuse_and_undo(proposing, losing_account, who):
    confirm, refuse, undo = CASES[proposing, losing_account, who]
    w, merge = world(proposing, losing_account)
    user = w.users[who]
    assert merge_may_refuse(merge, user) is refuse
    assert merge_may_confirm(merge, user) is confirm

    if confirm:
        merge = merge_confirm(merge, user)
        assert merge.status == PlayerMerge.Status.DONE
    else:
        with pytest.raises(PermissionDenied, match="se confirme par Zoe Dupont lui-même"):
            merge_confirm(merge, user)
        merge = merge_confirm(merge, w.users["operator"])
    # Once done, the losing side is read from the rows that moved.
    merge = PlayerMerge.objects.select_related("kept", "merged").get(pk=merge.pk)
    assert merge_may_undo(merge, user) is undo
    if undo:
        assert merge_undo(merge, user).status == PlayerMerge.Status.UNDONE
    else:
        with pytest.raises(PermissionDenied, match="s'annule par le club qui l'a proposée"):
            merge_undo(merge, user)
        merge_undo(merge, w.users["operator"])

    again = merge_propose(w.kept, w.merged, merge.club, merge.proposed_by)
    if refuse:
        assert merge_refuse(again, user).status == PlayerMerge.Status.REFUSED
    else:
        with pytest.raises(PermissionDenied, match="se refuse"):
            merge_refuse(again, user)


def test_the_merged_records_own_account_proposing_does_not_confirm_alone():
    """He who proposes to fold his own record into another (taking that record's history
    once he confirms) needs somebody else: with an account, only the operator."""
    w, _merge = world("losing", losing_account=True)
    own = w.users["losing_account"]
    Membership.objects.filter(player=w.merged).update(role=Membership.Role.ADMIN)
    merge = PlayerMerge.objects.get()
    merge.delete()
    merge = merge_propose(w.kept, w.merged, w.merged.memberships.get().club, own)

    assert not merge_may_confirm(merge, own)
    with pytest.raises(PermissionDenied, match="Vous avez proposé cette fusion"):
        merge_confirm(merge, own)
    assert merge_confirm(merge, w.users["operator"]).status == PlayerMerge.Status.DONE
    # Undoing his own record's merge gives him back his history: he may.
    assert merge_undo(merge, own).status == PlayerMerge.Status.UNDONE


@pytest.mark.parametrize(
    ("who", "may"),
    [
        ("kept_admin", True),
        ("losing_admin", True),
        ("operator", True),
        ("member", False),
        ("unrelated_admin", False),
        ("outsider", False),
        ("anonymous", False),
    ],
)
def test_who_may_propose(who, may):
    w, merge = world("kept", losing_account=True)
    merge.delete()
    user = w.users[who]
    club = (
        user.player.memberships.get().club
        if who.endswith("admin")
        else w.kept.memberships.get().club
    )
    assert merge_may_propose(user, club, w.kept, w.merged) is may
    if may:
        assert merge_propose(w.kept, w.merged, club, user).status == PlayerMerge.Status.PROPOSED
    else:
        with pytest.raises(PermissionDenied, match="Seul un administrateur"):
            merge_propose(w.kept, w.merged, club, user)


# A club admin never confirms a merge he proposed, even when one of the records is his own.


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
