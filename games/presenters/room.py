"""The room screen's figures: tonight's standings and how far each round has gone."""

from __future__ import annotations

from typing import Any

from django.db.models import Count

from scoring.models import TournamentStanding

from ..models import Tournament


def room_board(tournament: Tournament) -> dict[str, Any]:
    """The night's standings and, per round, its tables and the deals played of the deals
    expected (a table playing longer tonight counts its count, not more)."""
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
    return {"standings": standings, "rounds": rounds}
