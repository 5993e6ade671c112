"""Members brought in from a spreadsheet, stored at once: the new players with their
memberships (and their phone, and their choice of initials), former members and guests made
members again, and the invitations of those with an address queued in the outbox, all in one
transaction. The lines were read and checked before (``club.member_import``); what may have
changed since (a name taken by another admin meanwhile, a player gone) is checked again here,
with the club locked, and refuses the whole."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from infra.outbox import TaskName, work_queue

from ..models import Club, MemberImport, Membership, Player, name_key
from ..services.members import guest_to_member, names_taken
from .lines import MemberLine


@dataclass(frozen=True)
class MemberEntry:
    """A good line of the table (``club.member_import.lines``): a new player (``player_id``
    None) or one of the club's; ``invite``: his invitation goes to the line's address."""

    line: MemberLine
    player_id: int | None = None
    invite: bool = False
    # The address is another club's member's: the new player is stored without it, which he
    # gets when he accepts the invitation.
    address_held: bool = False


def _new_players(club: Club, entries: Sequence[MemberEntry]) -> list[Player]:
    taken = names_taken(club)
    problems = [
        _("Ligne %(line)s : %(name)s est déjà dans la liste du club.")
        % {"line": entry.line.line, "name": taken[name_key(entry.line.name)]}
        for entry in entries
        if name_key(entry.line.name) in taken
    ]
    if problems:
        raise ValidationError(problems)
    players = [
        Player(
            display_name=line.name,
            first_name=line.first_name,
            last_name=line.last_name,
            email="" if entry.address_held else line.email,
            phone=line.phone,
            public_name=Player.PublicName.INITIALS if line.initials else Player.PublicName.FULL,
            # He reads the site and his e-mails in his club's language until he chooses.
            language=club.language,
        )
        for entry, line in ((entry, entry.line) for entry in entries)
    ]
    for player in players:
        # The fields only: the club's names were compared above, whatever their case.
        player.full_clean(validate_unique=False, validate_constraints=False)
    return Player.objects.bulk_create(players)


def _returning(club: Club, entries: Sequence[MemberEntry], start: datetime.date) -> int:
    """Former members and guests of the club become members again; returns how many."""
    wanted = {entry.player_id for entry in entries}
    memberships = list(
        Membership.objects.filter(club=club, player_id__in=wanted).order_by("player_id", "-start")
    )
    known = {membership.player_id for membership in memberships}
    if missing := [entry.line.line for entry in entries if entry.player_id not in known]:
        raise ValidationError(
            _("Lignes %(lines)s : ce joueur n'est plus dans la liste du club.")
            % {"lines": ", ".join(map(str, missing))}
        )
    open_ = {m.player_id: m for m in memberships if m.end is None}
    joined = 0
    former = []
    for player_id in sorted(wanted):
        membership = open_.get(player_id)
        if membership is None:
            former.append(Membership(club=club, player_id=player_id, start=start))
        elif membership.status == Membership.Status.GUEST:
            guest_to_member(membership)
        else:
            continue
        joined += 1
    for membership in former:
        membership.full_clean(validate_constraints=False)
    Membership.objects.bulk_create(former)
    return joined


@transaction.atomic
def members_import(
    club: Club,
    entries: Sequence[MemberEntry],
    *,
    by: AbstractBaseUser | None,
    start: datetime.date,
    source: str = "",
) -> MemberImport:
    """Store the good lines of a members' table: each new player with his membership from
    ``start``, former members and guests made members, the invitations queued. All or
    nothing: a refusal writes nothing."""
    # One import at a time per club: two admins importing the same file are served in turn,
    # and the second finds the names taken.
    Club.objects.select_for_update().filter(pk=club.pk).first()
    new = [entry for entry in entries if entry.player_id is None]
    players = _new_players(club, new)
    Membership.objects.bulk_create(
        Membership(club=club, player=player, start=start) for player in players
    )
    returning = [entry for entry in entries if entry.player_id is not None]
    joined = _returning(club, returning, start) if returning else 0
    player_of = {id(entry): player.pk for entry, player in zip(new, players, strict=True)}
    invitations = [
        [entry.player_id or player_of[id(entry)], entry.line.email]
        for entry in entries
        if entry.invite
    ]
    record = MemberImport.objects.create(
        club=club,
        by=by if by is not None and by.is_authenticated else None,
        source=source[:200],
        players_created=len(players),
        members_joined=len(players) + joined,
        invitations=invitations,
    )
    if invitations:
        work_queue(TaskName.MEMBER_INVITATIONS_EMAIL, record.pk)
    return record
