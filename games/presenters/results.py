"""The results page's rounds and standings as plain data: every poule with its players, deals,
totals and standings, and the night's standings, each player named as the page's reader may
see him (``club.names``).

A 40-player night has hundreds of deals and thousands of numbers: the values come ready to
show (the sheet's numbers and marks, as on the phone; each column's header), so that the
long tables' template (``jinja2/games/poule_tables.html``) only writes them out.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

from django.db.models import CharField, F, FilteredRelation, Q, TextField
from django.db.models.functions import Cast

from club.exports import SignForReaders, Text
from club.models import Player
from club.name_order import by_name
from club.names import NameReader, name_shown
from scoring.fields import fraction_of
from scoring.models import TournamentStanding

from ..models import Deal, Seat, Tournament
from .sheet import deal_lines

# A deal's line on the results page: counted (False: everybody passed, greyed), the sheet's
# number ("–" for a pass, as on the phone), short code, what was played in words, and each
# seat's cell (its css classes: the dealer's and the mort's marks; its points or "–").
ResultsDeal = tuple[bool, "int | str", str, str, list[tuple[str, "int | str"]]]

# A line of a poule's standings: rank, tied, the player's name, game points, tournament
# points.
PouleStandingLine = tuple[int, bool, str, int, Fraction]


@dataclass(frozen=True, slots=True)
class PouleResults:
    """One poule of the results page: its table, deals counted, players by seat number (the
    names this reader sees), the sheet's column headers (each name and what the header
    shows), deals, totals per seat and standings (none before its first deal)."""

    table: int
    counted_deals: int
    seated: dict[int, str]
    columns: list[tuple[str, str]]
    deals: list[ResultsDeal]
    totals: list[int]
    standings: list[PouleStandingLine]


@dataclass(frozen=True, slots=True)
class RoundResults:
    number: int
    poules: list[PouleResults]


class NightStandingLine(NamedTuple):
    """A line of the night's standings: rank (and tied), the player (his id, for his page, and
    his name as this reader sees it), tournament points, game points, poules won and
    played."""

    rank: int
    tied: bool
    player_id: int
    name: str
    points: Fraction
    game_points: int
    won: int
    played: int


def results_rounds(tournament: Tournament, reader: NameReader) -> list[RoundResults]:
    """Every round's poules with their seats, deals (described, points per seat), totals and
    standings, each player named as ``reader`` reads him. Two queries whatever the size of the
    night (and the reader's, once, if someone chose initials): seats with their poules and
    standings, and deals, come as plain rows."""
    poules, players, names, lines = _seated_poules(tournament, reader, standings=True)
    deals = night_deals(tournament)

    game = tournament.game
    point_table = tournament.point_table.engine_table()
    rounds: list[RoundResults] = []
    for poule_id, round, table, counted_deals in poules:
        if not rounds or rounds[-1].number != round:
            rounds.append(RoundResults(round, []))
        seated = names[poule_id]
        sheet = deals.get(poule_id, [])
        rounds[-1].poules.append(
            PouleResults(
                table=table,
                counted_deals=counted_deals,
                seated=seated,
                columns=_columns(seated),
                deals=_deal_rows(game, point_table, sheet, seated),
                totals=[sum(points) for points in zip(*(d.points for d in sheet), strict=True)],
                standings=[
                    (rank, tied, players[player_id], game_points, fraction_of(points))
                    for rank, tied, player_id, game_points, points in lines.get(poule_id, [])
                ],
            )
        )
    return rounds


def _seated_poules(
    tournament: Tournament, reader: NameReader, *, standings: bool = False
) -> tuple[
    list[tuple[int, int, int, int]],
    dict[int, str],
    dict[int, dict[int, str]],
    dict[int, list[tuple[Any, ...]]],
]:
    """The night's poules in order (id, round, table, counted deals), each player's name as
    ``reader`` reads it, from what names are made of (not a model row per seat), each poule's
    seat numbers with those names and, with ``standings``, each poule's standings (rank, tied,
    player, game points, tournament points), in rank then seat order: one query, the poules
    and their standings read with the seats."""
    fields = ["poule_id", "round", "poule__table", "poule__counted_deals", "number", "player_id"]
    fields += [f"player__{f}" for f in Player.PUBLIC_NAME_FIELDS]
    seats = Seat.objects.filter(tournament=tournament)
    if standings:
        # A seat's line of its poule's standings, none before the poule's first deal.
        seats = seats.annotate(
            line=FilteredRelation(
                "poule__standings", condition=Q(poule__standings__player=F("player"))
            ),
            line_points=Cast("line__tournament_points", CharField()),
        )
        fields += ["line__rank", "line__seat", "line__tied", "line__game_points", "line_points"]
    poules: list[tuple[int, int, int, int]] = []
    players: dict[int, str] = {}
    names: dict[int, dict[int, str]] = {}
    lines: dict[int, list[tuple[Any, ...]]] = {}
    ranked: dict[int, list[tuple[Any, ...]]] = {}
    named = len(Player.PUBLIC_NAME_FIELDS)
    for poule_id, round, table, counted_deals, number, player_id, *rest in seats.order_by(
        "round", "poule__table", "poule_id", "number"
    ).values_list(*fields):
        if player_id not in players:
            player = Player(
                pk=player_id, **dict(zip(Player.PUBLIC_NAME_FIELDS, rest[:named], strict=True))
            )
            players[player_id] = name_shown(player, reader)
        seated = names.get(poule_id)
        if seated is None:
            seated = names[poule_id] = {}
            poules.append((poule_id, round, table, counted_deals))
        seated[number] = players[player_id]
        if standings and rest[named] is not None:
            rank, seat, tied, game_points, points = rest[named:]
            ranked.setdefault(poule_id, []).append(
                (rank, seat, (rank, tied, player_id, game_points, points))
            )
    for poule_id, poule_lines in ranked.items():
        lines[poule_id] = [line for _rank, _seat, line in sorted(poule_lines)]
    return poules, players, names, lines


def night_standing_rows(tournament: Tournament, reader: NameReader) -> list[NightStandingLine]:
    """The night's standings in rank order (one query): rank and tied, the player's id and his
    name as ``reader`` reads it, tournament points, game points, poules won and played."""
    return [
        NightStandingLine(
            rank,
            tied,
            player_id,
            name_shown(
                Player(
                    pk=player_id, **dict(zip(Player.PUBLIC_NAME_FIELDS, name_fields, strict=True))
                ),
                reader,
            ),
            fraction_of(points),
            game_points,
            won,
            played,
        )
        for rank, tied, player_id, points, game_points, won, played, *name_fields in (
            TournamentStanding.objects.filter(tournament=tournament)
            .with_points_text()
            .order_by("rank", *by_name("player__"))
            .values_list(
                "rank",
                "tied",
                "player_id",
                "points_text",
                "game_points",
                "poules_won",
                "poules_played",
                *(f"player__{f}" for f in Player.PUBLIC_NAME_FIELDS),
            )
        )
    ]


# The most seats a table has (a table of 5): the deals' table has a name and a points column
# for each.
MOST_SEATS = 5


def deal_table(tournament: Tournament, reader: NameReader) -> list[list[Any]]:
    """Every deal of the night as a table's rows, told by the sheet model as the results page
    tells it: round, table, the sheet's number (empty for a pass), short code, the deal in
    words, dealer, mort, then each seat's player and points ("–" for the mort), named as ``reader``
    reads them. Two queries whatever the size of the night."""
    poules, _players, names, _lines = _seated_poules(tournament, reader)
    deals = night_deals(tournament)
    point_table = tournament.point_table.engine_table()
    rows = []
    for poule_id, round, table, _counted in poules:
        seated = {str(number): name for number, name in names[poule_id].items()}
        sheet = deals.get(poule_id, [])
        for line in deal_lines(tournament.game, point_table, len(seated), sheet, seated):
            seats: list[Any] = []
            for number, (_classes, value) in enumerate(line.cells, start=1):
                seats += [
                    seated.get(str(number), ""),
                    SignForReaders(value) if value == "–" else value,
                ]
            seats += [None] * (2 * MOST_SEATS - len(seats))
            rows.append(
                [
                    round,
                    table,
                    line.number,
                    Text(line.code),
                    line.text,
                    seated.get(str(line.dealer), ""),
                    seated.get(str(line.mort), ""),
                    *seats,
                ]
            )
    return rows


def night_deals(tournament: Tournament) -> dict[int, list[FetchedDeal]]:
    """Every poule's deals as plain rows, in playing order: one query for the whole night.
    Each deal's JSON comes as its text, decoded here at once for the points and only when
    asked for what was played (its words are mostly known already: ``deal_words``)."""
    deals: dict[int, list[FetchedDeal]] = {}
    for poule_id, *row in (
        Deal.objects.filter(poule__tournament=tournament)
        .order_by("poule_id", "position")
        .values_list(
            "poule_id",
            "pk",
            Cast("data", TextField()),
            "counted",
            "dealer",
            Cast("points", TextField()),
        )
    ):
        deals.setdefault(poule_id, []).append(FetchedDeal(*row))
    return deals


class FetchedDeal:
    """A deal as a night's pages fetch it (what the sheet model reads of a deal), its JSON
    read as text: the points decoded at once, what was played when first asked for. Its
    version, for the memo of its words (``deal_words``), is what was played as stored: the
    words change with it and nothing else of the deal."""

    __slots__ = ("_data", "counted", "dealer", "pk", "points", "text")

    def __init__(self, pk: int, text: str, counted: bool, dealer: int | None, points: str) -> None:
        self.pk, self.text = pk, text
        self.counted, self.dealer = counted, dealer
        self.points: list[int] = json.loads(points)
        self._data: dict[str, Any] | None = None

    @property
    def data(self) -> dict[str, Any]:
        if self._data is None:
            self._data = json.loads(self.text)
        return self._data

    @property
    def recorded_at(self) -> str:
        """The version ``deal_words`` keys its memo on: what was played, as stored."""
        return self.text


def _deal_rows(
    game: str, point_table: Any, sheet: list[FetchedDeal], seated: dict[int, str]
) -> list[ResultsDeal]:
    """A poule's deals as the sheet model tells them: counted or passed, the sheet's number
    ("–" for a pass, as on the phone), the short code and what was played, points per seat
    with the dealer (•) and the mort (–) marked."""
    names = {str(number): name for number, name in seated.items()}
    return [
        (deal.counted, line.number or "–", line.code, line.text, line.cells)
        for deal, line in zip(
            sheet, deal_lines(game, point_table, len(names), sheet, names), strict=True
        )
    ]


def _columns(seated: dict[int, str]) -> list[tuple[str, str]]:
    """The sheet's column headers, each with the whole name as its title: on a phone, first
    names, unless two players at the table share one."""
    names = list(seated.values())
    firsts = [name.split()[0] if name.split() else name for name in names]
    return [
        (name, first if firsts.count(first) == 1 else name)
        for name, first in zip(names, firsts, strict=True)
    ]
