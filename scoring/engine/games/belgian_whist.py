"""Belgian whist (whist belge, à la couleur) — scoring-rules.md §1, seed 003.

Four active players each for himself; at a table of 5 the dealer of each deal is the mort and
scores 0. The point table is a grid: per contract row, ``declarer[t]`` and ``defender[t]`` for
the tricks ``t`` = 0 … 13 of the declaring side. Scoring a deal is a look-up and a few additions,
so the hot path below stays free of allocation beyond the result tuple.

Decision (dealer): when a deal names its dealer, the rotation continues from him; otherwise the
dealer is seat 1 for the first deal, moves one seat clockwise after each counted deal and stays
the same after an all-pass deal (which does not count toward the poule's number of deals).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..base import Penalty, PouleScore, add_penalties
from ..dealkeys import (
    CODE,
    DEALER,
    NAME,
    PENALTIES,
    Either,
    Fields,
    Integer,
    Keyed,
    ListOf,
    deal_reader,
)
from ..errors import DocumentRefused, EngineError, at
from ..parsing import not_at_table, parse_penalties, shown
from .belgian_whist_table import (
    ACTIVE_PLAYERS,
    CONTRACTS,
    GAME,
    PASS,
    SIDES,
    TRICKS,
    PointTable,
    Row,
    listed,
    load_table,
)

__all__ = [
    "ACTIVE_PLAYERS",
    "CONTRACTS",
    "DEAL_KEYS",
    "GAME",
    "PASS",
    "SIDES",
    "TRICKS",
    "PointTable",
    "Row",
    "load_table",
]

PLAYERS = range(4, 6)
# The game's facts, read by the site through the game registry (games/__init__.py).
LOWER_IS_BETTER = False
RECORDS_DEALER = True
MORT_AT = 5  # at a table of five the dealer of each deal sits out: the mort
FIXED_DEALS_PER_POULE = True  # a club plays a set number of deals per poule (12, or 15 at 5)
# score_poule accepts None for a deal that could not be read, so that a refused sheet still
# lists the rotation's problems (the mort declaring) of every other deal.
SCORES_UNREAD_DEALS = True


@dataclass(frozen=True, slots=True)
class Deal:
    """A deal as the scorer records it; players are seat indexes (0 = seat 1).

    ``tricks`` is the declaring side's tricks for pair and solo contracts, and one count per
    declarer (in the order of ``declarers``) for "each" contracts. ``dealer`` is optional: it
    follows the rotation when absent.
    """

    contract: str
    bid: int | None = None
    declarers: tuple[int, ...] = ()
    tricks: int | tuple[int, ...] | None = None
    penalties: tuple[Penalty, ...] = ()
    dealer: int | None = None


# --------------------------------------------------------------------------------------------
# Scoring


# Built once: scoring a deal is the hot path of every score sheet and benchmark.
_ACTIVE = {
    **{(4, dealer): (0, 1, 2, 3) for dealer in range(-1, 4)},
    **{(5, dealer): tuple(s for s in range(5) if s != dealer) for dealer in range(-1, 5)},
}


def active_seats(seat_count: int, dealer: int) -> tuple[int, ...]:
    """The seats that play the deal: everyone, except the dealer at a table of five (the mort)."""
    return _ACTIVE[seat_count, dealer]


def score_deal(
    point_table: PointTable, deal: Deal, seat_count: int = 4, dealer: int = 0
) -> tuple[int, ...]:
    """The points of every seat for one deal (the mort and an all-pass deal score 0).

    Raises ``EngineError`` naming the field (``tricks``, ``declarers``, ``bid`` …) when the deal
    cannot have happened at this table.
    """
    if seat_count not in PLAYERS:
        raise _table_size(seat_count)
    points = [0] * seat_count
    active = _ACTIVE.get((seat_count, dealer))
    if active is None:
        raise _dealer_not_at_table("dealer", dealer)
    if deal.contract != PASS:
        row = point_table.row(deal.contract, deal.bid)
        declarers = deal.declarers
        _check_declarers(row, declarers, active, seat_count)
        if row.side == "each":
            tricks = deal.tricks
            if not isinstance(tricks, tuple) or len(tricks) != len(declarers):
                raise EngineError(
                    "tricks",
                    f"{row.contract} needs one trick count per declarer",
                    "tricks_per_declarer",
                    {"contract": row.contract},
                )
            if sum(tricks) > row.deal_tricks:
                raise EngineError(
                    "tricks",
                    f"the declarers took {sum(tricks)} tricks of {row.deal_tricks}",
                    "tricks_total",
                    {"got": sum(tricks), "maximum": row.deal_tricks},
                )
            for declarer, t in zip(declarers, tricks, strict=True):
                if not 0 <= t <= row.deal_tricks:
                    raise _tricks_outside(t, row.deal_tricks)
                # "Chacun pour soi": each declarer is a solo against all the other active players.
                made, lost = row.declarer[t], row.defender[t]
                for seat in active:
                    points[seat] += made if seat == declarer else lost
            if len(declarers) == len(active) and sum(tricks) != row.deal_tricks:
                # §1.1: when every active player declares, every trick went to a declarer.
                raise EngineError(
                    "tricks",
                    f"every active player declares {row.contract}: their tricks add up to "
                    f"{sum(tricks)}, not the deal's {row.deal_tricks}",
                    "tricks_total_all_declare",
                    {"contract": row.contract, "got": sum(tricks), "expected": row.deal_tricks},
                )
        else:
            t = deal.tricks
            if not isinstance(t, int) or isinstance(t, bool):
                raise EngineError(
                    "tricks",
                    f"{row.contract} needs the declaring side's tricks as one integer",
                    "tricks_one_count",
                    {"contract": row.contract},
                )
            if not 0 <= t <= row.deal_tricks:
                raise _tricks_outside(t, row.deal_tricks)
            made, lost = row.declarer[t], row.defender[t]
            for seat in active:
                points[seat] = made if seat in declarers else lost
    if deal.penalties:
        for penalty in deal.penalties:
            if penalty.seat not in active:
                raise EngineError(
                    "penalties",
                    f"seat {penalty.seat + 1} does not play this deal",
                    "penalty_not_playing",
                    {"seat": penalty.seat + 1},
                )
        add_penalties(points, deal.penalties, active)
    return tuple(points)


def _check_declarers(
    row: Row, declarers: tuple[int, ...], active: tuple[int, ...], seat_count: int
) -> None:
    wanted = 2 if row.side == "pair" else 1
    if row.side == "each":
        if not 1 <= len(declarers) <= ACTIVE_PLAYERS:
            raise EngineError(
                "declarers",
                f'contract "{row.contract}" needs 1 to 4 declarers, got {len(declarers)}',
                "declarers_each_count",
                {"contract": row.contract, "maximum": ACTIVE_PLAYERS, "got": len(declarers)},
            )
    elif len(declarers) != wanted:
        raise EngineError(
            "declarers",
            f'contract "{row.contract}" needs exactly {wanted} '
            f"declarer{'s' if wanted > 1 else ''}, got {len(declarers)}",
            "declarer_count",
            {"contract": row.contract, "expected": wanted, "got": len(declarers)},
        )
    if len(set(declarers)) != len(declarers):
        raise EngineError("declarers", "a player is named twice", "declarer_twice")
    for seat in declarers:
        if seat not in active:
            if 0 <= seat < seat_count:
                raise EngineError(
                    "declarers",
                    f"seat {seat + 1} is the mort (the dealer at a table of 5)",
                    "declarer_is_mort",
                    {"seat": seat + 1},
                )
            raise EngineError(
                "declarers",
                f"seat {seat + 1} is not at this table",
                "seat_not_at_table",
                {"seat": seat + 1},
            )


def score_poule(
    point_table: PointTable, seat_count: int, deals: Sequence[Deal | None]
) -> PouleScore:
    """Score a poule's deals in playing order, following the dealer rotation.

    Every deal is checked, so a refusal (``DocumentRefused``) lists every deal the rotation
    makes impossible (the mort declaring), each located at ``deals[i]``. A ``None`` stands for a
    deal that could not be read: it is not scored, and the rotation takes it as counted.
    """
    if seat_count not in PLAYERS:
        raise _table_size(seat_count)
    totals = [0] * seat_count
    deal_points: list[tuple[int, ...]] = []
    dealers: list[int | None] = []
    problems: list[EngineError] = []
    dealer = 0
    counted = 0
    counts: list[bool] = []
    for index, deal in enumerate(deals):
        if deal is None:
            dealer = (dealer + 1) % seat_count
            continue
        if deal.dealer is not None:
            if not 0 <= deal.dealer < seat_count:
                problems.append(_dealer_not_at_table(f"deals[{index}].dealer", deal.dealer))
                continue
            dealer = deal.dealer
        try:
            points = score_deal(point_table, deal, seat_count, dealer)
        except EngineError as error:
            problems.append(error.moved(f"deals[{index}]"))
            points = (0,) * seat_count
        for seat, p in enumerate(points):
            totals[seat] += p
        deal_points.append(points)
        dealers.append(dealer)
        counts.append(counts_toward_poule(deal.contract))
        if counts[-1]:
            counted += 1
            dealer = (dealer + 1) % seat_count
    if problems:
        raise DocumentRefused(problems)
    return PouleScore(
        deal_points=tuple(deal_points),
        dealers=tuple(dealers),
        game_points=tuple(totals),
        net=tuple(Fraction(p) for p in totals),
        counted_deals=counted,
        counted=tuple(counts),
    )


def counts_toward_poule(contract: str) -> bool:
    """A deal counts toward the poule's number of deals unless everybody passed."""
    return contract != PASS


def is_partner_contract(point_table: PointTable, contract: str, bid: int | None) -> bool:
    """Two declarers play together (emballage, trou: side "pair" in the point table)."""
    return point_table.row(contract, bid).side == "pair"


def contract_made(point_table: PointTable, deal: Mapping[str, Any], declarer: str) -> bool:
    """Did ``declarer`` (as the deal names him) make the contract of ``deal`` (a deal as the
    club-night file writes it)? He did when the point table gives the declaring side positive
    points for the tricks taken; in the "each" contracts (misères, piccolo) every declarer plays
    alone, with his own tricks. Raises ``EngineError`` for a deal the table cannot read (a
    stored deal of a table revised since)."""
    row = point_table.row(deal.get("contract", ""), deal.get("bid"))
    tricks = deal.get("tricks")
    try:
        taken = tricks[declarer] if row.side == "each" else tricks
        return row.declarer[taken] > 0
    except (KeyError, TypeError, IndexError):
        raise EngineError(
            "tricks",
            f"{shown(tricks)} cannot be read for {declarer}",
            "tricks_unreadable",
            {"tricks": shown(tricks), "player": declarer},
        ) from None


# --------------------------------------------------------------------------------------------
# The club-night file


def _seat_of(
    name: Any, seats: Sequence[str], place: str, problems: list[EngineError]
) -> int | None:
    if isinstance(name, str) and name in seats:
        return seats.index(name)
    problems.append(not_at_table(place, name))
    return None


# What a deal may hold (dealkeys.py): each key, its type and its bounds.
MAX_SEATS = PLAYERS.stop - 1
DEAL_KEYS = Fields(
    {
        "contract": CODE,
        "bid": Integer(1, TRICKS - 1),
        "declarers": ListOf(NAME, MAX_SEATS),
        # The declaring side's tricks, or each declarer's ("each" contracts: the misères).
        "tricks": Either((Integer(0, TRICKS - 1), Keyed(Integer(0, TRICKS - 1), MAX_SEATS))),
        "dealer": DEALER,
        "penalties": PENALTIES,
    }
)


def _read(
    point_table: PointTable,
    raw: Mapping[str, Any],
    seats: Sequence[str],
    place: str,
    problems: list[EngineError],
) -> Deal | None:
    """Check one deal of the club-night file; append located problems, return the deal or None."""
    found = len(problems)
    contract = raw.get("contract")
    dealer = None
    if raw.get("dealer") is not None:
        dealer = _seat_of(raw["dealer"], seats, at(place, "dealer"), problems)
    penalties = parse_penalties(raw.get("penalties"), seats, place, problems)
    if contract == PASS:
        return (
            Deal(contract=PASS, penalties=penalties, dealer=dealer)
            if len(problems) == found
            else None
        )
    if not isinstance(contract, str) or contract not in CONTRACTS:
        problems.append(
            EngineError(
                at(place, "contract"),
                f"unknown contract {shown(contract)}; known: {listed((*CONTRACTS, PASS))}",
                "contract_unknown",
                {"got": shown(contract)},
            )
        )
        return None
    bid = raw.get("bid")
    if bid is not None and (not isinstance(bid, int) or isinstance(bid, bool)):
        problems.append(
            EngineError(
                at(place, "bid"),
                f"expected an integer, got {shown(bid)}",
                "bid_not_integer",
                {"got": shown(bid)},
            )
        )
        return None
    try:
        row = point_table.row(contract, bid)
    except EngineError as error:
        problems.append(error.moved(place))
        return None
    raw_declarers = raw.get("declarers")
    if not isinstance(raw_declarers, list):
        problems.append(
            EngineError(
                at(place, "declarers"), "expected a list of player names", "declarers_not_list"
            )
        )
        return None
    declarers = tuple(
        _seat_of(name, seats, at(place, "declarers"), problems) for name in raw_declarers
    )
    if None in declarers:
        return None
    raw_tricks = raw.get("tricks")
    tricks: int | tuple[int, ...] | None = None
    if row.side == "each":
        if not isinstance(raw_tricks, Mapping):
            problems.append(
                EngineError(
                    at(place, "tricks"),
                    f"{contract} needs an object player → tricks",
                    "tricks_per_declarer",
                    {"contract": contract},
                )
            )
        elif set(raw_tricks) != set(raw_declarers):
            problems.append(
                EngineError(
                    at(place, "tricks"),
                    "give the tricks of each declarer, and only theirs",
                    "tricks_of_declarers_only",
                )
            )
        else:
            tricks = tuple(raw_tricks[name] for name in raw_declarers)
            if not all(isinstance(t, int) and not isinstance(t, bool) for t in tricks):
                problems.append(
                    EngineError(
                        at(place, "tricks"), "tricks must be integers", "tricks_not_integer"
                    )
                )
    elif not isinstance(raw_tricks, int) or isinstance(raw_tricks, bool):
        problems.append(
            EngineError(
                at(place, "tricks"),
                f"{contract} needs the declaring side's tricks as an integer",
                "tricks_one_count",
                {"contract": contract},
            )
        )
    else:
        tricks = raw_tricks
    if len(problems) != found:
        return None
    deal = Deal(
        contract=contract,
        bid=row.bid,
        declarers=declarers,  # type: ignore[arg-type]  # no None left: problems would be non-empty
        tricks=tricks,
        penalties=penalties,
        dealer=dealer,
    )
    try:
        # The checks that need no dealer (the mort is checked when the poule is scored).
        if len(seats) in PLAYERS:
            score_deal(point_table, deal, len(seats), dealer=-1)
    except EngineError as error:
        problems.append(error.moved(place))
        return None
    return deal


parse_deal = deal_reader(GAME, DEAL_KEYS, _read)


def _table_size(seat_count: int) -> EngineError:
    return EngineError(
        "seats",
        f"Belgian whist is played at tables of 4 or 5, not {seat_count}",
        "table_size",
        {"minimum": PLAYERS.start, "maximum": PLAYERS.stop - 1, "got": seat_count},
    )


def _dealer_not_at_table(place: str, dealer: int) -> EngineError:
    return EngineError(
        place, f"seat {dealer + 1} is not at this table", "seat_not_at_table", {"seat": dealer + 1}
    )


def _tricks_outside(tricks: int, maximum: int) -> EngineError:
    return EngineError(
        "tricks",
        f"{tricks} is outside 0..{maximum}",
        "tricks_outside",
        {"got": tricks, "maximum": maximum},
    )
