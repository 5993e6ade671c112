"""Published pages — rankings, the archive, player pages, a published night's results — show
only what the club has published, which changes only through a few services; each of them
marks it (``Club.pages_changed``; a federation's pages, ``Federation.pages_changed``). From
that one date:

- a browser that has the page already gets ``304 Not Modified`` (its ETag holds the date, the
  visitor and the language), without the page being read or drawn again;
- the costly parts of a page are cached on the server under a key that holds the date, so a
  change is visible at once and nothing has to be deleted (every web worker sees the same
  date, whatever cache it has).
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Callable

from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.template.response import TemplateResponse
from django.utils.cache import get_conditional_response
from django.utils.http import http_date
from django.utils.translation import get_language

from .club_pages import access_for
from .models import Club, Federation


def _stamp(owner: Club | Federation) -> int:
    return int(owner.pages_changed.timestamp() * 1_000_000)


def _etag(*parts: object) -> str:
    # Hashed: the parts may hold what a visitor typed in the address (a season's name).
    digest = hashlib.sha256("|".join(str(part) for part in parts).encode())
    return f'"{digest.hexdigest()[:32]}"'


def _visitor(request: HttpRequest) -> tuple[int, int]:
    visitor = request.user.pk if request.user.is_authenticated else 0
    return visitor, 1 if getattr(request, "htmx", False) else 0


def page_etag(request: HttpRequest, club: Club, *vary: object) -> str:
    visitor, htmx = _visitor(request)
    # His role too: a member made club admin sees the admin's page at once.
    role = access_for(request, club).role
    return _etag(_stamp(club), visitor, role, get_language(), htmx, *vary)


def federation_page_etag(request: HttpRequest, federation: Federation, *vary: object) -> str:
    """A federation's public page is the same for every role: no club role in it."""
    visitor, htmx = _visitor(request)
    return _etag("federation", _stamp(federation), visitor, get_language(), htmx, *vary)


def fragment_key(club: Club, *parts: object) -> str:
    """The server cache's key for a costly part of a published page."""
    return ":".join(str(part) for part in (club.pk, _stamp(club), get_language(), *parts))


# What a cached page holds in place of the visitor's CSRF token: each visitor gets his own
# when the page is served (the page's forms, the language switch and logout, must work).
CSRF_PLACEHOLDER = "csrf-token-of-this-visitor"
# A cached page is found again by a key that holds the club's stamp: it is never stale, and
# this only bounds how long an unvisited one stays in the cache.
PAGE_SECONDS = 24 * 3600


def _page_key(request: HttpRequest, etag: str) -> str:
    # The address too: the page links back to it (the login's ``next``).
    path = hashlib.sha256(request.get_full_path().encode()).hexdigest()[:16]
    return f"page:{etag.strip(chr(34))}:{path}"


def _served_from_cache(request: HttpRequest, key: str) -> HttpResponse | None:
    cached = cache.get(key)
    if cached is None:
        return None
    content, content_type = cached
    token = get_token(request).encode()
    return HttpResponse(content.replace(CSRF_PLACEHOLDER.encode(), token), content_type)


def _kept(request: HttpRequest, key: str, response: HttpResponse) -> HttpResponse:
    """Render the page with the placeholder for the CSRF token, keep it, and serve it with
    this visitor's token."""
    if not isinstance(response, TemplateResponse) or response.is_rendered:
        return response
    response.context_data = {**(response.context_data or {}), "csrf_token": CSRF_PLACEHOLDER}
    response.render()
    if response.status_code == 200:
        cache.set(key, (response.content, response["Content-Type"]), PAGE_SECONDS)
    response.content = response.content.replace(
        CSRF_PLACEHOLDER.encode(), get_token(request).encode()
    )
    return response


def published_page(
    request: HttpRequest, club: Club, render: Callable[[], HttpResponse], *vary: object
) -> HttpResponse:
    """The page ``render`` draws, or 304 when the browser's copy is still the club's latest.
    ``vary``: what else the page depends on (the visitor's role, a chosen season …).

    The evening a ranking is published, every member opens it: the page is drawn once per
    visitor, language and address until the club's pages change again, then served from the
    cache (``render`` is not even called: whatever it checks is covered by the stamp)."""
    return _answered(request, page_etag(request, club, *vary), club.pages_changed, render)


def federation_page(
    request: HttpRequest, federation: Federation, render: Callable[[], HttpResponse], *vary: object
) -> HttpResponse:
    """A federation's public page, as ``published_page`` serves a club's: 304 or the cached
    copy until ``Federation.pages_changed`` moves (its ranking recomputed, a club joined)."""
    etag = federation_page_etag(request, federation, *vary)
    return _answered(request, etag, federation.pages_changed, render)


def stamp_headers(request: HttpRequest, etag: str, changed: datetime.datetime) -> dict[str, str]:
    """What a page or an API read drawn from a stamp says of its copy: its ETag and date, and
    that it may be kept but must be checked again each time (a correction shows at once)."""
    visibility = "private" if request.user.is_authenticated else "public"
    return {
        "ETag": etag,
        "Last-Modified": http_date(int(changed.timestamp())),
        "Cache-Control": f"{visibility}, no-cache",
    }


def unchanged_answer(
    request: HttpRequest, etag: str, changed: datetime.datetime
) -> HttpResponse | None:
    """``304`` when the visitor's copy is the latest, else None — Django's reading of RFC 9110:
    ``If-None-Match`` a list of ETags, weak or strong, compared whole (one that merely holds
    ours is another copy), or ``*``; ``If-Modified-Since`` only when no ``If-None-Match`` is
    sent, to the second (``Last-Modified`` has whole seconds: a copy dated the stamp's second
    is the latest). An ``If-Match`` the page fails is ``412``."""
    return get_conditional_response(request, etag=etag, last_modified=int(changed.timestamp()))


def _answered(
    request: HttpRequest,
    etag: str,
    changed: datetime.datetime,
    render: Callable[[], HttpResponse],
) -> HttpResponse:
    # A message waiting to be shown (after a refused action) must reach the page.
    fresh = request.method in ("GET", "HEAD") and not len(get_messages(request))
    key = _page_key(request, etag)
    response = unchanged_answer(request, etag, changed) if fresh else None
    if response is None and fresh:
        response = _served_from_cache(request, key) or _kept(request, key, render())
    elif response is None:
        response = render()
    if response.status_code in (200, 304):
        for name, value in stamp_headers(request, etag, changed).items():
            response[name] = value
    return response
