"""A night's poules as the API answers them: seats, deals and standings, as stored."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from django.db.models import Prefetch, QuerySet

from club.models import Player
from games.models import Deal, Poule, Seat, Tournament
from games.numbering import sheet_numbers
from games.presenters.sheet import DealLine, StoredDeal, deal_lines
from scoring import services
from scoring.engine.standings import decimal_string
from scoring.models import PouleStanding, TournamentStanding

from .. import serializers as s
from .common import player_ref


def deal_answer(
    deal: Deal, tournament: Tournament, name_of: Callable[[Player], str]
) -> dict[str, Any]:
    """A deal just recorded or corrected (or replayed), numbered and described as the sheet
    shows it, players named as the scorer may see them (``club.names``). The poule's sheet as
    the service stored it when it handed it back; else read (two queries)."""
    sheet = getattr(deal.poule, "sheet_deals", None) if Deal.poule.is_cached(deal) else None
    if sheet is None or not any(d.pk == deal.pk for d in sheet):
        sheet = list(Deal.objects.filter(poule_id=deal.poule_id).order_by("position"))
    # The deals before it as stored, then the deal as the caller holds it (just written).
    before = sheet[: next(i for i, d in enumerate(sheet) if d.pk == deal.pk)]
    played = [*before, deal]
    seats = Seat.objects.filter(poule_id=deal.poule_id).select_related("player").order_by("number")
    names = {str(seat.number): name_of(seat.player) for seat in seats}
    number = sheet_numbers(tournament.game, ((d.counted, d.data) for d in played))[-1]
    line = deal_lines(
        tournament.game, tournament.point_table.engine_table(), len(names), [deal], names
    )[0]
    return _deal(deal, replace(line, number=number))


def _deal(deal: Any, line: DealLine) -> dict[str, Any]:
    """A deal as the API answers it: the sheet model's number (None for a pass), short code,
    words, dealer and mort, with what was recorded and its points."""
    return {
        "id": deal.pk,
        "number": line.number,
        "code": line.code,
        "description": line.text,
        "data": deal.data,
        "dealer": deal.dealer,
        "mort": line.mort,
        "points": list(deal.points),
        "counted": deal.counted,
        "version": services.deal_version(deal),
    }


def _poule_deals(
    tournament: Tournament, deals: Sequence[StoredDeal], names: dict[str, str]
) -> list[dict[str, Any]]:
    point_table = tournament.point_table.engine_table()
    lines = deal_lines(tournament.game, point_table, len(names), deals, names)
    return [_deal(deal, line) for deal, line in zip(deals, lines, strict=True)]


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
    tournament: Tournament, poules: QuerySet[Poule], name_of: Callable[[Player], str]
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
    deals: dict[int, list[StoredDeal]] = {poule.pk: [] for poule in poules}
    rows = Deal.objects.filter(poule__in=[p.pk for p in poules]).order_by("poule_id", "position")
    for poule_id, *row in rows.values_list("poule_id", *StoredDeal._fields):
        deals[poule_id].append(StoredDeal(*row))
    answer = []
    for poule in poules:
        seats = list(poule.seats.all())
        names = {str(seat.number): name_of(seat.player) for seat in seats}
        answer.append(
            {
                "id": poule.pk,
                "round": poule.round,
                "table": poule.table,
                "seats": [
                    {"number": seat.number, "player": player_ref(seat.player, name_of)}
                    for seat in seats
                ],
                "deals": _poule_deals(tournament, deals[poule.pk], names),
                "standings": [_poule_lines(line, name_of) for line in poule.standings.all()],
            }
        )
    return answer


def night_detail(tournament: Tournament, name_of: Callable[[Player], str]) -> dict[str, Any]:
    """A night with its standings, poules, deals and points, as stored (nothing recomputed),
    each player named by ``name_of``."""
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
    data["poules"] = poules_answer(tournament, Poule.objects.filter(tournament=tournament), name_of)
    return data
