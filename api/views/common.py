"""What every endpoint shares: the club and the night of the address, how players are
named to this reader, the answers documented for refusals, and the published reads' cache."""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse
from rest_framework.request import Request
from rest_framework.response import Response

from club.club_pages import club_for, club_viewed
from club.models import Club, Player
from club.names import name_reader_of
from club.permissions import ClubAccess
from club.published import (
    PAGE_SECONDS,
    fragment_key,
    page_etag,
    stamp_headers,
    unchanged_answer,
)
from games.models import Tournament

from .. import serializers as s

REFUSED = {
    400: OpenApiResponse(s.RefusalSerializer, description="Refused, each problem located."),
}
NOT_YOURS = {
    403: OpenApiResponse(s.DetailSerializer, description="A member of the club who may not."),
    404: OpenApiResponse(s.DetailSerializer, description="Not found, or not the reader's to see."),
}
PRECONDITION = {
    428: OpenApiResponse(
        s.RefusalSerializer, description="The deal's version (as read) was not sent."
    )
}
CONFLICT = {
    409: OpenApiResponse(
        s.RefusalSerializer,
        description="The sheet changed meanwhile, or the table has its deals: nothing written.",
    )
}


class ClubEndpoint:
    """An endpoint of the club named by the address's ``slug``, as a club page is
    (``club.club_pages``; Tabbycat's ``TournamentMixin``): once DRF has authenticated the
    reader, the club is fetched (404 when unknown) and who he is to it worked out once,
    ``self.club`` and ``self.viewer``; ``club_needs`` (``MEMBER``, ``SCORER``, ``CLUB_ADMIN``)
    refuses the wrong role, 403 for a member and 404 for anybody else."""

    club_needs: str | None = None
    club: Club
    viewer: ClubAccess

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)  # type: ignore[misc]
        if request.method == "OPTIONS" or getattr(self, request.method.lower(), None) is None:
            return  # the endpoint's description, or a method it has not (405), as before
        self.club = club_for(kwargs["slug"])
        self.viewer = club_viewed(request, self.club, self.club_needs)


def night_of(slug: str, pk: int) -> Tournament:
    return get_object_or_404(
        Tournament.objects.select_related(*NIGHT_RELATED), pk=pk, club__slug=slug
    )


def namer(request: Request) -> Callable[[Player], str]:
    """How this reader sees each player named (``club.names``): his initials, if he chose them,
    to whoever is not a member of one of his clubs."""
    return name_reader_of(request.user).name


def audience(request: Request) -> str:
    """What the names of a cached answer depend on: its key holds it, so each reader gets the
    answer drawn for those who read the same names (``club.names.NameReader.audience``)."""
    return name_reader_of(request.user).audience


def player_ref(player: Player, name_of: Callable[[Player], str]) -> dict[str, Any]:
    return {"id": player.pk, "name": name_of(player)}


def published_read(
    request: Request, club: Club, parts: tuple[Any, ...], build: Callable[[], Any]
) -> Response:
    """A published read (a ranking, a published night): ``304`` when the client's copy is the
    club's latest (its ETag holds the club's stamp), else the document from the server's
    cache, drawn once per stamp (a publication, a correction moves it: nothing is stale)."""
    etag = page_etag(request, club, "api", *parts)
    digest = hashlib.sha256(repr((*parts, audience(request))).encode()).hexdigest()[:16]
    key = fragment_key(club, "api", digest)
    return stamped_read(request, etag, club.pages_changed, key, build)


def stamped_read(
    request: Request,
    etag: str,
    changed_at: datetime.datetime,
    key: str,
    build: Callable[[], Any],
) -> Response:
    """A read whose ETag and date follow a stamp (a club's, a federation's): ``304`` when the
    client's copy is the latest, else the document kept in the server's cache under ``key``
    (which holds the stamp: a new stamp is a new key, nothing is ever stale)."""
    headers = stamp_headers(request, etag, changed_at)
    # The pages' reading of If-None-Match and If-Modified-Since (club.published).
    answered = unchanged_answer(request, etag, changed_at)
    if answered is not None:
        return Response(status=answered.status_code, headers=headers)
    data = cache.get_or_set(key, build, PAGE_SECONDS)
    return Response(data, headers=headers)


# What a night's answer names besides itself: its club, season and point table, and for an
# inter-club night its federation season and federation (one join each, no query per night).
NIGHT_RELATED = ("club", "season", "point_table", "federation_season__federation")

# What a list shows of each night: not its point table's data nor its club's settings (JSON
# decoded on every row for nothing).
NIGHT_LIST_FIELDS = (
    "id",
    "date",
    "name",
    "game",
    "status",
    "rounds",
    "club",
    "season",
    "point_table",
    "club__slug",
    "season__slug",
    "point_table__name",
    "federation_season",
    "federation_season__slug",
    "federation_season__federation",
    "federation_season__federation__slug",
)
