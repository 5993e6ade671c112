"""Players and their memberships: joining a club (by hand or from an imported file), the
members page's search, a member's name and contact details, roles, a membership ended or
resumed, a guest made a member. Each refuses in the club's words."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, OuterRef, Q, QuerySet, Subquery
from django.utils.translation import gettext as _

from infra.name_text import name_checked
from infra.outbox import TaskName, work_queue

from ..models import (
    Club,
    Invitation,
    Membership,
    Player,
    Season,
    name_key,
)
from ..name_order import by_name
from .pages import player_pages_changed


def player_join(
    club: Club,
    display_name: str,
    *,
    start: datetime.date,
    status: str = Membership.Status.ACTIVE,
) -> Player:
    """A new player and his membership of ``club`` (a guest or a member). A typed name is
    tidied and refused when the club has it already, whatever its case and accents (a club
    night file's players join as written: ``players_join_as_written``)."""
    display_name = name_checked(display_name)
    if not display_name:
        raise ValidationError(_("Donnez le nom du joueur."))
    if name_key(display_name) in names_taken(club):
        raise ValidationError(
            _("%(name)s est déjà dans la liste du club : cochez-le parmi les présents.")
            % {"name": display_name}
        )
    player = _new_player(club, display_name)
    player.full_clean()
    player.save()
    membership = Membership(club=club, player=player, start=start, status=status)
    membership.full_clean()
    membership.save()
    return player


def players_join_as_written(
    club: Club, names: Sequence[str], *, start: datetime.date, guest: bool = False
) -> dict[str, Player]:
    """The players of a club-night file the club does not have yet, each with his membership,
    in two statements: a club's first imported night brings all its players at once. Their
    names are kept exactly as the file writes them (the importer matched the club's own by
    that exact name, and checked their length, before). ``guest``: they join as guests (the
    unknown visitors of an inter-club night)."""
    players = [_new_player(club, name) for name in names]
    for player in players:
        # The fields only: no player of these names is in the club, and there is no other
        # unique value to look up.
        player.full_clean(validate_unique=False, validate_constraints=False)
    Player.objects.bulk_create(players)
    Membership.objects.bulk_create(
        Membership(
            club=club,
            player=player,
            start=start,
            status=Membership.Status.GUEST if guest else Membership.Status.ACTIVE,
        )
        for player in players
    )
    return {player.display_name: player for player in players}


def _new_player(club: Club, display_name: str) -> Player:
    first, _sep, last = display_name.partition(" ")
    # A new player reads the site and his e-mails in his club's language until he chooses.
    return Player(
        display_name=display_name, first_name=first, last_name=last, language=club.language
    )


# --------------------------------------------------------------------------------------------
# The club admin's area: members and roles, seasons, the club's settings. Each change is one
# function here (the pages, and the API, call them); each refuses in the club's words.

# What the members page filters on.
MEMBER_FILTERS = (
    "active",
    "former",
    "guest",
    "admin",
    "scorer",
    "invited",
    "account",
    "no_account",
)


def _latest_memberships(club: Club) -> QuerySet[Membership]:
    """Each player's latest membership of the club (an ended one and its resumption are one
    line: the newest)."""
    newest = (
        Membership.objects.filter(club=club, player=OuterRef("player"))
        .order_by(F("end").desc(nulls_first=True), "-start", "-pk")
        .values("pk")[:1]
    )
    return Membership.objects.filter(club=club, pk=Subquery(newest))


def members_search(club: Club, text: str = "", filters: Iterable[str] = ()) -> QuerySet[Membership]:
    """The club's players, one line each (his latest membership), by name or e-mail and by
    the page's filters (``MEMBER_FILTERS``); every filter given must hold."""
    memberships = _latest_memberships(club).select_related("player__user")
    for word in text.split():
        memberships = memberships.filter(
            Q(player__display_name__icontains=word) | Q(player__email__icontains=word)
        )
    pending = Invitation.objects.filter(club=club, accepted_at__isnull=True)
    wanted = {
        "active": Membership.objects.current_q() & ~Q(status=Membership.Status.GUEST),
        "former": Q(end__isnull=False),
        "guest": Membership.objects.current_q() & Q(status=Membership.Status.GUEST),
        "admin": Membership.objects.current_q() & Q(role=Membership.Role.ADMIN),
        "scorer": Membership.objects.current_q() & Q(role=Membership.Role.SCORER),
        "invited": Q(player__in=pending.values("player"), player__user__isnull=True),
        "account": Q(player__user__isnull=False),
        "no_account": Q(player__user__isnull=True),
    }
    for name in filters:
        if name in wanted:
            memberships = memberships.filter(wanted[name])
    return memberships.order_by(*by_name("player__", club))


def names_taken(club: Club, but: Player | None = None) -> dict[str, str]:
    """The names of the club's players (but ``but``), each under its key: the one rule that a
    club has no two players of one name, whatever their case and accents (a player added, a
    name changed, a request to join accepted, members imported)."""
    players = Player.objects.in_club(club)
    if but is not None:
        players = players.exclude(pk=but.pk)
    return {name_key(name): name for name in players.values_list("display_name", flat=True)}


@transaction.atomic
def member_add(
    club: Club,
    display_name: str,
    *,
    start: datetime.date,
    role: str = Membership.Role.MEMBER,
    email: str = "",
) -> Player:
    """A new member of the club (the duplicate-name check of ``player_join``), with his
    role and his e-mail address for the invitation."""
    if role not in Membership.Role.values:
        raise ValidationError({"role": _("Rôle inconnu : %(role)s.") % {"role": role}})
    player = player_join(club, display_name, start=start)
    if role != Membership.Role.MEMBER:
        Membership.objects.filter(club=club, player=player).update(role=role)
    if email:
        player.email = email.strip().lower()
        player.full_clean()
        player.save(update_fields=["email"])
    return player


def member_edit_refusal(player: Player) -> str:
    return _(
        "%(player)s est aussi membre d'un autre club : il change son nom et ses coordonnées "
        "lui-même (Mon profil), sinon l'administrateur du site."
    ) % {"player": player}


@transaction.atomic
def member_edit(club: Club, player: Player, **fields: str) -> Player:
    """A club admin corrects a member's name or contact details (``display_name``,
    ``first_name``, ``last_name``, ``email``, ``phone``). A name the club has already is
    refused; a player with an account keeps his own e-mail (he changes it himself).

    A player who also belongs (or belonged) to another club is that club's too: one club's
    admin renaming him would rename him in the other's lists and sheets. His name and contact
    are then his own to change (Mon profil), or the site operator's."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    memberships = Membership.objects.filter(player=player)
    if not memberships.filter(club=club).exists():
        raise ValidationError(_("%(player)s n'est pas membre du club.") % {"player": player})
    if memberships.exclude(club=club).exists():
        raise ValidationError(member_edit_refusal(player))
    allowed = {"display_name", "first_name", "last_name", "email", "phone"}
    if unknown := set(fields) - allowed:
        raise ValueError(f"not a member's detail: {sorted(unknown)}")
    if "display_name" in fields:
        fields["display_name"] = " ".join(fields["display_name"].split())
        if name_key(fields["display_name"]) in names_taken(club, but=player):
            raise ValidationError(
                {
                    "display_name": _("%(name)s est déjà dans la liste du club.")
                    % {"name": fields["display_name"]}
                }
            )
    if "email" in fields and player.user_id and fields["email"] != player.email:
        raise ValidationError(
            {"email": _("Ce membre a un compte : il change son adresse lui-même (Mon profil).")}
        )
    for name, value in fields.items():
        setattr(player, name, value.strip() if isinstance(value, str) else value)
    player.full_clean()
    player.save()
    player_pages_changed(player)
    return player


def admins_who_log_in(club_id: int) -> QuerySet[Membership]:
    """The club's admins who can log in: an admin without an account (or whose account is
    closed) cannot run the club, so he does not count as the one it keeps."""
    return Membership.objects.admins().filter(
        club_id=club_id,
        player__user__isnull=False,
        player__user__is_active=True,
    )


def _admins_left(club: Club, but: Membership) -> int:
    """The club's other admins who can log in."""
    # Locked: two admins taking each other's role at once leave one, not none.
    return len(
        admins_who_log_in(club.pk)
        .select_for_update()
        .exclude(pk=but.pk)
        .values_list("pk", flat=True)
    )


def _club_locked(membership: Membership) -> None:
    """Every change of a club's admins locks the club's row first: two admins demoting each
    other at once then take their turns, instead of each locking his own membership and
    waiting for the other's (a deadlock on PostgreSQL)."""
    club_id = Membership.objects.filter(pk=membership.pk).values_list("club_id", flat=True)
    Club.objects.select_for_update().filter(pk__in=club_id).first()


def _last_admin_refused(membership: Membership) -> None:
    if membership.role == Membership.Role.ADMIN and not _admins_left(membership.club, membership):
        raise ValidationError(
            _(
                "%(player)s est le dernier administrateur du club qui peut se connecter : "
                "donnez d'abord ce rôle à un autre membre qui a un compte."
            )
            % {"player": membership.player}
        )


@transaction.atomic
def role_set(membership: Membership, role: str) -> Membership:
    """Give or take the scorer or club admin role; a club always keeps one admin."""
    _club_locked(membership)
    membership = (
        Membership.objects.select_for_update()
        .select_related("player", "club")
        .get(pk=membership.pk)
    )
    if role not in Membership.Role.values:
        raise ValidationError(_("Rôle inconnu : %(role)s.") % {"role": role})
    if membership.end is not None:
        raise ValidationError(
            _("%(player)s n'est plus membre : reprenez d'abord son affiliation.")
            % {"player": membership.player}
        )
    if role != Membership.Role.ADMIN:
        _last_admin_refused(membership)
    membership.role = role
    membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def membership_end(membership: Membership, end: datetime.date) -> Membership:
    """The member leaves the club on ``end``: his results stay, he no longer has a role."""
    _club_locked(membership)
    membership = (
        Membership.objects.select_for_update()
        .select_related("player", "club")
        .get(pk=membership.pk)
    )
    if membership.end is not None:
        raise ValidationError(
            _("%(player)s n'est déjà plus membre.") % {"player": membership.player}
        )
    _last_admin_refused(membership)
    membership.end = end
    membership.full_clean()
    membership.save(update_fields=["end"])
    return membership


@transaction.atomic
def membership_resume(club: Club, player: Player, start: datetime.date) -> Membership:
    """A former member comes back: a new membership from ``start`` (the old one stays as the
    record of when he was a member), as a plain member."""
    Player.objects.select_for_update().filter(pk=player.pk).first()
    memberships = Membership.objects.filter(club=club, player=player)
    if not memberships.exists():
        raise ValidationError(_("%(player)s n'est pas membre du club.") % {"player": player})
    if memberships.current().exists():
        raise ValidationError(_("%(player)s est déjà membre.") % {"player": player})
    last = memberships.order_by("-end").first()
    if last.end and start <= last.end:
        raise ValidationError(
            _("La reprise doit suivre la fin de la dernière affiliation (%(end)s).")
            % {"end": last.end.strftime("%d/%m/%Y")}
        )
    membership = Membership(
        club=club,
        player=player,
        start=start,
        status=Membership.Status.ACTIVE if last.status == Membership.Status.FORMER else last.status,
    )
    membership.full_clean()
    membership.save()
    return membership


@transaction.atomic
def guest_to_member(membership: Membership) -> Membership:
    """A guest becomes a member. He is the same player: his results stay his, and a season
    that ranks members only now ranks him (its live ranking is recomputed after commit)."""
    membership = (
        Membership.objects.select_for_update()
        .select_related("player", "club")
        .get(pk=membership.pk)
    )
    if membership.status != Membership.Status.GUEST:
        raise ValidationError(_("%(player)s n'est pas un invité.") % {"player": membership.player})
    membership.status = Membership.Status.ACTIVE
    membership.save(update_fields=["status"])
    for season_id in Season.objects.filter(
        club=membership.club_id, ranking_guests=False
    ).values_list("pk", flat=True):
        work_queue(TaskName.SEASON_RANKING_UPDATE, season_id)
    return membership
