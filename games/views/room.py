"""The room screen: tonight's standings, full screen on a projector or TV, refreshed by
htmx polling while the night runs."""

from __future__ import annotations

import secrets

from django.http import Http404, HttpRequest
from django.template.response import TemplateResponse
from django.urls import reverse

from club.club_pages import access_for, club_page
from club.names import PUBLIC, NameReader, name_reader_of

from ..models import Tournament
from ..presenters.room import room_board
from ..visibility import require_room_viewer
from .common import tournament_for

# Seconds between two refreshes of the room screen: a deal takes a few minutes to play.
ROOM_REFRESH_SECONDS = 10


def room(request: HttpRequest, slug: str, pk: int) -> TemplateResponse:
    tournament = tournament_for(slug, pk)
    require_room_viewer(access_for(request, tournament.club), tournament)
    refresh_url = reverse("games:room", args=[slug, pk])
    return _room_response(request, tournament, refresh_url, name_reader_of(request.user))


@club_page()
def room_by_key(request: HttpRequest, slug: str, key: str) -> TemplateResponse:
    """The club's private link for the projector's PC: tonight's room screen without anybody's
    login. It is projected where guests and visitors see it: nobody reads it, so members
    who chose initials are shown by them (``club.names``). A link the club admin renewed
    since, or any other key, is a 404 like any unknown address."""
    club = request.club
    if not club.room_key or not secrets.compare_digest(club.room_key, key):
        raise Http404("no such room screen")
    tournament = (
        Tournament.objects.filter(club=club)
        .select_related("club", "season", "point_table")
        .order_by("-date", "-pk")
        .first()
    )
    if tournament is None:
        context = {"club": club, "tournament": None, "name_reader": PUBLIC}
        return TemplateResponse(request, "games/room.html", context)
    refresh_url = reverse("room-by-key", args=[slug, key])
    return _room_response(request, tournament, refresh_url, PUBLIC)


def _room_response(
    request: HttpRequest, tournament: Tournament, refresh_url: str, reader: NameReader
) -> TemplateResponse:
    context = {
        "club": tournament.club,
        "tournament": tournament,
        **room_board(tournament, reader, last_deals=tournament.club.room_last_deals),
        "refresh": ROOM_REFRESH_SECONDS if not tournament.is_locked else None,
        "refresh_url": refresh_url,
        "name_reader": reader,
    }
    template = "games/room.html#standings" if request.htmx else "games/room.html"
    response = TemplateResponse(request, template, context)
    # The private link is the club's secret: never sent on to another site.
    response["Referrer-Policy"] = "no-referrer"
    return response
