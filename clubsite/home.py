"""What the club's home page adds to the club's own list of nights: the latest published
night's podium and the latest album, read as one block cached under the club's
``pages_changed`` stamp (``club.published.fragment_key``).

The stamp moves with every publication (``scoring``'s services) and with every change a visitor
would see in the albums (``clubsite.photos.services``), so the block is never stale and nothing
is ever deleted from the cache; a visit finds it there and the home page asks the database no
more than it did before it showed them (two queries on a miss, none on a hit)."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Count, OuterRef, Q, Subquery

from club.models import Club
from club.published import PAGE_SECONDS, fragment_key
from games.models import Tournament
from scoring.models import TournamentStanding

from .models import Album, Photo

# The podium: the first three places (more lines when players tie for one of them).
PODIUM_RANKS = 3


@dataclass(frozen=True)
class ClubHome:
    """The night of the podium (None before the club publishes one), its lines in rank order
    with their players, and the latest album a viewer may open that has a photo to show."""

    night: Tournament | None
    podium: list[TournamentStanding]
    album: Album | None


def _podium(club: Club) -> list[TournamentStanding]:
    latest = (
        Tournament.objects.filter(club=club, status=Tournament.Status.PUBLISHED)
        .order_by("-date", "-pk")
        .values("pk")[:1]
    )
    return list(
        TournamentStanding.objects.filter(tournament=Subquery(latest), rank__lte=PODIUM_RANKS)
        .select_related("player", "tournament")
        .order_by("rank", "player__sort_key", "pk")
    )


def _latest_album(club: Club, is_member: bool) -> Album | None:
    """The newest album with a photo shown, with its cover's thumbnail and its count."""
    shown = Photo.objects.shown().filter(album=OuterRef("pk")).order_by("uploaded_at", "pk")
    shown_filter = Q(photos__status=Photo.Status.READY, photos__takedown_asked_at__isnull=True)
    return (
        Album.objects.filter(club=club)
        .seen_by(is_member)
        .annotate(
            count=Count("photos", filter=shown_filter),
            cover=Subquery(shown.values("pk")[:1]),
            cover_width=Subquery(shown.values("thumb_width")[:1]),
            cover_height=Subquery(shown.values("thumb_height")[:1]),
        )
        .filter(count__gt=0)
        .order_by("-date", "-pk")
        .first()
    )


def club_home(club: Club, is_member: bool) -> ClubHome:
    """The block, from the cache or made (two queries). Model rows, not HTML: each viewer's
    names are put on them when the page is drawn (``name_for``)."""
    key = fragment_key(club, "home", int(is_member))
    found = cache.get(key)
    if found is not None:
        return found
    podium = _podium(club)
    home = ClubHome(
        night=podium[0].tournament if podium else None,
        podium=podium,
        album=_latest_album(club, is_member),
    )
    cache.set(key, home, PAGE_SECONDS)
    return home
