"""Classic whist (partnership whist) — scoring-rules.md §2, seed 000.

Four players in two partnerships. Per deal the scorer records the tricks of one team, the team
that held 3 or 4 trump honours (where the table counts them) and the uncorrected revokes; the
engine turns that into points toward the partie, and the parties into game points.

Decisions where the spec is silent:

- A poule is a partie générale: three parties played by the partnerships seats 1+3 vs 2+4,
  1+2 vs 3+4, 1+4 vs 2+3, in that order. Every deal names its teams, and a deal whose teams break
  this order is refused; so is a deal recorded once the third partie is finished (§2).
- A manche ends at the end of the deal in which a team reaches the target. Points beyond the
  target stay in that manche (8 vs 5 is worth 3) and nothing carries over: the next manche starts
  at 0–0. A partie ends when a team has won ``manches`` manches (``partie_ends: "won"``: whist7)
  or when ``manches`` manches have been played (``"played"``: partie simple 1). With ``robres``
  (partie simple 2: robre10, robre5) a robre goes to the first team to win ``manches`` manches
  (grand robre 2–0, petit robre 2–1) and the partie to the first to win ``robres`` robres
  ("deux ou trois robres").
- Value of a partie, per player: ``difference`` — per manche, winner total − loser total;
  ``fiches`` — per manche, the winners' fiches by the losers' points, plus the partie bonus for
  the team that won the partie: more manches, or more robres (at 1–1 in a partie simple 1
  nobody gets it). A robre itself brings no fiches beyond its manches'. Winners get
  +value each and losers −value each, so game points are zero-sum.
- A partie still going when the poule's deals run out is not counted (a warning says so).
- Deal points: every player gets what his team scored toward the partie in that deal (tricks,
  then honours), so both partners show the same number; penalties are added to the deal's points
  and to game points alike.
- Tricks come before honours: when the tricks end the manche, the other team's honours are not
  scored (the manche is over).
- A revoke transfers ``revoke_tricks`` tricks per revoke, but never more tricks than the
  offending team took. The offending team scores nothing in that deal — neither tricks nor
  honours — so its total stays below the target, as §2 requires.
- "Je chante" (a deal recorded as ``not_played``): allowed only where the table has
  ``chante_at``; the honours team must have exactly ``chante_at`` points before the deal.
- Whist records no dealer: ``PouleScore.dealers`` is ``None`` for every deal (the seed offers two
  conventions for the succession of dealers and the scoring needs neither).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

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

GAME = "whist"
PLAYERS = range(4, 5)
# The game's facts, read by the site through the game registry (games/__init__.py).
LOWER_IS_BETTER = False
RECORDS_DEALER = False
MORT_AT = None  # nobody sits out a deal
FIXED_DEALS_PER_POULE = False
SEATS = 4
TRICKS = 13
BOOK = 6  # "le Devoir": the first six tricks of a team score nothing

Team = tuple[int, int]
# §2 partie générale: the partnerships of parties 1, 2, 3 (seat indexes, seat 1 = index 0).
ROTATION: tuple[tuple[Team, Team], ...] = (((0, 2), (1, 3)), ((0, 1), (2, 3)), ((0, 3), (1, 2)))
PARTIE_ENDS = ("won", "played")
PARTIE_VALUES = ("difference", "fiches")


@dataclass(frozen=True, slots=True)
class FicheStep:
    """Per manche won, each winner gets ``fiches`` when the losers have ``losers_from`` or more."""

    losers_from: int
    fiches: int


@dataclass(frozen=True, slots=True)
class PointTable:
    name: str
    label: str
    trick_value: int
    honours: tuple[int, int] | None  # points for 3 and for 4 trump honours; None: not counted
    target: int
    manches: int
    partie_ends: str
    partie_value: str
    fiches: tuple[FicheStep, ...] = ()
    partie_bonus: int = 0
    chante_at: int | None = None
    revoke_tricks: int = 2
    robres: int | None = None  # partie simple 2: robres a team must win to win the partie
    game: str = GAME


@dataclass(frozen=True, slots=True)
class Deal:
    """A deal as recorded; players are seat indexes (0 = seat 1).

    ``teams`` — the two partnerships, the one holding seat 1 first; every per-team pair below
    follows that order. ``tricks`` is ``None`` for a deal not played ("je chante").
    """

    teams: tuple[Team, Team]
    tricks: tuple[int, int] | None
    honours: tuple[int, int] = (0, 0)
    revokes: tuple[int, int] = (0, 0)
    not_played: bool = False
    penalties: tuple[Penalty, ...] = ()


# --------------------------------------------------------------------------------------------
# Point tables


def _choice(data: Mapping[str, Any], key: str, place: str, choices: tuple[str, ...]) -> str:
    value = data.get(key)
    if value not in choices:
        wanted = " or ".join(f'"{c}"' for c in choices)
        raise table_error(at(place, key), f"expected {wanted}, got {shown(value)}")
    return value


def load_table(data: Mapping[str, Any], place: str = "") -> PointTable:
    """Validate a classic whist point table and return it frozen.

    Shape::

        {"format": "point-table/1", "game": "whist", "name": "simple10", "label": "…",
         "trick_value": 2,                    # points per trick over six
         "honours": {"three": 2, "four": 4},  # or null where honours are not counted
         "target": 10,                        # points that end a manche
         "manches": 2, "partie_ends": "played" | "won",
         "partie_value": "difference" | "fiches",
         "fiches": {"per_manche": [{"losers_from": 0, "fiches": 3},
                                   {"losers_from": 1, "fiches": 2},
                                   {"losers_from": 5, "fiches": 1}],
                    "partie_bonus": 4},       # required when partie_value is "fiches"
         "chante_at": 8,                      # or null: no "je chante"
         "revoke_tricks": 2,
         "robres": 2}                         # optional, partie simple 2 (partie_ends "won")
    """
    name, label = table_header(data, place, GAME)
    target = int_field(data, "target", place, 1)
    honours = _load_honours(data.get("honours"), at(place, "honours"))
    partie_value = _choice(data, "partie_value", place, PARTIE_VALUES)
    fiches: tuple[FicheStep, ...] = ()
    partie_bonus = 0
    if partie_value == "fiches":
        fiches, partie_bonus = _load_fiches(data.get("fiches"), at(place, "fiches"))
    chante_at = data.get("chante_at")
    if chante_at is not None:
        chante_at = int_field(data, "chante_at", place, 0)
        if honours is None:
            raise table_error(
                at(place, "chante_at"), "je chante needs honours: set honours or null"
            )
        if not chante_at < target <= chante_at + honours[0]:
            raise table_error(
                at(place, "chante_at"),
                f"expected a score below the target {target} from which 3 honours "
                f"({honours[0]} points) reach it, got {chante_at}",
            )
    return PointTable(
        name=name,
        label=label,
        trick_value=int_field(data, "trick_value", place, 1),
        honours=honours,
        target=target,
        manches=int_field(data, "manches", place, 1),
        partie_ends=_choice(data, "partie_ends", place, PARTIE_ENDS),
        partie_value=partie_value,
        fiches=fiches,
        partie_bonus=partie_bonus,
        chante_at=chante_at,
        revoke_tricks=int_field(data, "revoke_tricks", place, 0),
        robres=_load_robres(data, place),
    )


def _load_robres(data: Mapping[str, Any], place: str) -> int | None:
    """``robres``: a partie is won by the first team to win this many robres, a robre by the
    first to win ``manches`` manches (partie simple 2). Absent or null: no robres."""
    if data.get("robres") is None:
        return None
    robres = int_field(data, "robres", place, 1)
    if data.get("partie_ends") != "won":
        raise table_error(
            at(place, "robres"), 'robres are won, not played: set "partie_ends" to "won"'
        )
    return robres


def _load_honours(raw: Any, place: str) -> tuple[int, int] | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise table_error(
            place, f'expected {{"three": points, "four": points}} or null, got {shown(raw)}'
        )
    return int_field(raw, "three", place, 0), int_field(raw, "four", place, 0)


def _load_fiches(raw: Any, place: str) -> tuple[tuple[FicheStep, ...], int]:
    if not isinstance(raw, Mapping):
        raise table_error(
            place, f'expected {{"per_manche": [...], "partie_bonus": n}}, got {shown(raw)}'
        )
    steps = raw.get("per_manche")
    if not isinstance(steps, list) or not steps:
        raise table_error(
            at(place, "per_manche"), f"expected a non-empty list of steps, got {shown(steps)}"
        )
    loaded: list[FicheStep] = []
    for index, step in enumerate(steps):
        step_place = at(at(place, "per_manche"), index)
        if not isinstance(step, Mapping):
            raise table_error(
                step_place, f'expected {{"losers_from": n, "fiches": n}}, got {shown(step)}'
            )
        losers_from = int_field(step, "losers_from", step_place, 0)
        if loaded and losers_from <= loaded[-1].losers_from:
            raise table_error(
                at(step_place, "losers_from"),
                f"expected more than {loaded[-1].losers_from} (steps go up), got {losers_from}",
            )
        if not loaded and losers_from != 0:
            raise table_error(
                at(step_place, "losers_from"), f"the first step starts at 0, got {losers_from}"
            )
        loaded.append(FicheStep(losers_from, int_field(step, "fiches", step_place, 0)))
    return tuple(loaded), int_field(raw, "partie_bonus", place, 0)


# --------------------------------------------------------------------------------------------
# Scoring


def _seats(team: Team) -> str:
    return f"{team[0] + 1} + {team[1] + 1}"


def _numbers(team: Team) -> list[int]:
    """A team's seat numbers (from 1), for an error's parameters."""
    return [team[0] + 1, team[1] + 1]


def _table_size(place: str, seat_count: int) -> EngineError:
    return EngineError(
        place,
        f"whist is played by 4 players, not {seat_count}",
        "table_size",
        {"minimum": SEATS, "maximum": SEATS, "got": seat_count},
    )


def _no_chante(place: str, point_table: PointTable) -> EngineError:
    return EngineError(
        place,
        f'point table "{point_table.name}" has no "je chante"',
        "chante_not_in_table",
        {"table": point_table.label},
    )


def trick_points(point_table: PointTable, tricks: int) -> int:
    """What a team's tricks are worth: ``trick_value`` per trick over the six of "le Devoir"."""
    return point_table.trick_value * max(0, tricks - BOOK)


def manche_fiches(point_table: PointTable, loser_points: int) -> int:
    """The fiches each winner of a manche gets, by the losers' points (``fiches`` tables)."""
    fiches = 0
    for step in point_table.fiches:
        if loser_points >= step.losers_from:
            fiches = step.fiches
    return fiches


def score_deal(
    point_table: PointTable, deal: Deal, before: tuple[int, int] = (0, 0)
) -> tuple[int, int]:
    """The points each team (in ``deal.teams`` order) scores toward the partie in this deal.

    ``before`` is the manche's score before the deal: "je chante" depends on it, and so does
    whether the honours still count (not once the tricks have ended the manche).
    """
    honour_team = 0 if deal.honours[0] else 1 if deal.honours[1] else None
    if deal.not_played:
        if point_table.chante_at is None or point_table.honours is None or honour_team is None:
            raise _no_chante("not_played", point_table)
        if before[honour_team] != point_table.chante_at:
            raise EngineError(
                "not_played",
                f"je chante needs the honours team at {point_table.chante_at} points, "
                f"seats {_seats(deal.teams[honour_team])} have {before[honour_team]}",
                "chante_score",
                {
                    "expected": point_table.chante_at,
                    "team": _numbers(deal.teams[honour_team]),
                    "got": before[honour_team],
                },
            )
        points = [0, 0]
        points[honour_team] = _honour_points(point_table, deal.honours[honour_team])
        return points[0], points[1]
    if deal.tricks is None:
        raise EngineError("tricks", "a played deal needs the tricks of a team", "tricks_missing")
    if deal.revokes[0] and deal.revokes[1]:
        return 0, 0  # §2: both teams revoked — the deal is void
    tricks = list(deal.tricks)
    offender = 0 if deal.revokes[0] else 1 if deal.revokes[1] else None
    if offender is not None:
        moved = min(point_table.revoke_tricks * deal.revokes[offender], tricks[offender])
        tricks[offender] -= moved
        tricks[1 - offender] += moved
    points = [trick_points(point_table, t) for t in tricks]
    if offender is not None:
        points[offender] = 0
    ended = any(before[i] + points[i] >= point_table.target for i in (0, 1))
    if honour_team is not None and honour_team != offender and not ended:
        points[honour_team] += _honour_points(point_table, deal.honours[honour_team])
    return points[0], points[1]


def _honour_points(point_table: PointTable, count: int) -> int:
    if point_table.honours is None:
        return 0
    return point_table.honours[0] if count == 3 else point_table.honours[1]


def score_poule(point_table: PointTable, seat_count: int, deals: Sequence[Deal]) -> PouleScore:
    """Score a poule: the parties of the partie générale in turn, then each player's game points.

    Raises ``EngineError`` at ``deals[i].tricks.team`` (or ``honours.team``) when a deal's teams
    do not follow the rotation, at ``deals[i].not_played`` for a "je chante" out of place, and
    at ``deals[i]`` for a deal recorded after the third partie (the partie générale is over).
    """
    if seat_count != SEATS:
        raise _table_size("seats", seat_count)
    played = _play(point_table, deals)
    game_points = [0] * SEATS
    for partie in played.parties:
        if partie.over:
            for team, value in zip(partie.teams, (partie.value, -partie.value), strict=True):
                for seat in team:
                    game_points[seat] += value
    deal_points: list[tuple[int, ...]] = []
    everyone = tuple(range(SEATS))
    for deal, (teams, points) in zip(deals, played.deal_points, strict=True):
        row = [0] * SEATS
        for team, p in zip(teams, points, strict=True):
            for seat in team:
                row[seat] = p
        if deal.penalties:
            add_penalties(row, deal.penalties, everyone)
            add_penalties(game_points, deal.penalties, everyone)
        deal_points.append(tuple(row))
    warnings = []
    last = played.parties[-1] if played.parties else None
    if last is not None and not last.over:
        warnings.append(
            f"partie {len(played.parties)} (seats {_seats(last.teams[0])} vs "
            f"{_seats(last.teams[1])}) is unfinished after the last deal and is not counted"
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


@dataclass(frozen=True, slots=True)
class PartieProgress:
    """One partie of the partie générale after the deals so far (see ``poule_progress``).

    Pairs follow ``teams``: the partnership holding seat 1 first. Seats are indexes (0 = seat 1).
    """

    number: int  # 1, 2, 3: its place in the partie générale
    teams: tuple[Team, Team]
    score: tuple[int, int]  # the manche being played (0–0 once the partie is over)
    manches: tuple[int, int]  # manches won in the partie
    robres: tuple[int, int] | None  # robres won (robre tables: robre10, robre5), else None
    robre_manches: tuple[int, int] | None  # manches won in the robre being played, else None
    finished: bool
    winner: int | None  # 0 or 1 (an index into ``teams``) once finished; None at a 1–1 draw
    value: int  # what the first team has won so far (fiches or points); the second, its opposite


@dataclass(frozen=True, slots=True)
class PouleProgress:
    """A classic whist poule after its deals: its parties so far and the one being played."""

    parties: tuple[PartieProgress, ...]
    current: int | None  # index in ``parties`` of the partie the next deal belongs to; None: over
    over: bool  # the three parties of the partie générale are finished


def poule_progress(point_table: PointTable, deals: Sequence[Deal]) -> PouleProgress:
    """Where a classic whist poule stands after ``deals`` (parsed ``Deal``\\s in playing order),
    for the score sheet: per partie of the partie générale, its teams, the manche being played,
    the manches and (robre tables) the robres each team won, whether it is finished and by whom;
    and which partie the next deal belongs to.

    A partie not yet started (no deal) is listed once the previous one is finished, as the
    current one: the sheet shows 0–0 for it. Raises ``EngineError`` like ``score_poule`` for
    deals that cannot be scored. A site holding the deals as the club-night file writes them
    (players named by seat, "1" … "4") parses them first with ``night.parse_poule_deals``.
    """
    played = _play(point_table, deals)
    parties = [partie.progress(number) for number, partie in enumerate(played.parties, start=1)]
    if parties and parties[-1].finished and len(parties) < len(ROTATION):
        parties.append(_Partie(point_table, ROTATION[len(parties)]).progress(len(parties) + 1))
    if not parties:
        parties.append(_Partie(point_table, ROTATION[0]).progress(1))
    over = len(parties) == len(ROTATION) and parties[-1].finished
    return PouleProgress(
        parties=tuple(parties), current=None if over else len(parties) - 1, over=over
    )


@dataclass(frozen=True, slots=True)
class _Played:
    parties: tuple[_Partie, ...]
    deal_points: tuple[tuple[tuple[Team, Team], tuple[int, int]], ...]  # per deal: teams, points


def _play(point_table: PointTable, deals: Sequence[Deal]) -> _Played:
    """Play the deals through the partie générale: the parties (the last maybe unfinished) and
    each deal's teams and points toward its partie."""
    parties: list[_Partie] = []
    deal_points = []
    partie: _Partie | None = None
    for index, deal in enumerate(deals):
        place = f"deals[{index}]"
        if partie is None or partie.over:
            if len(parties) == len(ROTATION):
                raise EngineError(
                    place,
                    f"the partie générale is over: its {len(ROTATION)} parties are finished",
                    "partie_generale_over",
                    {"parties": len(ROTATION)},
                )
            partie = _Partie(point_table, ROTATION[len(parties)])
            parties.append(partie)
        if deal.teams != partie.teams:
            field = "honours.team" if deal.not_played else "tricks.team"
            raise EngineError(
                at(place, field),
                f"the teams are seats {_seats(deal.teams[0])} vs {_seats(deal.teams[1])}, but "
                f"partie {len(parties)} of the partie générale is played by seats "
                f"{_seats(partie.teams[0])} vs {_seats(partie.teams[1])}",
                "teams_out_of_turn",
                {
                    "team": _numbers(deal.teams[0]),
                    "other": _numbers(deal.teams[1]),
                    "partie": len(parties),
                    "expected_team": _numbers(partie.teams[0]),
                    "expected_other": _numbers(partie.teams[1]),
                },
            )
        try:
            points = score_deal(point_table, deal, partie.score)
        except EngineError as error:
            raise error.moved(place) from None
        partie.add(points)
        deal_points.append((partie.teams, points))
    return _Played(tuple(parties), tuple(deal_points))


class _Partie:
    """The running score of one partie (private, mutable working state of ``_play``)."""

    def __init__(self, point_table: PointTable, teams: tuple[Team, Team]) -> None:
        self.point_table = point_table
        self.teams = teams
        self.score = (0, 0)  # the current manche
        self.won = [0, 0]  # manches won in the partie
        self.robre = [0, 0]  # manches won in the current robre (robre tables)
        self.robres = [0, 0]  # robres won (robre tables)
        self.played = 0
        self.value = 0  # the first team's result so far; the second team's is its opposite
        self.over = False

    def add(self, points: tuple[int, int]) -> None:
        """Add a deal's points; ``over`` turns true with the deal that ends the partie."""
        table = self.point_table
        self.score = (self.score[0] + points[0], self.score[1] + points[1])
        winner = (
            0 if self.score[0] >= table.target else 1 if self.score[1] >= table.target else None
        )
        if winner is None:
            return
        win, lose = self.score[winner], self.score[1 - winner]
        gain = manche_fiches(table, lose) if table.partie_value == "fiches" else win - lose
        self.value += gain if winner == 0 else -gain
        self.won[winner] += 1
        self.played += 1
        self.score = (0, 0)
        if table.robres is not None:
            # Partie simple 2: a robre goes to the first team to win ``manches`` manches (grand
            # robre 2–0, petit robre 2–1); the partie to the first to win ``robres`` robres.
            self.robre[winner] += 1
            if self.robre[winner] >= table.manches:
                self.robres[winner] += 1
                self.robre = [0, 0]
            self.over = self.robres[winner] >= table.robres
            leader = self.robres
        elif table.partie_ends == "won":
            self.over = self.won[winner] >= table.manches
            leader = self.won
        else:
            self.over = self.played >= table.manches
            leader = self.won
        if self.over and table.partie_value == "fiches" and leader[0] != leader[1]:
            bonus = table.partie_bonus
            self.value += bonus if leader[0] > leader[1] else -bonus

    def winner(self) -> int | None:
        if not self.over:
            return None
        leader = self.robres if self.point_table.robres is not None else self.won
        return None if leader[0] == leader[1] else 0 if leader[0] > leader[1] else 1

    def progress(self, number: int) -> PartieProgress:
        robres = self.point_table.robres is not None
        return PartieProgress(
            number=number,
            teams=self.teams,
            score=self.score,
            manches=(self.won[0], self.won[1]),
            robres=(self.robres[0], self.robres[1]) if robres else None,
            robre_manches=(self.robre[0], self.robre[1]) if robres else None,
            finished=self.over,
            winner=self.winner(),
            value=self.value,
        )


# --------------------------------------------------------------------------------------------
# The club-night file


def _names(team: Team, seats: Sequence[str]) -> str:
    return f"{seats[team[0]]} + {seats[team[1]]}"


def _team(raw: Any, seats: Sequence[str], place: str, problems: list[EngineError]) -> Team | None:
    if not isinstance(raw, list) or len(raw) != 2:
        problems.append(
            EngineError(
                place,
                f"expected a list of 2 player names, got {shown(raw)}",
                "team_shape",
                {"got": shown(raw)},
            )
        )
        return None
    found = len(problems)
    for name in raw:
        if name not in seats:
            problems.append(not_at_table(place, name))
    if len(problems) != found:
        return None
    if raw[0] == raw[1]:
        problems.append(
            EngineError(
                place,
                f"{shown(raw[0])} is named twice, expected two partners",
                "team_player_twice",
                {"player": raw[0]},
            )
        )
        return None
    first, second = sorted(seats.index(name) for name in raw)
    return first, second


def _partition(team: Team) -> tuple[Team, Team]:
    rest = tuple(s for s in range(SEATS) if s not in team)
    other: Team = (rest[0], rest[1])
    return (team, other) if 0 in team else (other, team)


def _side(
    team: Team,
    teams: tuple[Team, Team],
    seats: Sequence[str],
    place: str,
    problems: list[EngineError],
) -> int | None:
    if team in teams:
        return teams.index(team)
    problems.append(
        EngineError(
            place,
            f"{_names(team, seats)} is not a team of this deal, expected "
            f"{_names(teams[0], seats)} or {_names(teams[1], seats)}",
            "not_a_team",
            {
                "players": [seats[s] for s in team],
                "team": _numbers(teams[0]),
                "other": _numbers(teams[1]),
            },
        )
    )
    return None


def parse_deal(
    point_table: PointTable,
    raw: Any,
    seats: Sequence[str],
    place: str,
    problems: list[EngineError],
) -> Deal | None:
    """Check one whist deal of the club-night file; append located problems, return it or None.

    ``{"tricks": {"team": [name, name], "tricks": 9}, "honours": {"team": [...], "count": 4},
    "revokes": [{"team": [...], "count": 1}], "not_played": false, "penalties": [...]}``.
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
    if len(seats) != SEATS:
        problems.append(_table_size(place, len(seats)))
        return None
    not_played = raw.get("not_played", False)
    if not isinstance(not_played, bool):
        problems.append(
            EngineError(
                at(place, "not_played"),
                f"expected true or false, got {shown(not_played)}",
                "expected_true_or_false",
                {"got": shown(not_played)},
            )
        )
        return None
    penalties = parse_penalties(raw.get("penalties"), seats, place, problems)

    teams: tuple[Team, Team] | None = None
    tricks: tuple[int, int] | None = None
    if not_played:
        for key in ("tricks", "revokes"):
            if raw.get(key) is not None:
                problems.append(
                    EngineError(
                        at(place, key),
                        'a deal not played ("je chante") records honours only',
                        "chante_honours_only",
                    )
                )
        if point_table.chante_at is None:
            problems.append(_no_chante(at(place, "not_played"), point_table))
        if raw.get("honours") is None:
            problems.append(
                EngineError(
                    at(place, "honours"),
                    'a deal not played ("je chante") needs the honours',
                    "chante_needs_honours",
                )
            )
    else:
        teams, tricks = _parse_tricks(raw.get("tricks"), seats, at(place, "tricks"), problems)

    honours = (0, 0)
    raw_honours = raw.get("honours")
    if raw_honours is not None:
        hplace = at(place, "honours")
        if point_table.honours is None:
            problems.append(
                EngineError(
                    hplace,
                    f'point table "{point_table.name}" does not count honours',
                    "honours_not_counted",
                    {"table": point_table.label},
                )
            )
        elif not isinstance(raw_honours, Mapping):
            problems.append(
                EngineError(
                    hplace,
                    f'expected {{"team": [name, name], "count": 3 or 4}}, got {shown(raw_honours)}',
                    "honours_shape",
                    {"got": shown(raw_honours)},
                )
            )
        else:
            team = _team(raw_honours.get("team"), seats, at(hplace, "team"), problems)
            count = raw_honours.get("count")
            if count not in (3, 4) or not is_int(count):
                problems.append(
                    EngineError(
                        at(hplace, "count"),
                        f"expected 3 or 4 trump honours, got {shown(count)}",
                        "honours_count",
                        {"got": shown(count)},
                    )
                )
            elif team is not None:
                if teams is None and not_played:
                    teams = _partition(team)
                side = _side(team, teams, seats, at(hplace, "team"), problems) if teams else None
                if side is not None:
                    honours = (count, 0) if side == 0 else (0, count)

    revokes = [0, 0]
    raw_revokes = raw.get("revokes")
    if raw_revokes is not None and not not_played:
        rplace = at(place, "revokes")
        if not isinstance(raw_revokes, list):
            problems.append(
                EngineError(
                    rplace,
                    f'expected a list of {{"team": [name, name], "count": n}}, '
                    f"got {shown(raw_revokes)}",
                    "revokes_shape",
                    {"got": shown(raw_revokes)},
                )
            )
        else:
            for index, item in enumerate(raw_revokes):
                iplace = at(rplace, index)
                if not isinstance(item, Mapping):
                    problems.append(
                        EngineError(
                            iplace,
                            f'expected {{"team": [name, name], "count": n}}, got {shown(item)}',
                            "revokes_shape",
                            {"got": shown(item)},
                        )
                    )
                    continue
                team = _team(item.get("team"), seats, at(iplace, "team"), problems)
                count = item.get("count")
                if not is_int(count) or count < 1:
                    problems.append(
                        EngineError(
                            at(iplace, "count"),
                            f"expected an integer ≥ 1, got {shown(count)}",
                            "revokes_count",
                            {"got": shown(count)},
                        )
                    )
                    continue
                if count > MAX_COUNT:
                    problems.append(
                        EngineError(
                            at(iplace, "count"),
                            f"expected at most {MAX_COUNT}, got {count}",
                            "too_large",
                            {"maximum": MAX_COUNT, "got": count},
                        )
                    )
                    continue
                if team is None or teams is None:
                    continue
                side = _side(team, teams, seats, at(iplace, "team"), problems)
                if side is not None and revokes[side]:
                    problems.append(
                        EngineError(
                            at(iplace, "team"),
                            f"{_names(team, seats)} already has a revokes entry",
                            "revokes_twice",
                            {"players": [seats[s] for s in team]},
                        )
                    )
                elif side is not None:
                    revokes[side] = count

    if len(problems) != found or teams is None:
        return None
    return Deal(
        teams=teams,
        tricks=tricks,
        honours=honours,
        revokes=(revokes[0], revokes[1]),
        not_played=not_played,
        penalties=penalties,
    )


def _parse_tricks(
    raw: Any, seats: Sequence[str], place: str, problems: list[EngineError]
) -> tuple[tuple[Team, Team] | None, tuple[int, int] | None]:
    if not isinstance(raw, Mapping):
        problems.append(
            EngineError(
                place,
                f'expected {{"team": [name, name], "tricks": 0 … 13}}, got {shown(raw)}',
                "team_tricks_shape",
                {"got": shown(raw)},
            )
        )
        return None, None
    team = _team(raw.get("team"), seats, at(place, "team"), problems)
    count = raw.get("tricks")
    if not is_int(count) or not 0 <= count <= TRICKS:
        problems.append(
            EngineError(
                at(place, "tricks"),
                f"expected the team's tricks, 0 … 13, got {shown(count)}",
                "team_tricks_outside",
                {"got": shown(count)},
            )
        )
        return None, None
    if team is None:
        return None, None
    teams = _partition(team)
    tricks = (count, TRICKS - count) if teams[0] == team else (TRICKS - count, count)
    return teams, tricks
