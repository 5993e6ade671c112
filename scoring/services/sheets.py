"""A poule's score sheet, scored by the engine and stored: its deals' points, the poule's
standings and the night's standings summed from them.

The one place that turns the engine's score into rows, and so where a deal is saved:
recording, correcting and removing a deal (``deals``, ``corrections``) hand the poule's whole
sheet to ``poule_sheet_store``, which scores it, inserts the new deals and updates the others,
then ``tournament_standings_update`` sums the night; an imported night is stored whole by
``night_sheets_store``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from club.models import Player
from games.models import Deal, Poule, Seat, Tournament
from scoring.engine.base import PouleScore
from scoring.engine.errors import DocumentRefused, EngineError
from scoring.engine.games import game_module
from scoring.engine.night import score_poule_deals
from scoring.engine.standings import PouleResult, poule_standings, scheme, tournament_standings
from scoring.engine.standings import PouleStanding as EnginePouleStanding
from scoring.engine.standings import TournamentStanding as EngineTournamentStanding

from ..models import PouleStanding, TournamentStanding


@dataclass(frozen=True)
class ScoredSheet:
    """A poule's sheet as the engine scored it, ready to store: its players in seat order,
    its deals as recorded (players named by seat number) and the engine's points and
    standings for them."""

    round: int
    table: int
    players: Sequence[Player]
    deals: Sequence[dict[str, Any]]
    score: PouleScore
    standings: Sequence[EnginePouleStanding]


def refused_as_validation_error(refused: DocumentRefused) -> ValidationError:
    """The engine's refusal as Django's error, each problem with the engine's code and
    parameters (and its place) so that a page can say it in its own language; the message stays
    the engine's located English (what ``messages`` and the logs show)."""
    return ValidationError([engine_validation_error(error) for error in refused.errors])


def engine_validation_error(error: EngineError) -> ValidationError:
    # Django formats a message with its params ("%" operator): a "%" of the engine's own
    # message (a value quoted from a deal) is doubled to stay itself.
    return ValidationError(
        str(error).replace("%", "%%"),
        code=error.code,
        params={**error.params, "place": error.place},
    )


def poule_score(poule: Poule, seat_numbers: list[int], deals_data: list[Any]) -> PouleScore:
    """Ask the engine for a poule's points; a deal that cannot have happened is refused with
    the engine's located message."""
    point_table = poule.tournament.point_table.engine_table()
    try:
        return score_poule_deals(point_table, [str(n) for n in seat_numbers], deals_data)
    except DocumentRefused as refused:
        raise refused_as_validation_error(refused) from None


# No savepoint of their own: they run inside the recording service's transaction after every
# deal, and a failure there rolls the whole deal back anyway.
@transaction.atomic(savepoint=False)
def poule_sheet_store(
    poule: Poule, deals: list[Deal], seats: Sequence[Seat] | None = None, *, appended: bool = False
) -> PouleScore:
    """Score a poule's whole sheet (``deals`` in playing order, new ones unsaved) and store it:
    new deals are inserted, deals whose points or dealer changed are updated, and the poule's
    standings are written. Nothing is written when the engine refuses the sheet.

    ``seats`` in seat order, when the caller has them already. ``appended``: deals were only
    added, so the poule's players are those of its standings already; each line is written
    over in one statement instead of the lines being deleted and inserted again."""
    if seats is None:
        seats = list(poule.seats.order_by("number").only("number", "player_id", "poule_id"))
    score = poule_score(poule, [s.number for s in seats], [d.data for d in deals])
    new, changed = [], []
    for deal, values in zip(deals, _scored_deals(score, seats), strict=True):
        if deal.pk is None or (deal.points, deal.dealer, deal.counted) != values:
            deal.points, deal.dealer, deal.counted = values
            (new if deal.pk is None else changed).append(deal)
    Deal.objects.bulk_create(new)
    for deal in changed:
        deal.save(update_fields=["points", "dealer", "counted"])
    if poule.counted_deals != score.counted_deals:
        poule.counted_deals = score.counted_deals
        poule.save(update_fields=["counted_deals"])

    lines = _standing_lines(
        poule, seats, poule_standings(score, scheme(poule.tournament.tournament_points))
    )
    if appended:
        PouleStanding.objects.bulk_create(
            lines,
            update_conflicts=True,
            unique_fields=["poule", "player"],
            update_fields=["seat", "rank", "tied", "game_points", "tournament_points"],
        )
    else:
        PouleStanding.objects.filter(poule=poule).delete()
        PouleStanding.objects.bulk_create(lines)
    # What was stored, for the page that shows it next (it need not read it back).
    # The players the caller loaded with the seats (never loaded here just for that).
    player_field = Seat._meta.get_field("player")
    players = {seat.player_id: seat.player for seat in seats if player_field.is_cached(seat)}
    for line in lines:
        if line.player_id in players:
            line.player = players[line.player_id]
    poule.sheet_deals = deals
    poule.sheet_standings = sorted(lines, key=lambda line: (line.rank, line.seat))
    return score


def _scored_deals(
    score: PouleScore, seats: Sequence[Seat]
) -> Iterator[tuple[list[Any], int | None, bool]]:
    """What a deal stores of the engine's score: each seat's points, the dealer's seat number
    (none for a game without one) and whether the deal counts among the poule's deals."""
    for points, dealer, counted in zip(
        score.deal_points, score.dealers, score.counted, strict=True
    ):
        yield list(points), None if dealer is None else seats[dealer].number, counted


def _standing_lines(
    poule: Poule, seats: Sequence[Seat], standings: Iterable[EnginePouleStanding]
) -> list[PouleStanding]:
    """The engine's poule standings as rows (the engine names a seat by its index)."""
    return [
        PouleStanding(
            poule=poule,
            player_id=seats[line.seat].player_id,
            seat=seats[line.seat].number,
            rank=line.rank,
            tied=line.tied,
            game_points=line.game_points,
            tournament_points=line.tournament_points,
        )
        for line in standings
    ]


@transaction.atomic(savepoint=False)
def night_sheets_store(tournament: Tournament, sheets: Sequence[ScoredSheet]) -> list[Poule]:
    """Store a whole night the engine has scored already (an imported night): its poules,
    seats, deals and poule standings, each kind in one statement, then the night's standings.

    The engine checked every seat, deal and table of the night before this runs, so nothing is
    scored twice; the database's constraints still guard each row. A history import runs this
    once per night: a decade of nights in a few statements each, not a few per deal."""
    poules = Poule.objects.bulk_create(
        Poule(
            tournament=tournament,
            round=sheet.round,
            table=sheet.table,
            counted_deals=sheet.score.counted_deals,
        )
        for sheet in sheets
    )
    seat_rows = [
        [
            Seat(
                poule=poule, player=player, number=number, tournament=tournament, round=poule.round
            )
            for number, player in enumerate(sheet.players, start=1)
        ]
        for poule, sheet in zip(poules, sheets, strict=True)
    ]
    Seat.objects.bulk_create(seat for seats in seat_rows for seat in seats)
    deals, lines = [], []
    for poule, sheet, seats in zip(poules, sheets, seat_rows, strict=True):
        for position, (data, (points, dealer, counted)) in enumerate(
            zip(sheet.deals, _scored_deals(sheet.score, seats), strict=True), start=1
        ):
            deals.append(
                Deal(
                    poule=poule,
                    position=position,
                    data=data,
                    points=points,
                    dealer=dealer,
                    counted=counted,
                )
            )
        if sheet.deals:
            # A table without a single deal was not played: its players get no standings
            # (no tournament points, no table won), as for a table left empty on the night.
            lines += _standing_lines(poule, seats, sheet.standings)
    Deal.objects.bulk_create(deals)
    PouleStanding.objects.bulk_create(lines)
    tournament_standings_update(tournament)
    return poules


def poule_rescore(poule: Poule) -> PouleScore:
    """Re-score a poule's stored sheet (after a deal was removed, or a table revised)."""
    return poule_sheet_store(poule, list(poule.deals.order_by("position")))


# A night's standing line, as stored (its night and player first).
NIGHT_STANDING_COLUMNS = (
    "tournament_id",
    "player_id",
    "rank",
    "tied",
    "tournament_points",
    "points_units",
    "game_points",
    "poules_played",
    "poules_won",
)


def night_standings(
    tournament: Tournament, results: Sequence[PouleResult]
) -> list[EngineTournamentStanding]:
    """The night's standings (§6) from its poules' results, given in the poules' order (round,
    table) and each poule's (rank, seat): the order breaks no tie, but the lines keep it."""
    return tournament_standings(
        results, lower_game_points_better=game_module(tournament.game).LOWER_IS_BETTER
    )


@transaction.atomic(savepoint=False)
def tournament_standings_update(tournament: Tournament, *, appended: bool = False) -> None:
    """Sum the stored poule standings into the night's standings (§6). ``appended``: deals
    were only added, so no player leaves the standings; each line is written over in one
    statement."""
    # Plain values, not model instances: this runs after every deal of the night.
    lines = (
        PouleStanding.objects.filter(poule__tournament=tournament)
        .order_by("poule__round", "poule__table", "rank", "seat")
        .values_list("player_id", "rank", "game_points", "tournament_points")
    )
    standings = night_standings(
        tournament,
        [
            PouleResult(player=player, rank=rank, game_points=game, tournament_points=points)
            for player, rank, game, points in lines
        ],
    )
    lines = [
        TournamentStanding(
            tournament=tournament,
            player_id=line.player,
            rank=line.rank,
            tied=line.tied,
            tournament_points=line.tournament_points,
            game_points=line.game_points,
            poules_played=line.poules_played,
            poules_won=line.poules_won,
        )
        for line in standings
    ]
    if appended:
        TournamentStanding.objects.bulk_create(
            lines,
            update_conflicts=True,
            unique_fields=["tournament", "player"],
            update_fields=NIGHT_STANDING_COLUMNS[2:],
        )
    else:
        TournamentStanding.objects.filter(tournament=tournament).delete()
        TournamentStanding.objects.bulk_create(lines)
