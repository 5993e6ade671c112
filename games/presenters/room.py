"""The room screen's figures: tonight's standings and its leaders, how far each round and each
table has gone (deals played of the deals the table plays tonight), and, when the club shows
them, each table's last three deals as the sheet numbers and words them."""

from __future__ import annotations

from typing import Any

from django.db.models import Count

from club.names import NameReader, name_shown
from scoring.models import TournamentStanding

from ..models import Deal, Poule, Seat, Tournament
from .sheet import DealLine, deal_lines

# How many of the night's first places the screen shows large, above the standings.
LEADERS = 3
# How many of each table's deals the screen shows, the latest last (the club's setting).
LAST_DEALS = 3


def room_board(
    tournament: Tournament, reader: NameReader | None = None, *, last_deals: bool = False
) -> dict[str, Any]:
    """The night's standings, its leaders and, per round, its tables with their progress (a
    table playing longer tonight counts its count, not more). Two queries; ``last_deals``:
    the current round's tables each with its last deals too, named for ``reader``
    (``club.names``; None: the public), two more whatever the number of tables."""
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
    deals = []
    if last_deals and current is not None:
        tables = [poule for poule in poules if poule.round == current["number"]]
        deals = _last_deals(tournament, tables, reader)
    return {
        "standings": standings,
        "rounds": rounds,
        "current": current,
        "leaders": leaders,
        "last_deals": deals,
    }


def _last_deals(
    tournament: Tournament, poules: list[Poule], reader: NameReader | None
) -> list[dict[str, Any]]:
    """Each table's last deals, numbered, coded and told in words as on its sheet (a pass has
    no number), its players named as ``reader`` may see them. Each whole sheet is read to
    number its deals; two queries (the seats, the deals) for all the tables."""
    seats: dict[int, dict[str, str]] = {poule.pk: {} for poule in poules}
    for seat in Seat.objects.filter(poule__in=poules).select_related("player"):
        seats[seat.poule_id][str(seat.number)] = name_shown(seat.player, reader)
    # In playing order: the model's own ordering (the poule, then the deal's place in it).
    played: dict[int, list[Deal]] = {poule.pk: [] for poule in poules}
    for deal in Deal.objects.filter(poule__in=poules):
        played[deal.poule_id].append(deal)
    point_table = tournament.point_table.engine_table()
    tables = []
    for poule in poules:
        lines: list[DealLine] = deal_lines(
            tournament.game, point_table, poule.seat_count, played[poule.pk], seats[poule.pk]
        )
        tables.append({"table": poule.table, "deals": lines[-LAST_DEALS:]})
    return tables
