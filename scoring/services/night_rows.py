"""An imported night stored as the engine scored it (``night_rows_store``): its poules, seats,
deals and poule standings each written in one statement of plain rows, then the night's
standings summed from those lines (the night is new: nothing stored to read back or replace).
A history import writes thousands of rows a night; building a model instance for each and
having the ORM prepare each of its values cost more than the engine's reading of the file.
The engine checked every seat, deal and table before this runs; the database's constraints
still guard each row.

A batch of nights (``games.nightfile.tournaments_import``) gives a ``RowsLater``: its nights'
seats, deals and standings are then written together at the batch's end, one COPY a table for
the whole batch rather than four a night (each COPY a round trip to the server and back)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from django.db import models, transaction
from django.utils import timezone

from games.models import Deal, Poule, Seat, Tournament
from infra.rows import rows_insert
from scoring.engine.standings import PouleResult

from ..models import PouleStanding, TournamentStanding
from .ratings import NightRead, PouleRead
from .sheets import NIGHT_STANDING_COLUMNS, ScoredSheet, night_standing_row, night_standings

SEAT_COLUMNS = ("poule_id", "player_id", "number", "tournament_id", "round")
DEAL_COLUMNS = (
    "poule_id",
    "position",
    "data",
    "dealer",
    "points",
    "counted",
    "recorded_at",
    "client_digest",
)
STANDING_COLUMNS = (
    "poule_id",
    "player_id",
    "seat",
    "rank",
    "tied",
    "game_points",
    "tournament_points",
)


class RowsLater:
    """The rows of a batch's nights, written together by ``write`` at the batch's end, and
    each night as the cote reads it (``read``, by night id: the batch rates its nights from
    them, without reading back what it has just written). A night's rows are held apart until
    it is stored (``keep``); a refused night's are forgotten with it (``drop``), as its
    savepoint rolls back what it wrote itself."""

    def __init__(self) -> None:
        self.kept: dict[tuple[type[models.Model], tuple[str, ...]], list[tuple[Any, ...]]] = {}
        self.new: list[tuple[type[models.Model], tuple[str, ...], list[tuple[Any, ...]]]] = []
        self.read: dict[int, NightRead] = {}
        self.new_read: dict[int, NightRead] = {}

    def add(
        self, model: type[models.Model], columns: tuple[str, ...], rows: list[tuple[Any, ...]]
    ) -> None:
        self.new.append((model, columns, rows))

    def keep(self) -> None:
        for model, columns, rows in self.new:
            self.kept.setdefault((model, columns), []).extend(rows)
        self.new.clear()
        self.read.update(self.new_read)
        self.new_read.clear()

    def drop(self) -> None:
        self.new.clear()
        self.new_read.clear()

    def write(self) -> None:
        """Every kept row written, a statement a table, in the order of their keys."""
        for (model, columns), rows in self.kept.items():
            rows_insert(model, columns, rows)
        self.kept.clear()


def _rows_store(
    later: RowsLater | None,
    model: type[models.Model],
    columns: tuple[str, ...],
    rows: list[tuple[Any, ...]],
) -> None:
    if later is None:
        rows_insert(model, columns, rows)
    else:
        later.add(model, columns, rows)


@transaction.atomic(savepoint=False)
def night_rows_store(
    tournament: Tournament, sheets: Sequence[ScoredSheet], later: RowsLater | None = None
) -> list[Poule]:
    """Store a whole night the engine has scored already (an imported night). Seats are
    numbered from 1 in the sheet's order; a deal's dealer is the seat the engine names; a
    table without a single deal was not played: its players get no standings (no tournament
    points, no table won), as for a table left empty on the night. ``later``: the seats,
    deals and standings are held there, for the batch to write with its other nights' (only
    the night's poules are written now: their ids are the rows' keys), and the night as the
    cote reads it with them."""
    poules = Poule.objects.bulk_create(
        Poule(
            tournament=tournament,
            round=sheet.round,
            table=sheet.table,
            counted_deals=sheet.score.counted_deals,
        )
        for sheet in sheets
    )
    order = {poule.pk: (poule.round, poule.table) for poule in poules}
    recorded_at = timezone.now()
    seats: list[tuple[Any, ...]] = []
    deals: list[tuple[Any, ...]] = []
    lines: list[tuple[Any, ...]] = []
    read = NightRead([], {})
    # Ids read once a poule (``pk`` is a property), not once for each of its deals.
    night = tournament.pk
    for poule, sheet in zip(poules, sheets, strict=True):
        poule_pk = poule.pk
        players = [player.pk for player in sheet.players]
        seats += (
            (poule_pk, player, number, night, poule.round)
            for number, player in enumerate(players, start=1)
        )
        # The poule as the cote reads it back: its counted deals, each named by its place.
        poule_read = PouleRead(night, order[poule_pk], dict(enumerate(players, start=1)))
        score = sheet.score
        for position, (data, points, dealer, counted) in enumerate(
            zip(sheet.deals, score.deal_points, score.dealers, score.counted, strict=True),
            start=1,
        ):
            points = list(points)
            dealer = None if dealer is None else dealer + 1
            deals.append((poule_pk, position, data, dealer, points, counted, recorded_at, ""))
            if counted:
                poule_read.deals.append((data, points, dealer))
                poule_read.keys.append((poule_pk, position))
        if sheet.deals:
            lines += (
                (
                    poule_pk,
                    players[line.seat],
                    line.seat + 1,
                    line.rank,
                    line.tied,
                    line.game_points,
                    line.tournament_points,
                )
                for line in sheet.standings
            )
            poule_read.ranks = {players[line.seat]: line.rank for line in sheet.standings}
        read.poules.append(poule_read)
    _rows_store(later, Seat, SEAT_COLUMNS, seats)
    _rows_store(later, Deal, DEAL_COLUMNS, deals)
    _rows_store(later, PouleStanding, STANDING_COLUMNS, lines)
    # The night's standings from the poules' lines just written, in the order the stored ones
    # are read in (round, table; rank, seat): the night is new, none to take away.
    results = [
        PouleResult(
            player=player,
            rank=rank,
            game_points=game_points,
            tournament_points=tournament_points,
        )
        for _poule, player, _seat, rank, _tied, game_points, tournament_points in sorted(
            lines, key=lambda line: (order[line[0]], line[3], line[2])
        )
    ]
    standings = [
        night_standing_row(tournament.pk, line) for line in night_standings(tournament, results)
    ]
    _rows_store(later, TournamentStanding, NIGHT_STANDING_COLUMNS, standings)
    if later is not None:
        # As ``ratings._nights_stored`` reads them back (NIGHT_STANDING_COLUMNS' order).
        read.standings = {
            row[1]: (row[2], row[3], row[6], row[5], row[8], row[7], str(Fraction(row[4])))
            for row in standings
        }
        later.new_read[tournament.pk] = read
    return poules
