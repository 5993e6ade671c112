"""What the club shows changed: its cached public pages and their ETags are stale."""

from __future__ import annotations

from django.db.models import Q
from django.utils import timezone

from ..models import (
    Club,
    Federation,
    Membership,
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
    """A player's name or photo changed: the published pages that show him are stale — those
    of each of his clubs, of each club whose nights he played as a visitor (an inter-club
    night's host names him on its results and in its API answers), and of their federations.
    Else a page drawn before his choice keeps the old name (his full name, or his initials)
    while the pages drawn since say the new one."""
    now = timezone.now()
    # The host clubs by the nights' own rows (``Tournament.present``, a poule's seats): read
    # through the relations, as the club's pages do, not by importing the games app.
    clubs = Club.objects.filter(
        Q(pk__in=Membership.objects.filter(player=player).values("club_id"))
        | Q(pk__in=Club.objects.filter(tournaments__present=player).values("pk"))
        | Q(pk__in=Club.objects.filter(tournaments__poules__seats__player=player).values("pk"))
    )
    Federation.objects.filter(clubs__in=clubs.values("pk")).update(pages_changed=now)
    clubs.update(pages_changed=now)
