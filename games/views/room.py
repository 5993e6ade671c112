"""The room screen: tonight's standings, full screen on a projector or TV, refreshed by
htmx polling while the night runs."""

from __future__ import annotations

from django.db.models import Count
from django.http import HttpRequest
from django.template.response import TemplateResponse

from scoring.models import TournamentStanding

from .common import require_room_viewer, shows_public_names, tournament_for

# Seconds between two refreshes of the room screen: a deal takes a few minutes to play.
ROOM_REFRESH_SECONDS = 10


def room(request: HttpRequest, slug: str, pk: int) -> TemplateResponse:
    tournament = tournament_for(slug, pk)
    require_room_viewer(request, tournament)
    standings = list(TournamentStanding.objects.of_tournament(tournament))
    poules = list(tournament.poules.annotate(seat_count=Count("seats")).order_by("round", "table"))
    rounds = []
    for number in range(1, tournament.rounds + 1):
        tables = [p for p in poules if p.round == number]
        rounds.append(
            {
                "number": number,
                "tables": len(tables),
                "played": sum(min(p.counted_deals, p.deals_tonight(p.seat_count)) for p in tables),
                "expected": sum(p.deals_tonight(p.seat_count) for p in tables),
            }
        )
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "standings": standings,
        "rounds": rounds,
        "refresh": ROOM_REFRESH_SECONDS if not tournament.is_locked else None,
        "public": shows_public_names(request, tournament),
    }
    template = "games/room.html#standings" if request.htmx else "games/room.html"
    return TemplateResponse(request, template, context)
