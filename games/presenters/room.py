"""The room screen's figures: tonight's standings and its leaders, and how far each round and
each table has gone (deals played of the deals the table plays tonight)."""

from __future__ import annotations

from typing import Any

from django.db.models import Count

from scoring.models import TournamentStanding

from ..models import Tournament

# How many of the night's first places the screen shows large, above the standings.
LEADERS = 3


def room_board(tournament: Tournament) -> dict[str, Any]:
    """The night's standings, its leaders and, per round, its tables with their progress (a
    table playing longer tonight counts its count, not more). Two queries."""
    standings = list(TournamentStanding.objects.of_tournament(tournament))
    poules = list(tournament.poules.annotate(seat_count=Count("seats")).order_by("round", "table"))
    rounds = []
    for number in range(1, tournament.rounds + 1):
        tables = [
            {
                "table": poule.table,
                "played": min(poule.counted_deals, poule.deals_tonight(poule.seat_count)),
                "expected": poule.deals_tonight(poule.seat_count),
            }
            for poule in poules
            if poule.round == number
        ]
        for table in tables:
            table["percent"] = round(100 * table["played"] / (table["expected"] or 1))
        rounds.append(
            {
                "number": number,
                "tables": tables,
                "played": sum(table["played"] for table in tables),
                "expected": sum(table["expected"] for table in tables),
            }
        )
    # The round being played: the first one drawn and not finished, else the last drawn.
    drawn = [r for r in rounds if r["tables"]]
    current = next((r for r in drawn if r["played"] < r["expected"]), drawn[-1] if drawn else None)
    leaders = [line for line in standings if line.rank <= LEADERS][: LEADERS + 2]
    return {"standings": standings, "rounds": rounds, "current": current, "leaders": leaders}
