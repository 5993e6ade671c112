"""Published pages — rankings, the archive, player pages, a published night's results — show
only what the club has published, which changes only through a few services; each of them
marks it (``Club.pages_changed``). From that one date:

- a browser that has the page already gets ``304 Not Modified`` (its ETag holds the date, the
  visitor and the language), without the page being read or drawn again;
- the costly parts of a page are cached on the server under a key that holds the date, so a
  change is visible at once and nothing has to be deleted (every web worker sees the same
  date, whatever cache it has).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from django.contrib.messages import get_messages
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.http import http_date
from django.utils.translation import get_language

from .models import Club


def _stamp(club: Club) -> int:
    return int(club.pages_changed.timestamp() * 1_000_000)


def page_etag(request: HttpRequest, club: Club, *vary: object) -> str:
    visitor = request.user.pk if request.user.is_authenticated else 0
    htmx = 1 if getattr(request, "htmx", False) else 0
    parts = [_stamp(club), visitor, get_language(), htmx]
    # Hashed: ``vary`` may hold what a visitor typed in the address (a season's name).
    digest = hashlib.sha256("|".join(str(part) for part in [*parts, *vary]).encode())
    return f'"{digest.hexdigest()[:32]}"'


def fragment_key(club: Club, *parts: object) -> str:
    """The server cache's key for a costly part of a published page."""
    return ":".join(str(part) for part in (club.pk, _stamp(club), get_language(), *parts))


def published_page(
    request: HttpRequest, club: Club, render: Callable[[], HttpResponse], *vary: object
) -> HttpResponse:
    """The page ``render`` draws, or 304 when the browser's copy is still the club's latest.
    ``vary``: what else the page depends on (the visitor's role, a chosen season …)."""
    etag = page_etag(request, club, *vary)
    # A message waiting to be shown (after a refused action) must reach the page.
    fresh = request.method in ("GET", "HEAD") and not len(get_messages(request))
    if fresh and etag in request.headers.get("If-None-Match", ""):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = render()
    if response.status_code in (200, 304):
        response["ETag"] = etag
        response["Last-Modified"] = http_date(club.pages_changed.timestamp())
        # Stored, but checked again each time: a correction must show at once.
        visibility = "private" if request.user.is_authenticated else "public"
        response["Cache-Control"] = f"{visibility}, no-cache"
    return response
