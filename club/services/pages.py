"""What the club shows changed: its cached public pages and their ETags are stale."""

from __future__ import annotations

from django.utils import timezone

from ..models import (
    Club,
    Federation,
    Player,
)


def published_pages_changed(club_id: int) -> None:
    """What the club shows the public changed: its cached pages and their ETags are stale.
    Called by the services that change them, in their transaction."""
    Club.objects.filter(pk=club_id).update(pages_changed=timezone.now())


def federation_pages_changed(federation_id: int) -> None:
    """What a federation shows the public changed (its ranking, its clubs, its nights)."""
    Federation.objects.filter(pk=federation_id).update(pages_changed=timezone.now())


def player_pages_changed(player: Player) -> None:
    """A player's name or photo changed: the published pages of each of his clubs show them,
    and those of their federations."""
    now = timezone.now()
    Club.objects.filter(memberships__player=player).update(pages_changed=now)
    Federation.objects.filter(clubs__memberships__player=player).update(pages_changed=now)
