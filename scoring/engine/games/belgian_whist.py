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
from types import MappingProxyType
from typing import Any

from ..base import Penalty, PouleScore, add_penalties
from ..errors import DocumentRefused, EngineError, at, table_error
from ..parsing import MAX_VALUE, not_at_table, parse_penalties, shown

GAME = "belgian_whist"
PLAYERS = range(4, 6)
# The game's facts, read by the site through the game registry (games/__init__.py).
LOWER_IS_BETTER = False
RECORDS_DEALER = True
MORT_AT = 5  # at a table of five the dealer of each deal sits out: the mort
FIXED_DEALS_PER_POULE = True  # a club plays a set number of deals per poule (12, or 15 at 5)
ACTIVE_PLAYERS = 4
TRICKS = 14  # a grid has one value per trick count, 0 … 13

# §1.1: every contract code the engine knows, and how many declarers each side takes.
CONTRACTS = (
    "emballage",
    "solo",
    "petite_misere",
    "solo_sur_misere",
    "abondance",
    "trou",
    "grande_misere",
    "grande_misere_table",
    "petit_chelem",
    "chelem",
    "piccolo",
)
PASS = "pass"
# score_poule accepts None for a deal that could not be read, so that a refused sheet still
# lists the rotation's problems (the mort declaring) of every other deal.
SCORES_UNREAD_DEALS = True
SIDES = ("pair", "solo", "each")


@dataclass(frozen=True, slots=True)
class Row:
    """One contract at one bid: the points of each declarer and each defender per trick count."""

    contract: str
    bid: int | None
    side: str
    needed: int
    declarer: tuple[int, ...]
    defender: tuple[int, ...]
    deal_tricks: int = 13  # petite misère is played on 12 tricks (each player discards one)


@dataclass(frozen=True, slots=True)
class PointTable:
    name: str
    label: str
    zero_sum: bool
    rows: Mapping[tuple[str, int | None], Row]
    # Contracts with a single row (abondance at RCWhist, the misères …) need no bid.
    only_row: Mapping[str, Row]
    game: str = GAME

    def row(self, contract: str, bid: int | None) -> Row:
        row = self.rows.get((contract, bid)) if bid is not None else self.only_row.get(contract)
        if row is not None:
            return row
        bids = sorted(b for (c, b) in self.rows if c == contract and b is not None)
        if not bids and contract not in self.only_row:
            raise EngineError(
                "contract",
                f'"{contract}" is not in point table "{self.name}"',
                "contract_not_in_table",
                {"contract": contract, "table": self.label},
            )
        if bid is None:
            raise EngineError(
                "bid",
                f'contract "{contract}" needs a bid: one of {_list(bids)}',
                "bid_missing",
                {"contract": contract, "bids": _list(bids)},
            )
        raise EngineError(
            "bid",
            f'{contract} {bid} is not in point table "{self.name}": bids are {_list(bids)}',
            "bid_not_in_table",
            {"contract": contract, "bid": bid, "table": self.label, "bids": _list(bids)},
        )


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


def _list(values: Sequence[object]) -> str:
    return ", ".join(str(v) for v in values) or "none"


# --------------------------------------------------------------------------------------------
# Point tables


def _int_grid(value: Any, place: str) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != TRICKS:
        got = f"{len(value)} values" if isinstance(value, list) else type(value).__name__
        raise table_error(place, f"expected a list of {TRICKS} integers (tricks 0 … 13), got {got}")
    for t, points in enumerate(value):
        if not isinstance(points, int) or isinstance(points, bool):
            raise table_error(at(place, t), f"expected an integer, got {shown(points)}")
        if abs(points) > MAX_VALUE:
            raise table_error(
                at(place, t), f"expected at most {MAX_VALUE} either way, got {points}"
            )
    return tuple(value)


def _field(data: Mapping[str, Any], key: str, place: str, kind: type, default: Any = ...) -> Any:
    if key not in data:
        if default is not ...:
            return default
        raise table_error(at(place, key), "is missing")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise table_error(at(place, key), f"expected {kind.__name__}, got {shown(value)}")
    return value


def load_table(data: Mapping[str, Any], place: str = "") -> PointTable:
    """Validate a Belgian whist point table and return it frozen.

    Shape: ``{"format": "point-table/1", "game": "belgian_whist", "name", "label",
    "zero_sum": bool, "rows": [{"contract", "bid" (int or null), "side" ("pair" | "solo" |
    "each"), "needed", "declarer": [14 ints], "defender": [14 ints], "deal_tricks"?}]}``.
    A ``zero_sum`` table is checked row by row: declarers × declarer[t] + defenders ×
    defender[t] = 0 for every t, at a table of four active players.
    """
    if not isinstance(data, Mapping):
        raise table_error(place, "a point table must be a JSON object")
    name = _field(data, "name", place, str)
    label = _field(data, "label", place, str, default=name)
    zero_sum = _field(data, "zero_sum", place, bool, default=False)
    raw_rows = _field(data, "rows", place, list)
    if not raw_rows:
        raise table_error(at(place, "rows"), "a point table needs at least one row")
    rows: dict[tuple[str, int | None], Row] = {}
    for index, raw in enumerate(raw_rows):
        row_place = at(at(place, "rows"), index)
        if not isinstance(raw, Mapping):
            raise table_error(row_place, "expected an object")
        row = _load_row(raw, row_place)
        key = (row.contract, row.bid)
        if key in rows:
            raise table_error(row_place, f"{row.contract} {row.bid} appears twice")
        if zero_sum:
            _check_zero_sum(row, row_place)
        rows[key] = row
    by_contract: dict[str, list[Row]] = {}
    for row in rows.values():
        by_contract.setdefault(row.contract, []).append(row)
    only_row = {contract: rs[0] for contract, rs in by_contract.items() if len(rs) == 1}
    return PointTable(
        name=name,
        label=label,
        zero_sum=zero_sum,
        rows=MappingProxyType(rows),
        only_row=MappingProxyType(only_row),
    )


def _load_row(raw: Mapping[str, Any], place: str) -> Row:
    contract = _field(raw, "contract", place, str)
    if contract not in CONTRACTS:
        raise table_error(
            at(place, "contract"), f'unknown contract "{contract}"; known: {_list(CONTRACTS)}'
        )
    side = _field(raw, "side", place, str)
    if side not in SIDES:
        raise table_error(at(place, "side"), f'expected one of {_list(SIDES)}, got "{side}"')
    bid = raw.get("bid")
    if bid is not None and (
        not isinstance(bid, int) or isinstance(bid, bool) or not 1 <= bid <= 13
    ):
        raise table_error(at(place, "bid"), f"expected null or an integer 1 … 13, got {shown(bid)}")
    needed = _field(raw, "needed", place, int)
    deal_tricks = _field(raw, "deal_tricks", place, int, default=13)
    if deal_tricks not in (12, 13):
        raise table_error(at(place, "deal_tricks"), f"expected 12 or 13, got {deal_tricks}")
    if not 0 <= needed <= deal_tricks:
        raise table_error(at(place, "needed"), f"expected 0 … {deal_tricks}, got {needed}")
    return Row(
        contract=contract,
        bid=bid,
        side=side,
        needed=needed,
        declarer=_int_grid(raw.get("declarer"), at(place, "declarer")),
        defender=_int_grid(raw.get("defender"), at(place, "defender")),
        deal_tricks=deal_tricks,
    )


def _check_zero_sum(row: Row, place: str) -> None:
    declarers = 2 if row.side == "pair" else 1
    defenders = ACTIVE_PLAYERS - declarers
    for t in range(TRICKS):
        total = declarers * row.declarer[t] + defenders * row.defender[t]
        if total:
            raise table_error(
                at(at(place, "defender"), t),
                f"the table is zero-sum but {declarers} × {row.declarer[t]} + {defenders} × "
                f"{row.defender[t]} = {total} at {t} tricks",
            )


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


def parse_deal(
    point_table: PointTable,
    raw: Any,
    seats: Sequence[str],
    place: str,
    problems: list[EngineError],
) -> Deal | None:
    """Check one deal of the club-night file; append located problems, return the deal or None."""
    found = len(problems)
    if not isinstance(raw, Mapping):
        problems.append(EngineError(place, "a deal must be an object", "deal_not_object"))
        return None
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
                f"unknown contract {shown(contract)}; known: {_list((*CONTRACTS, PASS))}",
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
