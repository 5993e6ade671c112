"""The statistics whist players argue about, summed once per player and night when the night's
cote is written (``scoring.services.ratings`` stores them as ``PlayerNightStats``): the one
place that counts a player's deals, mort, roles, contracts declared and made, partners and
opponents. The pages add up these lines (``totals``, ``member``); none counts from the deals
again.

Roles in Belgian whist: *declarer* is a contract played alone (solo, abondance, misère …),
*partner* a contract played as a pair (emballage, trou), *defender* every other deal played;
the mort plays none. Head-to-head: the deals two players played at the same table (both
active), with the points each scored in them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.engine.errors import EngineError
from scoring.engine.games import game_module

BELGIAN_WHIST = "belgian_whist"
ROLES = ("declarer", "partner", "defender")


@dataclass(frozen=True)
class PouleDeals:
    """A poule's seats (seat number → player) and counted deals (data, points, dealer)."""

    seats: Mapping[int, int]
    deals: Sequence[tuple[Any, Sequence[int], int | None]]


def _blank() -> dict[str, Any]:
    return {
        "deals": 0,
        "mort": 0,
        "points": 0,
        "best_deal": None,
        "made": 0,
        "roles": {role: [0, 0] for role in ROLES},
        "contracts": {},
        "sides": {},
        "partners": {},
        "opponents": {},
    }


_BELGIAN = game_module(BELGIAN_WHIST)


def _deal_roles(
    game: str,
    point_table: Any,
    data: Mapping[str, Any],
    seat: str,
    declarers: list[str],
    pairs: dict[tuple[Any, Any], bool],
) -> tuple[str, bool | None]:
    """The seat's role in the deal and whether he made his contract (None: not declaring)."""
    if game != BELGIAN_WHIST or seat not in declarers:
        return "defender", None
    key = (data.get("contract"), data.get("bid"))
    pair = pairs.get(key)
    if pair is None:
        pair = pairs[key] = _BELGIAN.is_partner_contract(point_table, *key)
    return ("partner" if pair else "declarer"), _BELGIAN.contract_made(point_table, data, seat)


def night_statistics(
    game: str,
    point_table: Any,
    poules: Sequence[PouleDeals],
    standings: Mapping[int, tuple[int, bool, int, int, int, int, str]],
) -> dict[int, dict[str, Any]]:
    """Each player's night: deals, mort, points by role, contracts declared and made, his
    partners and the opponents at his tables; his rank and points of the night."""
    lines: dict[int, dict[str, Any]] = {}
    pairs: dict[tuple[Any, Any], bool] = {}
    mort_at = game_module(game).MORT_AT
    for poule in poules:
        numbers = sorted(poule.seats)
        players = [poule.seats[n] for n in numbers]
        for player in players:
            if player not in lines:
                lines[player] = _blank()
        # Looked up once a poule rather than once a deal and player (a night's 2 000 deals).
        size = len(players)
        seat_lines = [lines[player] for player in players]
        seat_names = [str(n) for n in numbers]
        everyone = list(range(size))
        by_mort: dict[int | None, list[Any]] = {}
        for data, points, dealer in poule.deals:
            if len(points) != size:
                continue
            out = dealer - 1 if dealer is not None and mort_at == size else None
            active = everyone if out is None else [i for i in everyone if i != out]
            if out is not None:
                seat_lines[out]["mort"] += 1
            summed = by_mort.setdefault(out, [0, [0] * size])
            summed[0] += 1
            seat_sums = summed[1]
            for i in active:
                seat_sums[i] += points[i]
            declarers = [str(s) for s in data.get("declarers") or ()]
            # The deal's contract and its side's first seat, found once a deal (the first
            # seat only for a partner contract, where it is asked for).
            contract = str(data.get("contract")) if declarers else ""
            first = None
            for i in active:
                line = seat_lines[i]
                seat = seat_names[i]
                scored = points[i]
                if seat not in declarers:
                    role, made = "defender", None
                else:
                    try:
                        role, made = _deal_roles(game, point_table, data, seat, declarers, pairs)
                    except (EngineError, KeyError, AttributeError):
                        role, made = "defender", None
                line["deals"] += 1
                line["points"] += scored
                best = line["best_deal"]
                if best is None or scored > best:
                    line["best_deal"] = scored
                played = line["roles"][role]
                played[0] += 1
                played[1] += scored
                if made is not None:
                    declared = line["contracts"].setdefault(contract, [0, 0])
                    declared[0] += 1
                    declared[1] += made
                    line["made"] += made
                    # Counted once per declaring side (its first seat) for the club's figures.
                    if role == "partner" and first is None:
                        first = min(declarers, key=int)
                    if role != "partner" or seat == first:
                        side = line["sides"].setdefault(contract, [0, 0])
                        side[0] += 1
                        side[1] += made
                    if role == "partner":
                        other = next((s for s in declarers if s != seat), None)
                        if other is not None and int(other) in poule.seats:
                            mate = str(poule.seats[int(other)])
                            together = line["partners"].setdefault(mate, [0, 0, 0])
                            together[0] += 1
                            together[1] += made
                            together[2] += scored
        # Head to head, summed per mort (None: everybody played): two players played together
        # every deal whose mort was neither of them.
        for out, (count, sums) in by_mort.items():
            for i, player in enumerate(players):
                if i == out:
                    continue
                opponents = lines[player]["opponents"]
                for j, other in enumerate(players):
                    if j in (i, out):
                        continue
                    versus = opponents.setdefault(str(other), [0, 0, 0])
                    versus[0] += count
                    versus[1] += sums[i]
                    versus[2] += sums[j]
    for player, line in lines.items():
        rank, tied, game_points, units, won, played, points = standings.get(
            player, (None, False, 0, 0, 0, 0, "0")
        )
        # As « Mes résultats » lists his nights: his poules [won, played] and his tournament
        # points exactly (a fraction's text: ``units`` are their whole 1/420ths).
        line.update(
            rank=rank,
            tied=tied,
            game_points=game_points,
            units=units,
            poules=[won, played],
            tournament_points=points,
        )
    return lines


def contracts_and_partners(
    lines: Iterable[Mapping[str, Any]],
) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
    """A player's nights added up (``night_statistics``' lines for him, stored or just
    counted): per contract he declared, [declared, made]; per partner (his id as text),
    [deals together, made, his points in them]. What his statistics page and his own results
    both show."""
    contracts: dict[str, list[int]] = {}
    partners: dict[str, list[int]] = {}
    for line in lines:
        for code, (played, made) in line["contracts"].items():
            total = contracts.setdefault(code, [0, 0])
            total[0] += played
            total[1] += made
        for mate, values in line["partners"].items():
            together = partners.setdefault(mate, [0, 0, 0])
            for k in range(3):
                together[k] += values[k]
    return contracts, partners
