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

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..base import PouleScore, add_penalties
from ..errors import EngineError, at
from .whist_deals import DEAL_KEYS, parse_deal
from .whist_rules import (
    BOOK,
    GAME,
    PARTIE_ENDS,
    PARTIE_VALUES,
    ROTATION,
    SEATS,
    TRICKS,
    Deal,
    FicheStep,
    PointTable,
    Team,
    load_table,
    no_chante_error,
    table_size_error,
    team_numbers,
    team_seats,
)

__all__ = [
    "BOOK",
    "DEAL_KEYS",
    "GAME",
    "PARTIE_ENDS",
    "PARTIE_VALUES",
    "ROTATION",
    "SEATS",
    "TRICKS",
    "Deal",
    "FicheStep",
    "PointTable",
    "Team",
    "load_table",
    "parse_deal",
]

PLAYERS = range(4, 5)
# The game's facts, read by the site through the game registry (games/__init__.py).
LOWER_IS_BETTER = False
RECORDS_DEALER = False
MORT_AT = None  # nobody sits out a deal
FIXED_DEALS_PER_POULE = False


# --------------------------------------------------------------------------------------------
# Scoring


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
            raise no_chante_error("not_played", point_table)
        if before[honour_team] != point_table.chante_at:
            raise EngineError(
                "not_played",
                f"je chante needs the honours team at {point_table.chante_at} points, "
                f"seats {team_seats(deal.teams[honour_team])} have {before[honour_team]}",
                "chante_score",
                {
                    "expected": point_table.chante_at,
                    "team": team_numbers(deal.teams[honour_team]),
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
        raise table_size_error("seats", seat_count)
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
            f"partie {len(played.parties)} (seats {team_seats(last.teams[0])} vs "
            f"{team_seats(last.teams[1])}) is unfinished after the last deal and is not counted"
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
                f"the teams are seats {team_seats(deal.teams[0])} vs "
                f"{team_seats(deal.teams[1])}, but "
                f"partie {len(parties)} of the partie générale is played by seats "
                f"{team_seats(partie.teams[0])} vs {team_seats(partie.teams[1])}",
                "teams_out_of_turn",
                {
                    "team": team_numbers(deal.teams[0]),
                    "other": team_numbers(deal.teams[1]),
                    "partie": len(parties),
                    "expected_team": team_numbers(partie.teams[0]),
                    "expected_other": team_numbers(partie.teams[1]),
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
