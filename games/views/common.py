"""What every club-night view starts from: the night, looked up within its club. Who sees and
changes its sheets is decided in ``games.visibility`` (the JSON API asks it too)."""

from __future__ import annotations

import re

from django.http import HttpRequest
from django.shortcuts import get_object_or_404

from club.permissions import is_member, is_scorer, refuse

from .. import visibility
from ..models import Tournament


def tournament_for(slug: str, pk: int) -> Tournament:
    return get_object_or_404(
        Tournament.objects.select_related("club", "season", "point_table"), pk=pk, club__slug=slug
    )


def can_edit_sheets(request: HttpRequest, tournament: Tournament) -> bool:
    return visibility.can_edit_sheets(request.user, tournament)


def can_read_sheets(request: HttpRequest, tournament: Tournament) -> bool:
    return visibility.can_read_sheets(request.user, tournament)


def require_sheet_reader(request: HttpRequest, tournament: Tournament) -> None:
    visibility.require_sheet_reader(request.user, tournament)


def require_room_viewer(request: HttpRequest, tournament: Tournament) -> None:
    """The room screen shows tonight's standings to the club (a member's login on the room's
    screen); once the night is published, to everybody. A night closed and not published (or
    taken back) is its scorers' and admins' alone: its results are not the members' yet."""
    if tournament.status == Tournament.Status.PUBLISHED:
        return
    club = tournament.club
    if tournament.is_locked and not is_scorer(request.user, club):
        refuse(request.user, club, "a night's results are the members' once published")
    if not is_member(request.user, club):
        refuse(request.user, club, "the room screen is for the club's members")


def require_sheet_editor(request: HttpRequest, tournament: Tournament) -> None:
    visibility.require_sheet_editor(request.user, tournament)


# A number typed in a form or an address: ASCII digits only ("²".isdigit() is True), and few
# enough to fit the database's integers.
_NUMBER = re.compile(r"[0-9]{1,19}")
# Draw seeds are stored as the database's 64-bit integers.
MAX_SEED = 2**63 - 1


def posted_number(value: str, maximum: int) -> int | None:
    """The number a form field holds, or None when it holds something else."""
    value = value.strip()
    if not _NUMBER.fullmatch(value):
        return None
    number = int(value)
    return number if number <= maximum else None
