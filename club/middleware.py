"""What the site adds to every answer of its pages."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

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
