"""What the club shows changed: its cached public pages and their ETags are stale."""

from __future__ import annotations

from django.utils import timezone

from ..models import (
    Club,
    Player,
)


def published_pages_changed(club_id: int) -> None:
    """What the club shows the public changed: its cached pages and their ETags are stale.
    Called by the services that change them, in their transaction."""
    Club.objects.filter(pk=club_id).update(pages_changed=timezone.now())


def player_pages_changed(player: Player) -> None:
    """A player's name or photo changed: the published pages of each of his clubs show them."""
    Club.objects.filter(memberships__player=player).update(pages_changed=timezone.now())
