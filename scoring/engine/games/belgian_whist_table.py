"""Belgian whist: the contracts and the point table, read and checked (scoring-rules.md §1).

A point table is a grid: per contract row, ``declarer[t]`` and ``defender[t]`` for the tricks
``t`` = 0 … 13 of the declaring side. ``belgian_whist`` scores deals by it and re-exports it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..errors import EngineError, at, table_error
from ..parsing import MAX_VALUE, shown

GAME = "belgian_whist"
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
                f'contract "{contract}" needs a bid: one of {listed(bids)}',
                "bid_missing",
                {"contract": contract, "bids": listed(bids)},
            )
        raise EngineError(
            "bid",
            f'{contract} {bid} is not in point table "{self.name}": bids are {listed(bids)}',
            "bid_not_in_table",
            {"contract": contract, "bid": bid, "table": self.label, "bids": listed(bids)},
        )


def listed(values: Sequence[object]) -> str:
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
            at(place, "contract"), f'unknown contract "{contract}"; known: {listed(CONTRACTS)}'
        )
    side = _field(raw, "side", place, str)
    if side not in SIDES:
        raise table_error(at(place, "side"), f'expected one of {listed(SIDES)}, got "{side}"')
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
