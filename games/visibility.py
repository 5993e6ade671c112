"""Who sees and who changes a night's sheets: asked by the club-night pages and the JSON API
alike (one rule, two interfaces), with who the viewer is to the night's club worked out once
for the request (``club.permissions.ClubAccess``)."""

from __future__ import annotations

from club.permissions import ClubAccess

from .models import Tournament


def can_edit_sheets(viewer: ClubAccess, tournament: Tournament) -> bool:
    """Scorers change sheets until the night is closed, club admins afterwards too."""
    if tournament.is_locked:
        return viewer.is_club_admin
    return viewer.is_scorer


def can_read_sheets(viewer: ClubAccess, tournament: Tournament) -> bool:
    """Score sheets are for the club's scorers until the night is published; then for all."""
    return tournament.status == Tournament.Status.PUBLISHED or viewer.is_scorer


def require_sheet_reader(viewer: ClubAccess, tournament: Tournament) -> None:
    if not can_read_sheets(viewer, tournament):
        viewer.refuse("sheets are published with the night")


def require_sheet_editor(viewer: ClubAccess, tournament: Tournament) -> None:
    if not can_edit_sheets(viewer, tournament):
        viewer.refuse("scorers until the night is closed, club admins afterwards")


def require_room_viewer(viewer: ClubAccess, tournament: Tournament) -> None:
    """The room screen shows tonight's standings to the club (a member's login on the room's
    screen); once the night is published, to everybody. A night closed and not published (or
    taken back) is its scorers' and admins' alone: its results are not the members' yet."""
    if tournament.status == Tournament.Status.PUBLISHED:
        return
    if tournament.is_locked and not viewer.is_scorer:
        viewer.refuse("a night's results are the members' once published")
    if not viewer.is_member:
        viewer.refuse("the room screen is for the club's members")
