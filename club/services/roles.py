"""Roles ended because rows changed hands: a merge of two records of one person (or its undo)
moves a person's history, never a role. A role is a club's (or a federation's) trust in one
login; carried along with seats and standings it would hand that trust to whoever holds the
other record. So the role held through a row that moves, or by a record whose account changes,
ends: the membership stays, as a plain membership (the history of when he was a member is
kept); a federation administration goes. A club or a federation is never left without an
administrator by it, and the club that granted the role is told (``TaskName.MERGE_ROLES_EMAIL``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils.translation import gettext as _

from infra.typography import named

from ..models import Club, Federation, FederationAdmin, Membership, Player
from .members import admins_who_log_in
from .pages import federation_pages_changed

# The role's word in an entry for a federation's administration (a club's are
# ``Membership.Role``'s).
FEDERATION_ADMIN = "federation_admin"


@dataclass(frozen=True)
class Roles:
    """Roles held: open memberships with a role other than member, federation
    administrations."""

    memberships: list[Membership]
    federations: list[FederationAdmin]

    def __bool__(self) -> bool:
        return bool(self.memberships or self.federations)


def roles_held(
    players: Iterable[Player] = (),
    memberships: Iterable[int] = (),
    federation_roles: Iterable[int] = (),
) -> Roles:
    """The roles these records hold, and those held through these rows (ids of memberships
    and of federation administrations)."""
    players = [player.pk for player in players]
    return Roles(
        list(
            Membership.objects.current()
            .exclude(role=Membership.Role.MEMBER)
            .filter(Q(player__in=players) | Q(pk__in=list(memberships)))
            .select_related("club", "player")
            .order_by("club__name", "pk")
        ),
        list(
            FederationAdmin.objects.filter(Q(player__in=players) | Q(pk__in=list(federation_roles)))
            .select_related("federation", "player")
            .order_by("federation__name", "pk")
        ),
    )


def roles_end_refusal(roles: Roles) -> str | None:
    """Why these roles may not all end (None: they may): a club keeps an admin who can log
    in, a federation keeps an administrator."""
    ending = {m.pk for m in roles.memberships}
    for membership in roles.memberships:
        if (
            membership.role == Membership.Role.ADMIN
            and not admins_who_log_in(membership.club_id).exclude(pk__in=ending).exists()
        ):
            return named(
                _(
                    "%(player)s est le dernier administrateur de %(club)s qui peut se connecter, "
                    "et une fusion ne déplace jamais un rôle : son rôle prendrait fin. Donnez "
                    "d'abord ce rôle à un autre membre de %(club)s qui a un compte."
                ),
                player=membership.player,
                club=membership.club.name,
            )
    ending = {role.pk for role in roles.federations}
    for role in roles.federations:
        others = FederationAdmin.objects.filter(federation=role.federation_id)
        if not others.exclude(pk__in=ending).exists():
            return _(
                "%(player)s est le dernier administrateur de la fédération %(federation)s, et "
                "une fusion ne déplace jamais un rôle : son rôle prendrait fin. Nommez d'abord "
                "un autre administrateur de la fédération."
            ) % {"player": role.player, "federation": role.federation.name}
    return None


def _lock(model: type[Club] | type[Federation], ids: set[int]) -> None:
    """Lock these rows in order (two changes at once take turns instead of deadlocking)."""
    list(model.objects.select_for_update().filter(pk__in=ids).order_by("pk").values("pk"))


def roles_end(
    event: str,
    players: Iterable[Player] = (),
    memberships: Iterable[int] = (),
    federation_roles: Iterable[int] = (),
) -> list[dict]:
    """End the roles ``roles_held`` finds (in the caller's transaction): each membership
    becomes a plain one, each federation administration goes. Their clubs and federations are
    locked first and the roles read again, as a change of a club's admins does, so two changes
    at once cannot leave a club without one. Returns what ended, one entry a role, for the
    merge to keep and the clubs to be told."""
    chosen = (list(players), list(memberships), list(federation_roles))
    roles = roles_held(*chosen)
    _lock(Club, {m.club_id for m in roles.memberships})
    _lock(Federation, {role.federation_id for role in roles.federations})
    roles = roles_held(*chosen)
    if refusal := roles_end_refusal(roles):
        raise ValidationError(refusal)
    Membership.objects.filter(pk__in=[m.pk for m in roles.memberships]).update(
        role=Membership.Role.MEMBER
    )
    FederationAdmin.objects.filter(pk__in=[role.pk for role in roles.federations]).delete()
    for federation_id in sorted({role.federation_id for role in roles.federations}):
        federation_pages_changed(federation_id)
    ended = [
        {
            "event": event,
            "role": m.role,
            "club": m.club_id,
            "player": m.player_id,
            "name": m.player.display_name,
        }
        for m in roles.memberships
    ]
    return ended + [
        {
            "event": event,
            "role": FEDERATION_ADMIN,
            "federation": role.federation_id,
            "player": role.player_id,
            "name": role.player.display_name,
        }
        for role in roles.federations
    ]


def role_ended_line(entry: dict) -> str:
    """One ended role in words, for the club's merges page and the e-mail telling it."""
    if entry["role"] == FEDERATION_ADMIN:
        role = _("Administrateur de la fédération")
    else:
        role = Membership.Role(entry["role"]).label
    if entry["event"] == "merge":
        said = _("%(name)s n'est plus « %(role)s » : son rôle a pris fin avec la fusion.")
    elif entry["event"] == "undo":
        said = _(
            "%(name)s n'est plus « %(role)s » : ce rôle, donné depuis la fusion, a pris fin "
            "avec son annulation."
        )
    else:
        said = _(
            "La fusion a été annulée : %(name)s a retrouvé son historique, pas son rôle "
            "« %(role)s » ; redonnez-le-lui si vous le voulez."
        )
    return said % {"name": entry["name"], "role": role}
