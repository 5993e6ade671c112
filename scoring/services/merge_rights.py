"""Who may propose, confirm, refuse and undo a merge of two records of one person: the one
place that says it. The pages, Mon profil and the services (``merges``) ask only this module.

A merge takes the history of one record (the *merged* record, which disappears: the side
that LOSES) to another (the *kept* record). Nothing moves a role (``club.services.roles``),
but the history still is somebody's: a club admin who could fold another club's record into
a record he controls (his own, or a second account's) would take that player's standings and
« cote ». So the merge is confirmed by the losing side only: the merged record's own account,
or, when it has none, an admin of its clubs; never by the kept record's account, never by a
club of the kept record, never by the proposer alone.

=========================================  =======  =======  ======  ====
who (``user``)                             propose  confirm  refuse  undo
=========================================  =======  =======  ======  ====
the site's operator (superuser)            yes [1]  yes      yes     yes
the proposer (a club admin)                yes [1]  no       yes     yes [5]
another admin of the proposing club        yes [1]  [2]      yes     yes
the merged record's account                [1]      yes [3]  yes     yes
an admin of a club of the merged record,   [1]      yes [4]  yes     yes [4]
  not a club of the kept record
an admin of a club of the kept record      yes [1]  no       yes     no
the kept record's account                  [1]      no       yes     no
an admin of an unrelated club, a member,   no       no       no      no
  an outsider, a visitor
=========================================  =======  =======  ======  ====

[1] A merge is proposed by an admin of a club either record belongs or belonged to (a club's
    admin knows its own records; proposing moves nothing).
[2] As any admin of a club of the merged record: yes when the proposing club is one of the
    merged record's clubs and not one of the kept record's.
[3] Unless he proposed it himself: then nobody of the losing side has agreed but the
    proposer, and only the operator decides.
[4] Only when the merged record has no account (with an account, the player speaks for
    himself); the kept record's account and the proposer are refused even if they run such a
    club.
[5] As an admin of the proposing club, or as the losing side's account.

What may be merged at all is ``merges.merge_refusal``'s: among its rules, a login never
moves onto a record of a club that did not propose the merge (the merged record's account goes
to the kept record when that one has none: proposed by another club, a second login of its
admin would become the kept record's member); its pending invitations, claims and changes of
address are withdrawn, never moved.

Refusing is a veto: anybody with a stake in the merge may say no (either record's account,
either record's clubs, the proposing club); it moves nothing. Undoing gives each record back
its history and no role (the club gives a role again if it wants: it was told when the role
ended): the proposing club (its mistake to mend), the losing side (his record to take back)
and the operator may; the kept side may not, as it could not confirm.

After a merge the merged record's memberships are the kept record's; the losing side is then
read from the rows the merge moved (``PlayerMerge.moved``). Every answer is read without a
query per merge once the records' memberships are prefetched and the user's clubs read (a page
lists many merges).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.utils.translation import gettext as _

from club.models import Club, Membership, Player, PlayerMerge
from club.permissions import is_club_admin

# ``PlayerMerge.moved``'s keys for the merged record's memberships and for his account, moved
# to the kept record when it had none.
MEMBERSHIPS = "club.Membership.player"
ACCOUNT = "club.Player.user"


def _admin_clubs(user: User | AnonymousUser) -> set[int]:
    """The clubs ``user`` runs (an open admin membership), read once per request: a page lists
    many merges and asks of each whether he may decide it."""
    if "_merge_admin_clubs" not in user.__dict__:
        user.__dict__["_merge_admin_clubs"] = set(
            Membership.objects.admins().filter(player__user=user).values_list("club_id", flat=True)
        )
    return user.__dict__["_merge_admin_clubs"]


@dataclass(frozen=True)
class Sides:
    """The two sides of a merge: each record's account and clubs (the merged record's as they
    were before it, once done)."""

    losing_account: int | None
    losing_clubs: frozenset[int]
    kept_account: int | None
    kept_clubs: frozenset[int]

    @property
    def deciding_clubs(self) -> frozenset[int]:
        """The clubs that speak for the losing side: his clubs the kept record has not."""
        return self.losing_clubs - self.kept_clubs


def merge_sides(merge: PlayerMerge) -> Sides:
    """Read from the records' (prefetched) memberships and the rows the merge moved."""
    kept_rows = list(merge.kept.memberships.all())
    moved = set(merge.moved.get(MEMBERSHIPS, [])) if merge.status == merge.Status.DONE else set()
    losing = {m.club_id for m in merge.merged.memberships.all()}
    losing |= {m.club_id for m in kept_rows if m.pk in moved}
    if merge.status == merge.Status.DONE and ACCOUNT in merge.moved:
        losing_account, kept_account = merge.moved[ACCOUNT][0], None
    else:
        losing_account, kept_account = merge.merged.user_id, merge.kept.user_id
    return Sides(
        losing_account,
        frozenset(losing),
        kept_account,
        frozenset(m.club_id for m in kept_rows if m.pk not in moved),
    )


def _speaks_for_losing(sides: Sides, user: User) -> bool:
    """Whether ``user`` speaks for the record that disappears: its account, or when it has
    none an admin of its clubs; never the kept record's account."""
    if user.pk == sides.kept_account:
        return False
    if sides.losing_account is not None:
        return user.pk == sides.losing_account
    return bool(sides.deciding_clubs & _admin_clubs(user))


def merge_may_propose(user: User | AnonymousUser, club: Club, *records: Player) -> bool:
    """An admin of ``club`` (or the operator), a club one of the records belongs or belonged
    to."""
    return is_club_admin(user, club) and (
        Membership.objects.filter(club=club, player__in=records).exists()
    )


def merge_may_confirm(merge: PlayerMerge, user: User | AnonymousUser) -> bool:
    """The losing side but the proposer, or the operator."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return user.pk != merge.proposed_by_id and _speaks_for_losing(merge_sides(merge), user)


def merge_may_refuse(merge: PlayerMerge, user: User | AnonymousUser) -> bool:
    """Anybody with a stake: either record's account, an admin of either record's clubs or of
    the proposing club, the operator."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    sides = merge_sides(merge)
    if user.pk in (sides.losing_account, sides.kept_account):
        return True
    clubs = sides.losing_clubs | sides.kept_clubs | {merge.club_id}
    return bool(clubs & _admin_clubs(user))


def merge_may_undo(merge: PlayerMerge, user: User | AnonymousUser) -> bool:
    """The proposing club's admins, the losing side (the proposer too, when it is his own
    record), the operator."""
    if not user.is_authenticated:
        return False
    if user.is_superuser or merge.club_id in _admin_clubs(user):
        return True
    return _speaks_for_losing(merge_sides(merge), user)


def merge_refused(merge: PlayerMerge, user: User | AnonymousUser, action: str) -> str:
    """Why ``user`` may not do ``action`` (``"confirm"``, ``"refuse"``, ``"undo"``), in words
    that say who may."""
    if action == "refuse":
        said = _(
            "Cette fusion se refuse par l'un des deux joueurs, par l'un de leurs clubs ou par le "
            "club qui l'a proposée."
        )
    elif action == "undo":
        said = _(
            "Une fusion s'annule par le club qui l'a proposée, ou par %(merged)s lui-même (par "
            "son club s'il n'a pas de compte)."
        )
    elif user.is_authenticated and user.pk == merge.proposed_by_id:
        said = _(
            "Vous avez proposé cette fusion : elle se confirme par %(merged)s lui-même, dont "
            "la fiche disparaît, ou, s'il n'a pas de compte, par un administrateur de son club."
        )
    elif user.is_authenticated and user.pk == merge_sides(merge).kept_account:
        said = _(
            "Votre fiche est celle qui est gardée : la fusion se confirme par %(merged)s "
            "lui-même, dont la fiche disparaît, ou, s'il n'a pas de compte, par un "
            "administrateur de son club."
        )
    else:
        said = _(
            "Cette fusion se confirme par %(merged)s lui-même, dont la fiche disparaît, ou, "
            "s'il n'a pas de compte, par un administrateur de son club."
        )
    return said % {"merged": merge.merged.display_name}
