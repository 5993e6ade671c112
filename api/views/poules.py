"""A night's poules as the API answers them: seats, deals and standings, as stored."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import Prefetch, QuerySet

from club.models import Player
from games.models import Deal, Poule, Seat, Tournament
from scoring import services
from scoring.engine.standings import decimal_string
from scoring.models import PouleStanding, TournamentStanding

from .. import serializers as s
from .common import namer, player_ref


def deal_answer(deal: Deal) -> dict[str, Any]:
    return {
        "id": deal.pk,
        "number": deal.number,
        "data": deal.data,
        "dealer": deal.dealer,
        "points": deal.points,
        "counted": deal.counted,
        "version": services.deal_version(deal),
    }


DEAL_FIELDS = ("id", "poule_id", "number", "data", "dealer", "points", "counted", "recorded_at")


def _deal_row(row: dict[str, Any]) -> dict[str, Any]:
    """A deal read as plain values (a night has hundreds): the same answer as ``deal_answer``."""
    return {
        "id": row["id"],
        "number": row["number"],
        "data": row["data"],
        "dealer": row["dealer"],
        "points": row["points"],
        "counted": row["counted"],
        "version": row["recorded_at"].isoformat(),
    }


def _poule_lines(line: PouleStanding, name_of: Callable[[Player], str]) -> dict[str, Any]:
    return {
        "player": player_ref(line.player, name_of),
        "seat": line.seat,
        "rank": line.rank,
        "tied": line.tied,
        "game_points": line.game_points,
        "tournament_points": decimal_string(line.tournament_points),
    }


def poules_answer(
    poules: QuerySet[Poule], name_of: Callable[[Player], str]
) -> list[dict[str, Any]]:
    """Every poule with its seats, deals and standings: four queries, however many."""
    poules = list(
        poules.order_by("round", "table").prefetch_related(
            Prefetch("seats", Seat.objects.select_related("player").order_by("number")),
            Prefetch(
                "standings",
                PouleStanding.objects.select_related("player").order_by("rank", "seat"),
            ),
        )
    )
    deals: dict[int, list[dict[str, Any]]] = {poule.pk: [] for poule in poules}
    rows = Deal.objects.filter(poule__in=[p.pk for p in poules]).order_by("poule_id", "number")
    for row in rows.values(*DEAL_FIELDS):
        deals[row["poule_id"]].append(_deal_row(row))
    return [
        {
            "id": poule.pk,
            "round": poule.round,
            "table": poule.table,
            "seats": [
                {"number": seat.number, "player": player_ref(seat.player, name_of)}
                for seat in poule.seats.all()
            ],
            "deals": deals[poule.pk],
            "standings": [_poule_lines(line, name_of) for line in poule.standings.all()],
        }
        for poule in poules
    ]


def night_detail(tournament: Tournament, public: bool) -> dict[str, Any]:
    """A night with its standings, poules, deals and points, as stored (nothing recomputed)."""
    name_of = namer(public)
    data = dict(s.NightSerializer(tournament).data)
    data["tournament_points"] = tournament.tournament_points
    data["standings"] = [
        {
            "player": player_ref(line.player, name_of),
            "rank": line.rank,
            "tied": line.tied,
            "tournament_points": decimal_string(line.tournament_points),
            "game_points": line.game_points,
            "poules_played": line.poules_played,
            "poules_won": line.poules_won,
        }
        for line in TournamentStanding.objects.of_tournament(tournament)
    ]
    data["poules"] = poules_answer(Poule.objects.filter(tournament=tournament), name_of)
    return data
