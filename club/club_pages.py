"""What every club page starts from: the club of its address, and who the viewer is to it,
worked out once per request (``club.permissions.ClubAccess``, the one rule book) and put on
the request for every later check, as Tabbycat's ``TournamentMixin`` loads a tournament
once for every view that needs one.

A function view says what it needs with ``@club_page(...)``; a night's page, which finds its
club through the night, calls ``access_for`` with it; the JSON API's endpoints use the same
two steps (``api.views.common.ClubEndpoint``)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse

from infra.compiled import Compiled

from .models import Club
from .permissions import ClubAccess, club_access

View = TypeVar("View", bound=Callable[..., HttpResponse])


def _club_of(slug: str) -> QuerySet[Club]:
    return Club.objects.filter(slug=slug)[:1]


# Every club page asks it first: compiled once (``infra.compiled``).
_CLUB_OF = Compiled(_club_of)


def club_for(slug: str) -> Club:
    """The club of an address: 404 for a slug no club has (a club's slug is its own)."""
    found = _CLUB_OF(slug)
    if not found:
        raise Http404("No Club matches the given query.")
    return found[0]


def club_viewed(request: HttpRequest, club: Club, need: str | None = None) -> ClubAccess:
    """Who the request's login is to ``club``, put on the request (``request.club``,
    ``request.club_access``); the wrong role refused (403 for a member, 404 for anybody
    else). ``need``: ``MEMBER``, ``SCORER`` or ``CLUB_ADMIN`` of ``club.permissions``."""
    access = club_access(request.user, club)
    request.club = club  # type: ignore[attr-defined]
    request.club_access = access  # type: ignore[attr-defined]
    access.require(need)
    return access


def access_for(request: HttpRequest, club: Club) -> ClubAccess:
    """Who the request's login is to ``club``: worked out on the first ask, then read from
    the request by every later check."""
    access: ClubAccess | None = getattr(request, "club_access", None)
    if access is None or access.club.pk != club.pk:
        access = club_viewed(request, club)
    return access


def club_page(need: str | None = None) -> Callable[[View], View]:
    """A page of the club named by the address's ``slug``: the club fetched (404 when
    unknown) and its viewer worked out before the view runs, which reads both from the
    request. Put under ``login_required`` where a visitor is sent to log in first."""

    def decorate(view: View) -> View:
        @wraps(view)
        def page(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
            club_viewed(request, club_for(slug), need)
            return view(request, slug, *args, **kwargs)

        return page  # type: ignore[return-value]

    return decorate
