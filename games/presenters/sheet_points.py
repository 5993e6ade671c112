"""What the phone needs to count a waiting deal before the server has it: the night's point
table, row by row as the engine reads it. The sheet's header adds the deals waiting on the
phone to the totals, marked provisional until the server has recorded them
(static/js/sheet-points.js scores a deal the way ``scoring.engine.games.belgian_whist`` does).

Belgian whist only: its points are a look-up in the table's grid. The other games' waiting
deals are counted in the header without points (their scoring reads whole parties, bonuses
and shoots the moon; written twice it would drift)."""

from __future__ import annotations

from typing import Any

from scoring.engine.games.belgian_whist import GAME as BELGIAN_WHIST

from ..models import Tournament


def provisional_points(tournament: Tournament) -> dict[str, Any] | None:
    """The night's point table as the phone's script reads it, or ``None`` for a game whose
    waiting deals get their points from the server only."""
    if tournament.game != BELGIAN_WHIST:
        return None
    table = tournament.point_table.engine_table()
    return {
        "game": BELGIAN_WHIST,
        "rows": [
            {
                "contract": row.contract,
                "bid": row.bid,
                "side": row.side,
                "declarer": list(row.declarer),
                "defender": list(row.defender),
                "deal_tricks": row.deal_tricks,
            }
            for row in table.rows.values()
        ],
    }
