"""Who decides a merge of two records (``merges``): the player himself, the other record's
club, the proposing club, the site's operator. Read without a query per merge once the
records' memberships are prefetched and the user's clubs read (a page lists many merges)."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.utils.translation import gettext as _

from club.models import Membership, PlayerMerge


def _admin_clubs(user: User | AnonymousUser) -> set[int]:
    """The clubs ``user`` runs (an open admin membership), read once per request: a page lists
    many merges and asks of each whether he may decide it."""
    if "_merge_admin_clubs" not in user.__dict__:
        user.__dict__["_merge_admin_clubs"] = set(
            Membership.objects.filter(
                player__user=user, role=Membership.Role.ADMIN, end__isnull=True
            ).values_list("club_id", flat=True)
        )
    return user.__dict__["_merge_admin_clubs"]


def _record_clubs(merge: PlayerMerge) -> set[int]:
    """The clubs either record belongs or belonged to (``memberships`` may be prefetched)."""
    return {m.club_id for player in (merge.kept, merge.merged) for m in player.memberships.all()}


def merge_may_confirm(merge: PlayerMerge, user: User | AnonymousUser) -> bool:
    """The player himself (either record's account), an admin of a club of either record other
    than the proposing club, or the site's operator: never the proposer alone."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    # Before the player's own right: an admin proposing to fold another club's record into
    # his own would otherwise confirm it himself (and take that record's memberships, roles).
    if user.pk == merge.proposed_by_id:
        return False
    if user.pk in (merge.kept.user_id, merge.merged.user_id):
        return True
    return bool((_record_clubs(merge) - {merge.club_id}) & _admin_clubs(user))


def merge_may_undo(merge: PlayerMerge, user: User | AnonymousUser) -> bool:
    """The proposing club's admins, the one who confirmed, the player, the site's operator."""
    if not user.is_authenticated:
        return False
    if user.is_superuser or user.pk in (
        merge.kept.user_id,
        merge.merged.user_id,
        merge.decided_by_id,
    ):
        return True
    return merge.club_id in _admin_clubs(user)


def merge_may_refuse(merge: PlayerMerge, user: User | AnonymousUser) -> bool:
    """Those who may confirm may refuse; the proposing club's admins may withdraw it."""
    if not user.is_authenticated:
        return False
    return merge.club_id in _admin_clubs(user) or merge_may_confirm(merge, user)


def confirm_refusal(merge: PlayerMerge, by: User | AnonymousUser) -> str:
    if by.is_authenticated and by.pk == merge.proposed_by_id:
        return _(
            "Vous avez proposé cette fusion : c'est le joueur lui-même ou l'administrateur de "
            "son autre club qui la confirme."
        )
    return _(
        "Cette fusion se confirme par le joueur lui-même ou par un administrateur de son autre "
        "club."
    )
