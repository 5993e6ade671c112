"""A merge moves history, never a role: the merged record's roles (club admin, scorer,
federation administrator) end, the kept record's too when the merged record's account comes
to it; a club or a federation is never left without an administrator; whoever granted a role
is told once; an undo gives no role back and ends one given since through a row it moves."""

from __future__ import annotations

import pytest
from django.core import mail
from django.core.exceptions import ValidationError

from club import mailing, tasks
from club.models import FederationAdmin, Membership, Player, PlayerMerge
from club.permissions import club_access, is_club_admin, is_federation_admin
from club.services import (
    federation_admin_add,
    federation_admin_remove,
    federation_open,
    role_set,
)
from scoring.services import merge_confirm, merge_propose, merge_undo
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

ADMIN, SCORER, MEMBER = Membership.Role.ADMIN, Membership.Role.SCORER, Membership.Role.MEMBER


@pytest.fixture
def operator():
    return UserFactory(username="operateur", is_superuser=True)


@pytest.fixture
def clubs():
    """The kept record's club (with its admin) and the merged record's (with its admin)."""
    kept_club, losing_club = ClubFactory(name="Club A"), ClubFactory(name="Club B")
    for name, club in (("admin-a", kept_club), ("admin-b", losing_club)):
        PlayerFactory(user=UserFactory(username=name), club=club, club__role=ADMIN)
    return kept_club, losing_club


def records(clubs, *, merged_role=MEMBER, merged_account=True, kept_account=True, kept_role=MEMBER):
    kept_club, losing_club = clubs
    kept = PlayerFactory(
        display_name="Zoé Dupont",
        user=UserFactory(username="zoe-a") if kept_account else None,
        club=kept_club,
        club__role=kept_role,
    )
    merged = PlayerFactory(
        display_name="Zoe Dupont",
        user=UserFactory(username="zoe-b") if merged_account else None,
        club=losing_club,
        club__role=merged_role,
    )
    return kept, merged


def roles_mail() -> list:
    return [message for message in mail.outbox if "fusion de fiches" in message.subject]


def test_the_merged_records_scorer_and_federation_roles_end_and_whoever_granted_them_is_told(
    clubs, operator, django_capture_on_commit_callbacks
):
    kept_club, losing_club = clubs
    kept, merged = records(clubs, merged_role=SCORER)
    federation = federation_open("Ligue", clubs=[kept_club, losing_club])
    federation_admin_add(federation, merged)
    other = PlayerFactory(user=UserFactory(username="ligue", email="ligue@example.org"))
    federation_admin_add(federation, other)
    merge = merge_propose(kept, merged, kept_club, operator)

    with django_capture_on_commit_callbacks(execute=True):
        merge = merge_confirm(merge, merged.user)

    account = merged.user
    assert Membership.objects.get(club=losing_club, player=kept).role == MEMBER
    assert not club_access(kept.user, losing_club).is_scorer
    assert not club_access(account, losing_club).is_scorer
    assert not FederationAdmin.objects.filter(player__in=[kept, merged]).exists()
    assert not is_federation_admin(account, federation)
    assert [(e["role"], e.get("club"), e.get("federation")) for e in merge.roles_ended] == [
        (SCORER, losing_club.pk, None),
        ("federation_admin", None, federation.pk),
    ]
    told = {tuple(m.to): m.body for m in roles_mail()}
    assert set(told) == {("admin-b@example.org",), ("ligue@example.org",)}
    assert "n'est plus « Marqueur »" in told["admin-b@example.org",]
    assert "n'est plus « Administrateur de la fédération »" in told["ligue@example.org",]


def test_a_federations_last_administrator_is_not_merged_away(clubs, operator):
    kept_club, losing_club = clubs
    kept, merged = records(clubs)
    federation = federation_open("Ligue", clubs=[losing_club])
    federation_admin_add(federation, merged)
    with pytest.raises(ValidationError, match="dernier administrateur de la fédération Ligue"):
        merge_propose(kept, merged, kept_club, operator)
    # Proposed while another administrator was there, confirmed once he stepped down.
    other = PlayerFactory(user=UserFactory(username="ligue"))
    federation_admin_add(federation, other)
    merge = merge_propose(kept, merged, kept_club, operator)
    federation_admin_remove(federation, other)

    with pytest.raises(ValidationError, match="dernier administrateur de la fédération Ligue"):
        merge_confirm(merge, merged.user)
    assert FederationAdmin.objects.filter(player=merged).exists()
    assert PlayerMerge.objects.get().status == PlayerMerge.Status.PROPOSED


def test_the_kept_records_roles_end_when_the_merged_records_account_comes_to_it(
    clubs, operator, django_capture_on_commit_callbacks
):
    """A record with no account that a club made its admin: the account that comes with the
    merge never held that role, so it does not get it."""
    kept_club, _losing_club = clubs
    kept, merged = records(clubs, kept_account=False, kept_role=ADMIN)
    merge = merge_propose(kept, merged, kept_club, operator)

    with django_capture_on_commit_callbacks(execute=True):
        merge_confirm(merge, merged.user)

    account = merged.user
    assert Player.objects.get(user=account) == kept
    assert not is_club_admin(account, kept_club)
    assert Membership.objects.get(club=kept_club, player=kept).role == MEMBER
    [told] = roles_mail()
    assert told.to == ["admin-a@example.org"]


def test_an_undo_ends_a_role_given_since_through_a_row_it_moves_back(
    clubs, operator, django_capture_on_commit_callbacks
):
    kept_club, losing_club = clubs
    kept, merged = records(clubs)
    merge = merge_confirm(merge_propose(kept, merged, kept_club, operator), merged.user)
    # Club B makes the kept record's person its admin, through the membership that moved.
    moved = Membership.objects.get(club=losing_club, player=kept)
    role_set(moved, ADMIN)
    assert is_club_admin(kept.user, losing_club)

    with django_capture_on_commit_callbacks(execute=True):
        merge = merge_undo(merge, operator)

    moved.refresh_from_db()
    assert (moved.player, moved.role) == (merged, MEMBER)
    assert not is_club_admin(UserFactory.build(pk=kept.user_id), losing_club)
    assert [e["event"] for e in merge.roles_ended] == ["undo"]


def test_an_undo_that_would_leave_a_club_without_its_admin_is_refused(clubs, operator):
    kept_club, losing_club = clubs
    kept, merged = records(clubs)
    merge = merge_confirm(merge_propose(kept, merged, kept_club, operator), merged.user)
    role_set(Membership.objects.get(club=losing_club, player=kept), ADMIN)
    role_set(Membership.objects.get(club=losing_club, player__user__username="admin-b"), MEMBER)

    with pytest.raises(ValidationError, match="dernier administrateur de Club B"):
        merge_undo(merge, operator)
    assert PlayerMerge.objects.get().status == PlayerMerge.Status.DONE


def test_the_club_is_told_once_however_often_the_task_runs(
    clubs, operator, django_capture_on_commit_callbacks
):
    kept_club, _losing_club = clubs
    kept, merged = records(clubs, merged_role=SCORER)
    with django_capture_on_commit_callbacks(execute=True):
        merge = merge_confirm(merge_propose(kept, merged, kept_club, operator), merged.user)
    assert len(roles_mail()) == 1

    assert tasks.merge_roles_email(merge.pk) == 0
    assert mailing.merge_roles_send(merge.pk) == 0
    assert len(roles_mail()) == 1
