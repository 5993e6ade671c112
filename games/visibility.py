"""Who sees and who changes a night's sheets: asked by the club-night pages and the JSON API
alike (one rule, two interfaces)."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User

from club.permissions import is_club_admin, is_scorer, refuse

from .models import Tournament


def can_edit_sheets(user: User | AnonymousUser, tournament: Tournament) -> bool:
    """Scorers change sheets until the night is closed, club admins afterwards too."""
    if tournament.is_locked:
        return is_club_admin(user, tournament.club)
    return is_scorer(user, tournament.club)


def can_read_sheets(user: User | AnonymousUser, tournament: Tournament) -> bool:
    """Score sheets are for the club's scorers until the night is published; then for all."""
    return tournament.status == Tournament.Status.PUBLISHED or is_scorer(user, tournament.club)


def require_sheet_reader(user: User | AnonymousUser, tournament: Tournament) -> None:
    if not can_read_sheets(user, tournament):
        refuse(user, tournament.club, "sheets are published with the night")


def require_sheet_editor(user: User | AnonymousUser, tournament: Tournament) -> None:
    if not can_edit_sheets(user, tournament):
        refuse(user, tournament.club, "scorers until the night is closed, club admins afterwards")
