"""The room screen: tonight's standings, full screen on a projector or TV, refreshed by
htmx polling while the night runs."""

from __future__ import annotations

from django.http import HttpRequest
from django.template.response import TemplateResponse

from ..presenters.room import room_board
from .common import require_room_viewer, shows_public_names, tournament_for

# Seconds between two refreshes of the room screen: a deal takes a few minutes to play.
ROOM_REFRESH_SECONDS = 10


def room(request: HttpRequest, slug: str, pk: int) -> TemplateResponse:
    tournament = tournament_for(slug, pk)
    require_room_viewer(request, tournament)
    board = room_board(tournament)
    context = {
        "club": tournament.club,
        "tournament": tournament,
        **board,
        "refresh": ROOM_REFRESH_SECONDS if not tournament.is_locked else None,
        "public": shows_public_names(request, tournament),
    }
    template = "games/room.html#standings" if request.htmx else "games/room.html"
    return TemplateResponse(request, template, context)
