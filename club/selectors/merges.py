"""The merges' reads: the records a club admin may find to merge with his member, the merges
a club sees, and those of one player's records. Who may decide each is
``scoring.services.merge_rights``'; this module only reads."""

from __future__ import annotations

from django.db.models import Count, Prefetch, Q, QuerySet

from ..models import Club, Membership, Player, PlayerMerge, name_key
from ..name_order import by_name
from ..name_search import typed_words
from ..names import NameReader, searched_by_name

# A search lists this many players at most: a name is typed to narrow it.
SEARCH_LIMIT = 30

# Each side's clubs, read with the merges (a merge's rights and lines name them).
SIDES_CLUBS = (
    Prefetch("kept__memberships", queryset=Membership.objects.select_related("club")),
    Prefetch("merged__memberships", queryset=Membership.objects.select_related("club")),
)


def mergeable_players() -> QuerySet[Player]:
    """The records a merge may take: of a club (a membership, past or present), not merged
    already."""
    return Player.objects.filter(merged_into__isnull=True, memberships__isnull=False).distinct()


def merge_candidates(player: Player, text: str, reader: NameReader) -> list[Player]:
    """Players of every club of the site whose name holds each typed word (same name as
    ``player`` first, whatever the accents and the case), with their clubs and nights: two
    queries. A player whose full name ``reader`` may not see (``club.names``) is not found
    by it."""
    found = (
        mergeable_players()
        .exclude(pk=player.pk)
        .filter(searched_by_name(reader, typed_words(text), by_initials=False))
    )
    found = (
        found.annotate(nights=Count("seats__tournament", distinct=True))
        .prefetch_related(
            Prefetch("memberships", queryset=Membership.objects.select_related("club"))
        )
        .order_by(*by_name())[:SEARCH_LIMIT]
    )
    key = name_key(player.display_name)
    return sorted(found, key=lambda p: name_key(p.display_name) != key)


def club_merges(club: Club) -> QuerySet[PlayerMerge]:
    """The merges a club's admins see: proposed by the club, or of a record of the club."""
    records = Membership.objects.filter(club=club).values("player")
    return (
        PlayerMerge.objects.filter(Q(club=club) | Q(kept__in=records) | Q(merged__in=records))
        .select_related("kept", "merged", "club")
        .prefetch_related(*SIDES_CLUBS)
    )


def player_merges(player: Player) -> QuerySet[PlayerMerge]:
    """The merges of one of the player's records, either side."""
    return PlayerMerge.objects.filter(Q(kept=player) | Q(merged=player)).select_related(
        "kept", "merged", "club"
    )


def player_merges_open(player: Player) -> QuerySet[PlayerMerge]:
    """The player's merges still to decide, or done and so undoable (Mon profil lists them)."""
    return player_merges(player).filter(
        status__in=[PlayerMerge.Status.PROPOSED, PlayerMerge.Status.DONE]
    )
