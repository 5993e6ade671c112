"""The club's hall of fame (« Palmarès »): public, like its rankings."""

from __future__ import annotations

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from club.club_pages import club_page
from club.published import PAGE_SECONDS, published_page

from ..palmares import club_palmares


@club_page()
def palmares(request: HttpRequest, slug: str) -> HttpResponse:
    """Read once per publication (the club's stamp keys the cache), named for each reader."""
    club = request.club

    def render() -> TemplateResponse:
        # Names and words are put in when drawn: one copy for every language and reader.
        key = f"palmares:{club.pk}:{club.pages_changed.timestamp()}"
        data = cache.get(key)
        if data is None:
            data = club_palmares(club)
            cache.set(key, data, PAGE_SECONDS)
        return TemplateResponse(request, "clubsite/palmares.html", {"club": club, "palmares": data})

    return published_page(request, club, render, "palmares")
