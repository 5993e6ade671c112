"""The site's error pages (403, 404, 500, 503) in its layout and the reader's language, each with
a way back: home, and the club's page when the address names a club.

The 500 page is rendered without the request (no context processor, no database): whatever
broke the page must not break the error page too."""

from __future__ import annotations

import logging
import re

from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseForbidden,
    HttpResponseNotFound,
    HttpResponseServerError,
    JsonResponse,
)
from django.template import loader
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _

from club.models import Club
from club.views.club_closing import club_closed_page
from games.models import Tournament

logger = logging.getLogger(__name__)


# The club an address belongs to, read from the address alone (an address no page answers
# has no resolved arguments; the 500 page reads no database).
_CLUB_PATH = re.compile(r"^/clubs/([-a-zA-Z0-9_]+)/")


def _club_of(request: HttpRequest) -> Club | None:
    """The club the refused address belongs to (``/clubs/<slug>/…``), if it exists."""
    found = _CLUB_PATH.match(request.path)
    return Club.objects.filter(slug=found.group(1)).first() if found else None


def _closed_night(request: HttpRequest, club: Club | None) -> Tournament | None:
    """A change to a club night refused because the night is closed: said as such."""
    match = getattr(request, "resolver_match", None)
    if request.method != "POST" or club is None or match is None:
        return None
    if match.namespace != "games" or "pk" not in match.kwargs:
        return None
    night = Tournament.objects.filter(club=club, pk=match.kwargs["pk"]).first()
    return night if night is not None and night.is_locked else None


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    club = _club_of(request)
    night = _closed_night(request, club)
    if night is not None:
        message = _(
            "Cette soirée est clôturée : ses feuilles ne changent plus. Rechargez la page ; "
            "seul un administrateur du club peut encore la corriger."
        )
    else:
        message = _(
            "Cette action ou cette page vous est refusée : votre rôle dans le club ne la "
            "permet pas. Demandez à un administrateur du club si vous pensez y avoir droit."
        )
    body = loader.render_to_string("403.html", {"club": club, "message": message}, request)
    return HttpResponseForbidden(body)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form refused by the CSRF check, in the site's layout and the reader's language (not
    Django's bare English page, whose inline style the CSP refuses). Nearly always the session
    changed meanwhile (signed in again in another tab): said so, with what to do. The page's
    ``data-csrf-failure`` tells the score sheet's script it is this and not a closed night."""
    message = _(
        "Votre session a changé (une connexion dans un autre onglet ?) : rechargez la page, "
        "puis recommencez. Rien n'a été enregistré."
    )
    context = {"club": _club_of(request), "message": message, "csrf_failure": True}
    body = loader.render_to_string("403.html", context, request)
    return HttpResponseForbidden(body)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    club = _club_of(request)
    found = _CLUB_PATH.match(request.path)
    # A closed club's old address says it closed (410), whichever of its pages was asked.
    if club is None and found and (closed := club_closed_page(request, found.group(1))):
        return closed
    body = loader.render_to_string("404.html", {"club": club}, request)
    return HttpResponseNotFound(body)


# The last resort: plain text, if even the site's layout cannot be rendered.
_BARE_500 = (
    "<!doctype html><title>Erreur du serveur</title><h1>Erreur du serveur</h1>"
    '<p>Réessayez dans un instant. <a href="/">Accueil</a></p>'
)


def server_error(request: HttpRequest) -> HttpResponse:
    try:
        found = _CLUB_PATH.match(request.path)
        club_url = reverse("club-detail", args=[found.group(1)]) if found else ""
        body = loader.get_template("500.html").render({"club_url": club_url})
    except Exception:
        logger.exception("the 500 page itself could not be rendered")
        body = _BARE_500
    return HttpResponseServerError(body)


# How long a reader (a phone's sheet, a monitor) waits before asking again while the site
# cannot reach its database: a restart or a failover takes seconds.
RETRY_AFTER_SECONDS = 10


def database_unreachable(request: HttpRequest) -> HttpResponse:
    """The answer while the database does not answer at all: 503 with ``Retry-After``, said in
    words (not a 500: nothing is wrong with the request, it can be sent again). Rendered
    without the request, as the 500 page: no context processor may read the database."""
    message = _("Le site ne joint plus sa base de données : réessayez dans un instant.")
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(
            {"detail": message}, status=503, json_dumps_params={"ensure_ascii": False}
        )
    else:
        try:
            body = loader.get_template("503.html").render({"message": message})
        except Exception:
            logger.exception("the 503 page itself could not be rendered")
            body = _BARE_500
        response = HttpResponse(body, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def bad_request(request: HttpRequest, message: str) -> TemplateResponse:
    """A request no page of the site sends (a tampered form, a NUL in the address): said in
    words, status 400."""
    return TemplateResponse(request, "bad_request.html", {"message": message}, status=400)


def method_not_allowed(request: HttpRequest, allowed: str) -> HttpResponse:
    """An address that answers a button (a POST), reached by a link or typed in: the site's
    page, with the way back to the night or the club, not a blank 405."""
    club = _club_of(request)
    match = getattr(request, "resolver_match", None)
    night = None
    if club is not None and match is not None and match.namespace == "games":
        night = Tournament.objects.filter(club=club, pk=match.kwargs.get("pk")).first()
    body = loader.render_to_string("405.html", {"club": club, "night": night}, request)
    response = HttpResponse(body, status=405)
    response["Allow"] = allowed
    return response
