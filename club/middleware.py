"""What the site adds to every answer of its pages."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.crypto import salted_hmac

from .views.errors import method_not_allowed


class NotAllowedPage:
    """A page's POST-only address reached by GET answers the site's page with a way back
    (Django's own 405 is blank). The API keeps its JSON answers."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code == 405
            and not request.path.startswith("/api/")
            and not response.content
        ):
            return method_not_allowed(request, response.get("Allow", ""))
        return response


def viewer_stamp(request: HttpRequest) -> str:
    """Who is looking, as the service worker may know it: a keyed hash of the login (and of
    its password, so a changed password is another viewer), or "public"."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return "public"
    made_of = f"{user.pk}:{user.get_session_auth_hash()}"
    return salted_hmac("club.offline-viewer", made_of).hexdigest()[:20]


class ViewerStamp:
    """Each page says who it was made for (header ``X-Viewer``): the service worker keeps a
    score sheet for that viewer only, and drops it when another login shows up on the phone
    (templates/offline/sw.js)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.get("Content-Type", "").startswith("text/html"):
            response["X-Viewer"] = viewer_stamp(request)
        return response


class KeptCopyLeavesCookies:
    """The service worker fetching a sheet to keep its copy (header ``X-Sheet-Copy``) must not
    change the phone's cookies behind the page's back: a new CSRF cookie would no longer match
    the token of the page the scorer is using. Placed first, so it sees the cookies the other
    middleware set."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.headers.get("X-Sheet-Copy") == "1":
            response.cookies.clear()
        return response
