"""The bésigue family — scoring-rules.md §4, seed 002.

Per coup the scorer records, for each player, how many times he declared each combination
(``{"besigue": 1, "double_besigue": 1}`` is a double bésigue declared in two steps: 40 + 500),
the brisques (aces and tens) in his tricks where the table counts them, and who won the last
trick. A player's coup score is Σ count × value + brisque × brisques (where they score) + the
last-trick bonus.

How a poule is scored (decisions where the spec is silent):

- Each deal of the club-night file is one coup. ``target`` tables (bésigue, sans retourne, à
  trois, à quatre) add coups up into games: a game ends at the end of the coup in which a
  player (or team) reaches the target, and the next coup starts a new game at 0. A poule plays
  as many games as its coups make; a game still going after the last coup is not counted (a
  warning says so). ``one_coup`` tables (chinois, huit paquets, rubicon) make every deal a game.
- Winner of a target game: the highest total; equal highest totals go to the one of them who
  won the last trick. At three or four players, when none of the tied leaders won it, nobody
  has won yet and the game goes on for another coup.
- Value of a target game (the seed gives none): the winner's total − the loser's total, owed
  by each loser to the winner — so at three players the winner gets the sum of both
  differences. With ``teams`` (à quatre in partnership, seats 1+3 vs 2+4) the partners' coup
  scores are pooled and each winner gets +value, each loser −value.
- Value of a one-coup game: W − L + ``winner_bonus``, or, when the loser is rubicon,
  W + L + ``rubicon_bonus`` + ``rubicon_extra`` (rubicon: the 320 of the brisques). W and L are
  the totals with the tens dropped (2 950 → 2 900). The winner is the higher total with tens
  dropped; then with the tens; then (where brisques break ties) with the brisques; then the
  winner of the last trick. The rubicon test uses the loser's full total (plus his brisques
  where they "save a rubicon"): with thresholds in hundreds the tens cannot change it anyway.
- Game points: winners +value, losers −value, zero-sum. Deal points: each player's own coup
  score (brisques included only where they score), penalties added — the score sheet's line.
- Sanity checks per coup: brisques add up to 8 per deck; no more sevens of trump than decks;
  each cut bonus at most once. Declarations are not otherwise checked against the cards.
- The dealer is not recorded: ``PouleScore.dealers`` is ``None`` for every deal.

Chouette (three or more players around one chinois or rubicon game) is not a point table of its
own: ``chouette`` settles one game between the box and the captain's side, and
``chouette_next`` gives the order of play for the next game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any, TypeVar

from ..base import Penalty, PouleScore, add_penalties
from ..errors import EngineError, at
from ..parsing import (
    MAX_COUNT,
    int_field,
    is_int,
    not_at_table,
    parse_penalties,
    shown,
    table_error,
    table_header,
)

GAME = "besigue"
PLAYERS = range(2, 5)
# The game's facts, read by the site through the game registry (games/__init__.py).
LOWER_IS_BETTER = False
RECORDS_DEALER = False
MORT_AT = None  # nobody sits out a deal
FIXED_DEALS_PER_POULE = False
BRISQUES_PER_DECK = 8  # 4 aces and 4 tens in a 32-card deck

# Every combination code a table may price (§4). Codes stay in English snake_case; the UI
# shows the French names.
COMBINATIONS = (
    "marriage",
    "trump_marriage",
    "four_jacks",
    "four_queens",
    "four_kings",
    "four_aces",
    "four_trump_jacks",
    "four_trump_queens",
    "four_trump_kings",
    "four_trump_tens",
    "four_trump_aces",
    "five_trump_jacks",
    "five_trump_queens",
    "five_trump_kings",
    "five_trump_tens",
    "five_trump_aces",
    "besigue",
    "double_besigue",
    "triple_besigue",
    "quadruple_besigue",
    "quintuple_besigue",
    "quinte_majeure",
    "other_quinte",
    "seven_of_trump",
    "carte_blanche",
    "cut_guess",
    "cut_24",
)
# "score": brisques count in the coup score; "ignored": not counted (chinois); "tie_break": only
# to break a tie or to save a rubicon (rubicon).
BRISQUE_USES = ("score", "ignored", "tie_break")
PARTNERS = ((0, 2), (1, 3))  # à quatre in teams: partners sit opposite


@dataclass(frozen=True, slots=True)
class TargetEnd:
    """Games of several coups, won by reaching ``target`` at the end of a coup."""

    target: int


@dataclass(frozen=True, slots=True)
class OneCoupEnd:
    """Games of one coup, with a bonus for the winner and a rubicon for a weak loser."""

    winner_bonus: int
    rubicon_below: int
    rubicon_bonus: int
    rubicon_extra: int
    drop_tens: bool


@dataclass(frozen=True, slots=True)
class PointTable:
    name: str
    label: str
    players: int
    decks: int
    combinations: Mapping[str, int]
    brisque: int
    brisques: str
    last_trick: int
    end: TargetEnd | OneCoupEnd
    teams: bool = False
    game: str = GAME

    @property
    def deck_brisques(self) -> int:
        return BRISQUES_PER_DECK * self.decks


@dataclass(frozen=True, slots=True)
class Deal:
    """A coup as recorded; players are seat indexes (0 = seat 1).

    ``declarations`` — per seat, ``(code, count)`` pairs; ``brisques`` — per seat, or ``None``
    where the table ignores them and the scorer left them out.
    """

    declarations: tuple[tuple[tuple[str, int], ...], ...]
    brisques: tuple[int, ...] | None
    last_trick: int
    penalties: tuple[Penalty, ...] = ()


@dataclass(frozen=True, slots=True)
class GameResult:
    """A one-coup game: who won, what it is worth, and whether the loser was rubicon."""

    winner: int
    loser: int
    value: int
    rubicon: bool


@dataclass(frozen=True, slots=True)
class ChouetteSettlement:
    """What the box and each of his opponents get for one game of chouette (stakes)."""

    box: int
    each_opponent: int


# --------------------------------------------------------------------------------------------
# Point tables


def load_table(data: Mapping[str, Any], place: str = "") -> PointTable:
    """Validate a bésigue point table and return it frozen.

    Shape::

        {"format": "point-table/1", "game": "besigue", "name": "besigue", "label": "…",
         "players": 2,                 # 2, 3 or 4
         "decks": 2,                   # 32-card decks shuffled together
         "combinations": {"marriage": 20, "trump_marriage": 40, …},   # code → points
         "brisque": 10, "brisques": "score" | "ignored" | "tie_break",
         "last_trick": 10,
         "end": {"kind": "target", "target": 1500}
             or {"kind": "one_coup", "winner_bonus": 1000, "rubicon_below": 3000,
                 "rubicon_bonus": 1000, "rubicon_extra": 0, "drop_tens": true},
         "teams": false}               # true: 4 players, partners 1+3 vs 2+4 pool their points

    A combination the table leaves out cannot be declared under it.
    """
    name, label = table_header(data, place, GAME)
    players = int_field(data, "players", place, 2)
    if players not in PLAYERS:
        raise table_error(at(place, "players"), f"expected 2, 3 or 4, got {players}")
    brisques = data.get("brisques")
    if brisques not in BRISQUE_USES:
        wanted = " or ".join(f'"{u}"' for u in BRISQUE_USES)
        raise table_error(at(place, "brisques"), f"expected {wanted}, got {shown(brisques)}")
    teams = data.get("teams", False)
    if not isinstance(teams, bool):
        raise table_error(at(place, "teams"), f"expected true or false, got {shown(teams)}")
    if teams and players != 4:
        raise table_error(at(place, "teams"), f"teams need 4 players, the table has {players}")
    end = _load_end(data.get("end"), at(place, "end"))
    if isinstance(end, OneCoupEnd) and players != 2:
        raise table_error(at(place, "players"), f"a one-coup game is for 2 players, got {players}")
    return PointTable(
        name=name,
        label=label,
        players=players,
        decks=int_field(data, "decks", place, 1),
        combinations=_load_combinations(data.get("combinations"), at(place, "combinations")),
        brisque=int_field(data, "brisque", place, 0),
        brisques=brisques,
        last_trick=int_field(data, "last_trick", place, 0),
        end=end,
        teams=teams,
    )


def _load_combinations(raw: Any, place: str) -> Mapping[str, int]:
    if not isinstance(raw, Mapping) or not raw:
        raise table_error(place, f"expected an object combination code → points, got {shown(raw)}")
    for code in raw:
        if code not in COMBINATIONS:
            raise table_error(
                at(place, code),
                f"unknown combination {shown(code)}; known: {', '.join(COMBINATIONS)}",
            )
        int_field(raw, code, place, 0)
    return MappingProxyType(dict(raw))


def _load_end(raw: Any, place: str) -> TargetEnd | OneCoupEnd:
    if not isinstance(raw, Mapping):
        raise table_error(place, f'expected {{"kind": "target" | "one_coup", …}}, got {shown(raw)}')
    kind = raw.get("kind")
    if kind == "target":
        return TargetEnd(target=int_field(raw, "target", place, 1))
    if kind == "one_coup":
        drop_tens = raw.get("drop_tens")
        if not isinstance(drop_tens, bool):
            raise table_error(
                at(place, "drop_tens"), f"expected true or false, got {shown(drop_tens)}"
            )
        return OneCoupEnd(
            winner_bonus=int_field(raw, "winner_bonus", place, 0),
            rubicon_below=int_field(raw, "rubicon_below", place, 0),
            rubicon_bonus=int_field(raw, "rubicon_bonus", place, 0),
            rubicon_extra=int_field(raw, "rubicon_extra", place, 0),
            drop_tens=drop_tens,
        )
    raise table_error(at(place, "kind"), f'expected "target" or "one_coup", got {shown(kind)}')


# --------------------------------------------------------------------------------------------
# Scoring


def declared(point_table: PointTable, counts: Mapping[str, int]) -> int:
    """The points of a player's declarations: Σ count × value (540 = bésigue + double bésigue)."""
    total = 0
    for code, count in counts.items():
        if code not in point_table.combinations:
            raise EngineError(
                code,
                f'"{code}" is not a combination of point table "{point_table.name}"',
                "combination_not_in_table",
                {"combination": code, "table": point_table.label},
            )
        total += count * point_table.combinations[code]
    return total


def coup_scores(point_table: PointTable, deal: Deal) -> tuple[int, ...]:
    """Every seat's coup score: declarations, brisques where they score, and the last trick."""
    scores = []
    for seat, declarations in enumerate(deal.declarations):
        score = declared(point_table, dict(declarations))
        if point_table.brisques == "score" and deal.brisques is not None:
            score += point_table.brisque * deal.brisques[seat]
        if seat == deal.last_trick:
            score += point_table.last_trick
        scores.append(score)
    return tuple(scores)


def _without_tens(points: int) -> int:
    return points - points % 100


def game_value(point_table: PointTable, deal: Deal) -> GameResult:
    """The result of a one-coup game (chinois, huit paquets, rubicon) between seats 1 and 2."""
    end = point_table.end
    if not isinstance(end, OneCoupEnd):
        raise EngineError(
            "end",
            f'point table "{point_table.name}" plays to a target, not one coup',
            "not_one_coup",
            {"table": point_table.label},
        )
    full = coup_scores(point_table, deal)
    brisques = deal.brisques or (0,) * len(full)
    saving = [
        point_table.brisque * b if point_table.brisques == "tie_break" else 0 for b in brisques
    ]
    shown = [_without_tens(p) if end.drop_tens else p for p in full]

    def strength(seat: int) -> tuple[int, int, int, bool]:
        return shown[seat], full[seat], full[seat] + saving[seat], seat == deal.last_trick

    winner = max((0, 1), key=strength)
    loser = 1 - winner
    rubicon = full[loser] + saving[loser] < end.rubicon_below
    if rubicon:
        value = shown[winner] + shown[loser] + end.rubicon_bonus + end.rubicon_extra
    else:
        value = shown[winner] - shown[loser] + end.winner_bonus
    return GameResult(winner=winner, loser=loser, value=value, rubicon=rubicon)


def score_poule(point_table: PointTable, seat_count: int, deals: Sequence[Deal]) -> PouleScore:
    """Score a poule's coups: games to the target or one game per coup, then game points."""
    if seat_count != point_table.players:
        raise EngineError(
            "seats",
            f'point table "{point_table.name}" is for {point_table.players} players, '
            f"not {seat_count}",
            "table_size",
            {"minimum": point_table.players, "maximum": point_table.players, "got": seat_count},
        )
    everyone = tuple(range(seat_count))
    game_points = [0] * seat_count
    deal_points: list[tuple[int, ...]] = []
    warnings: list[str] = []
    sides = PARTNERS if point_table.teams else tuple((seat,) for seat in everyone)
    running = [0] * len(sides)
    coups_in_game = 0
    for index, deal in enumerate(deals):
        try:
            _check_deal(point_table, deal, seat_count)
            row = list(coup_scores(point_table, deal))
        except EngineError as error:
            raise error.moved(f"deals[{index}]") from None
        if isinstance(point_table.end, OneCoupEnd):
            result = game_value(point_table, deal)
            game_points[result.winner] += result.value
            game_points[result.loser] -= result.value
        else:
            for side, members in enumerate(sides):
                running[side] += sum(row[seat] for seat in members)
            coups_in_game += 1
            winner = _target_winner(point_table.end, running, sides, deal.last_trick)
            if winner is not None:
                for side, members in enumerate(sides):
                    if side != winner:
                        value = running[winner] - running[side]
                        for seat in sides[winner]:
                            game_points[seat] += value
                        for seat in members:
                            game_points[seat] -= value
                running = [0] * len(sides)
                coups_in_game = 0
        if deal.penalties:
            add_penalties(row, deal.penalties, everyone)
            add_penalties(game_points, deal.penalties, everyone)
        deal_points.append(tuple(row))
    if coups_in_game:
        warnings.append(
            f"the last game is unfinished after {coups_in_game} coup"
            f"{'s' if coups_in_game > 1 else ''} (totals {', '.join(map(str, running))}) "
            "and is not counted"
        )
    return PouleScore(
        deal_points=tuple(deal_points),
        dealers=(None,) * len(deals),
        game_points=tuple(game_points),
        net=tuple(Fraction(p) for p in game_points),
        counted_deals=len(deals),
        counted=(True,) * len(deals),
        warnings=tuple(warnings),
    )


def _target_winner(
    end: TargetEnd, running: list[int], sides: tuple[tuple[int, ...], ...], last_trick: int
) -> int | None:
    best = max(running)
    if best < end.target:
        return None
    leaders = [side for side, total in enumerate(running) if total == best]
    if len(leaders) == 1:
        return leaders[0]
    # §4: equal totals past the target go to the winner of the last trick.
    return next((side for side in leaders if last_trick in sides[side]), None)


def _check_deal(point_table: PointTable, deal: Deal, seat_count: int) -> None:
    """The checks that need both the table and the number of players."""
    if len(deal.declarations) != seat_count or not 0 <= deal.last_trick < seat_count:
        raise EngineError(
            "",
            f"the coup does not fit a table of {seat_count} players",
            "coup_table_size",
            {"got": seat_count},
        )
    if deal.brisques is None:
        if point_table.brisques != "ignored":
            raise EngineError(
                "brisques",
                f'point table "{point_table.name}" counts brisques: give each player\'s',
                "brisques_missing",
                {"table": point_table.label},
            )
    elif sum(deal.brisques) != point_table.deck_brisques:
        raise EngineError(
            "brisques",
            f"brisques add up to {sum(deal.brisques)}, expected {point_table.deck_brisques} "
            f"({BRISQUES_PER_DECK} per deck × {point_table.decks} decks)",
            "brisques_total",
            {
                "got": sum(deal.brisques),
                "expected": point_table.deck_brisques,
                "decks": point_table.decks,
            },
        )
    totals: dict[str, int] = {}
    for declarations in deal.declarations:
        for code, count in declarations:
            totals[code] = totals.get(code, 0) + count
    limits = {"seven_of_trump": point_table.decks, "cut_guess": 1, "cut_24": 1}
    for code, limit in limits.items():
        if totals.get(code, 0) > limit:
            raise EngineError(
                "declarations",
                f"{code} declared {totals[code]} times in the coup, expected at most {limit}",
                "declared_too_often",
                {"combination": code, "got": totals[code], "maximum": limit},
            )


# --------------------------------------------------------------------------------------------
# Chouette (§4)

T = TypeVar("T")


def chouette(value: int, box_won: bool, opponents: int) -> ChouetteSettlement:
    """Settle one chouette game worth ``value`` between the box and ``opponents`` players.

    A winning box multiplies his value by the number of his opponents and each opponent pays
    it; a losing box pays the value to each opponent.
    """
    if opponents < 1:
        raise EngineError(
            "opponents",
            f"the box needs at least 1 opponent, got {opponents}",
            "chouette_opponents",
            {"got": opponents},
        )
    sign = 1 if box_won else -1
    return ChouetteSettlement(box=sign * value * opponents, each_opponent=-sign * value)


def chouette_next(order: Sequence[T], box_won: bool) -> tuple[T, ...]:
    """The order of the next game: ``(box, captain, first adviser, …)``.

    The box keeps his place when he wins and the captain goes behind the last adviser; when the
    box loses, the captain takes the box, the first adviser becomes captain and the old box
    becomes the last adviser (seed: Pierre, Jean, Jacques, Paul → Jean, Jacques, Paul, Pierre).
    """
    if len(order) < 2:
        raise EngineError(
            "order",
            f"a chouette needs at least 2 players, got {len(order)}",
            "chouette_players",
            {"got": len(order)},
        )
    box, captain, *advisers = order
    if box_won:
        return (box, *advisers, captain)
    return (captain, *advisers, box)


# --------------------------------------------------------------------------------------------
# The club-night file


def parse_deal(
    point_table: PointTable,
    raw: Any,
    seats: Sequence[str],
    place: str,
    problems: list[EngineError],
) -> Deal | None:
    """Check one coup of the club-night file; append located problems, return it or None.

    ``{"declarations": {name: {code: count}}, "brisques": {name: count}, "last_trick": name,
    "penalties": [...]}`` — a player left out declared nothing / took no brisque.
    """
    found = len(problems)
    if not isinstance(raw, Mapping):
        problems.append(
            EngineError(
                place,
                f"a deal must be an object, got {shown(raw)}",
                "deal_not_object",
                {"got": shown(raw)},
            )
        )
        return None
    declarations = _parse_declarations(
        point_table, raw.get("declarations"), seats, at(place, "declarations"), problems
    )
    brisques = None
    raw_brisques = raw.get("brisques")
    if raw_brisques is not None or point_table.brisques != "ignored":
        brisques = _parse_brisques(
            point_table, raw_brisques, seats, at(place, "brisques"), problems
        )
    last_trick = raw.get("last_trick")
    if last_trick not in seats:
        got = "nothing" if last_trick is None else f"{shown(last_trick)}, who is not at this table"
        problems.append(
            EngineError(
                at(place, "last_trick"),
                f"expected the player who won the last trick, got {got}",
                "last_trick_missing" if last_trick is None else "last_trick_not_at_table",
                {"player": last_trick},
            )
        )
    penalties = parse_penalties(raw.get("penalties"), seats, place, problems)
    if len(problems) != found or declarations is None:
        return None
    deal = Deal(
        declarations=declarations,
        brisques=brisques,
        last_trick=seats.index(last_trick),
        penalties=penalties,
    )
    if len(seats) == point_table.players:
        try:
            _check_deal(point_table, deal, len(seats))
        except EngineError as error:
            problems.append(error.moved(place))
            return None
    return deal


def _parse_declarations(
    point_table: PointTable,
    raw: Any,
    seats: Sequence[str],
    place: str,
    problems: list[EngineError],
) -> tuple[tuple[tuple[str, int], ...], ...] | None:
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        problems.append(
            EngineError(
                place,
                f"expected an object player name → {{combination: count}}, got {shown(raw)}",
                "declarations_shape",
                {"got": shown(raw)},
            )
        )
        return None
    found = len(problems)
    per_seat: list[tuple[tuple[str, int], ...]] = [()] * len(seats)
    for name, counts in raw.items():
        name_place = at(place, name)
        if name not in seats:
            problems.append(not_at_table(place, name))
            continue
        if not isinstance(counts, Mapping):
            problems.append(
                EngineError(
                    name_place,
                    f"expected an object combination code → count, got {shown(counts)}",
                    "declarations_shape",
                    {"got": shown(counts)},
                )
            )
            continue
        pairs = []
        for code, count in counts.items():
            if code not in point_table.combinations:
                problems.append(
                    EngineError(
                        at(name_place, code),
                        f'not a combination of point table "{point_table.name}"; '
                        f"expected one of {', '.join(point_table.combinations)}",
                        "combination_not_in_table",
                        {"combination": code, "table": point_table.label},
                    )
                )
            elif not is_int(count) or count < 0:
                problems.append(
                    EngineError(
                        at(name_place, code),
                        f"expected a non-negative integer, got {shown(count)}",
                        "expected_non_negative",
                        {"got": shown(count)},
                    )
                )
            elif count > MAX_COUNT:
                problems.append(
                    EngineError(
                        at(name_place, code),
                        f"expected at most {MAX_COUNT}, got {count}",
                        "too_large",
                        {"maximum": MAX_COUNT, "got": count},
                    )
                )
            elif count:
                pairs.append((code, count))
        per_seat[seats.index(name)] = tuple(pairs)
    return tuple(per_seat) if len(problems) == found else None


def _parse_brisques(
    point_table: PointTable,
    raw: Any,
    seats: Sequence[str],
    place: str,
    problems: list[EngineError],
) -> tuple[int, ...] | None:
    if not isinstance(raw, Mapping):
        problems.append(
            EngineError(
                place,
                f"expected an object player name → brisques taken "
                f"({point_table.deck_brisques} in all), got {shown(raw)}",
                "brisques_shape",
                {"expected": point_table.deck_brisques, "got": shown(raw)},
            )
        )
        return None
    found = len(problems)
    brisques = [0] * len(seats)
    for name, count in raw.items():
        if name not in seats:
            problems.append(not_at_table(place, name))
        elif not is_int(count) or not 0 <= count <= point_table.deck_brisques:
            problems.append(
                EngineError(
                    at(place, name),
                    f"expected 0 … {point_table.deck_brisques} brisques, got {shown(count)}",
                    "brisques_outside",
                    {"player": name, "maximum": point_table.deck_brisques, "got": shown(count)},
                )
            )
        else:
            brisques[seats.index(name)] = count
    return tuple(brisques) if len(problems) == found else None
