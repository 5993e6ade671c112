"""What every club-night view starts from: the night, looked up within its club, and who the
viewer is to that club, worked out once for the request (``club.club_pages``). Who sees and
changes its sheets is decided in ``games.visibility`` (the JSON API asks it too)."""

from __future__ import annotations

import re

from django.http import HttpRequest
from django.shortcuts import get_object_or_404

from club.club_pages import access_for, club_viewed

from .. import visibility
from ..models import Tournament


def tournament_for(slug: str, pk: int) -> Tournament:
    return get_object_or_404(
        Tournament.objects.select_related("club", "season", "point_table"), pk=pk, club__slug=slug
    )


def night_viewed(request: HttpRequest, slug: str, pk: int, need: str | None = None) -> Tournament:
    """The night of the address within its club, its viewer put on the request; ``need``
    refuses the wrong role in the club (``club.club_pages.club_viewed``)."""
    tournament = tournament_for(slug, pk)
    club_viewed(request, tournament.club, need)
    return tournament


def can_edit_sheets(request: HttpRequest, tournament: Tournament) -> bool:
    return visibility.can_edit_sheets(access_for(request, tournament.club), tournament)


def can_read_sheets(request: HttpRequest, tournament: Tournament) -> bool:
    return visibility.can_read_sheets(access_for(request, tournament.club), tournament)


def require_sheet_reader(request: HttpRequest, tournament: Tournament) -> None:
    visibility.require_sheet_reader(access_for(request, tournament.club), tournament)


def require_sheet_editor(request: HttpRequest, tournament: Tournament) -> None:
    visibility.require_sheet_editor(access_for(request, tournament.club), tournament)


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
