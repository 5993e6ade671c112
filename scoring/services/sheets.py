"""A poule's score sheet, scored by the engine and stored: its deals' points, the poule's
standings and the night's standings summed from them.

The one place that turns the engine's score into rows, and so where a deal is saved:
recording, correcting and removing a deal (``deals``, ``corrections``) hand the poule's whole
sheet to ``poule_sheet_store``, which scores it, inserts the new deals and updates the others,
then ``tournament_standings_update`` sums the night; an imported night is stored whole, as
plain rows, by ``night_rows.night_rows_store``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import CharField, F, FilteredRelation, Q
from django.db.models.functions import Cast
from django.db.models.lookups import Exact, IsNull

from club.models import Player
from games import sheet_sql
from games.models import Deal, Poule, Seat, Tournament
from scoring.engine.base import PouleScore
from scoring.engine.errors import DocumentRefused, EngineError
from scoring.engine.games import game_module
from scoring.engine.night import score_poule_deals
from scoring.engine.standings import PouleResult, poule_standings, scheme, tournament_standings
from scoring.engine.standings import PouleStanding as EnginePouleStanding
from scoring.engine.standings import TournamentStanding as EngineTournamentStanding

from ..fields import fraction_of, units_of
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
    poule: Poule,
    deals: list[Deal],
    seats: Sequence[Seat] | None = None,
    *,
    appended: bool = False,
    stored_night_lines: Sequence[NightLine] | None = None,
) -> PouleScore:
    """Score a poule's whole sheet (``deals`` in playing order, new ones unsaved) and store it:
    new deals are inserted, deals whose points or dealer changed are updated (one statement
    each), and the poule's standings are written. Nothing is written when the engine refuses
    the sheet.

    ``seats`` in seat order, when the caller has them already. ``appended``: deals were only
    added, so the poule's players are those of its standings already; the lines are written
    over in one statement instead of being deleted and inserted again.
    ``stored_night_lines``: the night's standing lines as stored before this change
    (``night_lines``, read under the night's lock), when the caller sums the night next: only
    the lines that changed are written."""
    if seats is None:
        seats = list(poule.seats.order_by("number").only("number", "player_id", "poule_id"))
    score = poule_score(poule, [s.number for s in seats], [d.data for d in deals])
    new, changed = [], []
    for deal, values in zip(deals, _scored_deals(score, seats), strict=True):
        if deal.pk is None or (deal.points, deal.dealer, deal.counted) != values:
            deal.points, deal.dealer, deal.counted = values
            (new if deal.pk is None else changed).append(deal)
    if len(new) == 1:
        # The sheet's one new deal: a model's own insert builds less than ``bulk_create``
        # (0.3 ms against 0.6 ms a deal, measured on PostgreSQL).
        new[0].save(force_insert=True)
    elif new:
        Deal.objects.bulk_create(new)
    if changed:
        Deal.objects.bulk_update(changed, ["points", "dealer", "counted"])
    if poule.counted_deals != score.counted_deals:
        poule.counted_deals = score.counted_deals
        Poule.objects.filter(pk=poule.pk).update(counted_deals=score.counted_deals)

    lines = _standing_lines(
        poule, seats, poule_standings(score, scheme(poule.tournament.tournament_points))
    )
    if appended:
        stored = {
            line.player_id: line.values()
            for line in stored_night_lines or ()
            if line.poule_id == poule.pk
        }
        written = (
            [line for line in lines if stored.get(line.player_id) != _line_values(line)]
            if stored_night_lines is not None
            else lines
        )
        if written:
            PouleStanding.objects.bulk_create(
                written,
                update_conflicts=True,
                unique_fields=["poule", "player"],
                update_fields=_LINE_COLUMNS,
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


def poule_rescore(poule: Poule) -> PouleScore:
    """Re-score a poule's stored sheet (after a deal was removed, or a table revised)."""
    return poule_sheet_store(poule, list(poule.deals.order_by("position")))


class NightLine(NamedTuple):
    """A poule standing of the night as stored, in the order the night's standings read them
    (by round and table, then rank and seat)."""

    poule_id: int
    round: int
    table: int
    player_id: int
    seat: int
    rank: int
    tied: bool
    game_points: int
    tournament_points: Fraction

    def values(self) -> tuple[Any, ...]:
        """What the line holds for its poule and player (``_line_values``)."""
        return (self.seat, self.rank, self.tied, self.game_points, self.tournament_points)


def night_lines(tournament: Tournament) -> list[NightLine]:
    """Every poule standing of the night as stored, plain values, in the order
    ``tournament_standings_update`` sums them."""
    return night_locked(tournament, lock=False)[2]


def night_locked(
    tournament: Tournament, *, lock: bool = True, poule: Poule | None = None
) -> tuple[str | None, dict[int, int], list[NightLine], list[Deal]]:
    """Lock the night's row (``lock``; alone: a database without row locks, SQLite,
    serialises the writers itself) and read, in the same query, its state, each poule's
    history count, every poule standing of the night as stored (plain values, in the order
    ``tournament_standings_update`` sums them) and (``poule``) that poule's deals in playing
    order: this runs for every deal of the night, and a query less is a round trip less.
    No state for a night gone.

    The deals are joined to their own poule's row only (``FilteredRelation``), and there to
    its seat 1's standing line alone (or to the poule's one row while it has no lines yet):
    each deal comes once, not once per player (a 5-player poule's 14 deals, 70 rows). Seats
    are numbered from 1 (``games.services``); a poule whose lines lack seat 1 would have its
    deals read apart."""
    if connection.vendor == "postgresql":
        # The same rows from one plain statement (``games.sheet_sql``): this runs for every deal.
        rows: Iterable[Sequence[Any]] = sheet_sql.night_rows(
            tournament.pk, poule and poule.pk, lock=lock
        )
    else:
        rows = night_rows_orm(tournament, lock=lock, poule=poule)
    state, corrections, lines, deals = None, {}, [], {}
    seen_lines: set[tuple[int, int]] = set()
    for row in rows:
        state, count, poule_id, round, table, player, seat, rank, tied, points, tp = row[:11]
        corrections[poule_id] = count
        if player is not None and (poule_id, player) not in seen_lines:
            # A poule without standings yet (or a night without poules) has none; the deals'
            # poule has its seat 1's line once per deal.
            seen_lines.add((poule_id, player))
            lines.append(
                NightLine(poule_id, round, table, player, seat, rank, tied, points, fraction_of(tp))
            )
        if len(row) > 11 and row[11] is not None and row[11] not in deals:
            deals[row[11]] = Deal.from_db(connection.alias, _DEAL_FIELDS, row[11:])
    if poule is None:
        return state, corrections, lines, []
    own_seats = {line.seat for line in lines if line.poule_id == poule.pk}
    if own_seats and 1 not in own_seats:
        return state, corrections, lines, list(poule.deals.order_by("position"))
    for deal in deals.values():
        deal.poule = poule
    return state, corrections, lines, sorted(deals.values(), key=lambda deal: deal.position)


def night_rows_orm(tournament: Tournament, *, lock: bool, poule: Poule | None) -> Any:
    """``night_locked``'s rows by the ORM: the night's first columns, then (``poule``) the
    deal's in ``Deal``'s field order. The query of every database but PostgreSQL, and the one
    its plain statement (``games.sheet_sql.night_rows``) is pinned to."""
    night = Tournament.objects.filter(pk=tournament.pk)
    if lock:
        night = night.select_for_update(of=("self",))
    deal_columns: tuple[str, ...] = ()
    if poule is not None:
        seat = F("poules__standings__seat")
        night = night.alias(
            sheet=FilteredRelation(
                "poules__deals",
                condition=Q(poules__deals__poule=poule.pk)
                & (Q(Exact(seat, 1)) | Q(IsNull(seat, True))),
            )
        )
        deal_columns = tuple(f"sheet__{name}" for name in _DEAL_FIELDS)
    return (
        # The points as stored text, parsed once per distinct value (``fraction_of``).
        night.annotate(points_text=Cast("poules__standings__tournament_points", CharField()))
        .order_by(
            "poules__round",
            "poules__table",
            "poules__standings__rank",
            "poules__standings__seat",
            *(("sheet__position",) if poule is not None else ()),
        )
        .values_list(
            "status",
            "poules__corrections",
            "poules__id",
            "poules__round",
            "poules__table",
            "poules__standings__player_id",
            "poules__standings__seat",
            "poules__standings__rank",
            "poules__standings__tied",
            "poules__standings__game_points",
            "points_text",
            *deal_columns,
        )
    )


# A deal's columns, as the night's locked read takes them (``Deal.from_db``'s order).
_DEAL_FIELDS = tuple(field.attname for field in Deal._meta.concrete_fields)


# What a poule standing holds for its poule and player (``_line_values``), written over the
# stored line (``bulk_create(update_conflicts=True)``).
_LINE_COLUMNS = ("seat", "rank", "tied", "game_points", "tournament_points")


def _line_values(line: PouleStanding) -> tuple[Any, ...]:
    return (line.seat, line.rank, line.tied, line.game_points, line.tournament_points)


def _night_results(lines: Iterable[NightLine]) -> list[PouleResult]:
    return [
        PouleResult(
            player=line.player_id,
            rank=line.rank,
            game_points=line.game_points,
            tournament_points=line.tournament_points,
        )
        for line in lines
    ]


def _night_with(lines: Sequence[NightLine], poule: Poule) -> list[NightLine]:
    """The night's lines with the poule's own replaced by those it has just stored
    (``poule.sheet_standings``, by rank and seat), at the poule's place among the others."""
    own = [
        NightLine(poule.pk, poule.round, poule.table, line.player_id, *_line_values(line))
        for line in poule.sheet_standings
    ]
    others = [line for line in lines if line.poule_id != poule.pk]
    # Stable: each poule's lines keep their order of rank and seat.
    return sorted([*others, *own], key=lambda line: (line.round, line.table))


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


def night_standing_row(tournament_id: int, line: EngineTournamentStanding) -> tuple[Any, ...]:
    """A night's standing line as stored, in ``NIGHT_STANDING_COLUMNS``' order, for the
    import's COPY (``infra.rows``), which no field's ``pre_save`` sees: the points also in
    whole units, as ``PointUnitsField`` writes them."""
    return (
        tournament_id,
        line.player,
        line.rank,
        line.tied,
        line.tournament_points,
        units_of(Fraction(line.tournament_points)),
        line.game_points,
        line.poules_played,
        line.poules_won,
    )


# What a night's standing line holds for its night and player, written over the stored line
# after a deal (its points in whole units by the field itself, ``PointUnitsField.pre_save``).
_NIGHT_LINE_FIELDS = NIGHT_STANDING_COLUMNS[2:]


def night_standing_line(tournament_id: int, line: EngineTournamentStanding) -> TournamentStanding:
    """A night's standing line of the engine as the model's row (its points in units are
    the field's to write)."""
    return TournamentStanding(
        tournament_id=tournament_id,
        player_id=line.player,
        rank=line.rank,
        tied=line.tied,
        tournament_points=line.tournament_points,
        game_points=line.game_points,
        poules_played=line.poules_played,
        poules_won=line.poules_won,
    )


def night_standings(
    tournament: Tournament, results: Sequence[PouleResult]
) -> list[EngineTournamentStanding]:
    """The night's standings (§6) from its poules' results, given in the poules' order (round,
    table) and each poule's (rank, seat): the order breaks no tie, but the lines keep it."""
    return tournament_standings(
        results, lower_game_points_better=game_module(tournament.game).LOWER_IS_BETTER
    )


# The engine's night standings by the night's lines, kept per process: the lines a deal
# leaves are those read before the night's next deal, so a night summed after one deal is
# not summed again as the "before" of the next (when the same process answers it).
_NIGHT_STANDINGS: dict[tuple[Any, ...], tuple[Any, ...]] = {}


def _night_standings(lines: Sequence[NightLine], lower: bool) -> tuple[Any, ...]:
    key = (lower, tuple(lines))
    found = _NIGHT_STANDINGS.get(key)
    if found is None:
        if len(_NIGHT_STANDINGS) >= 64:
            _NIGHT_STANDINGS.clear()
        found = _NIGHT_STANDINGS[key] = tournament_standings(
            _night_results(lines), lower_game_points_better=lower
        )
    return found


@transaction.atomic(savepoint=False)
def tournament_standings_update(
    tournament: Tournament,
    *,
    appended: bool = False,
    stored_night_lines: Sequence[NightLine] | None = None,
    poule: Poule | None = None,
) -> None:
    """Sum the stored poule standings into the night's standings (§6). ``appended``: deals
    were only added, so no player leaves the standings; each line is written over in one
    statement. ``stored_night_lines`` and ``poule``: the night's lines as stored before the
    poule's sheet was stored again (``night_lines``, read under the night's lock) and that
    poule, holding what it stored (``poule_sheet_store``): the night is summed from them,
    before and after, and only the players whose line changed are written (none are read
    again)."""
    lower = game_module(tournament.game).LOWER_IS_BETTER
    if stored_night_lines is not None and poule is not None:
        before = _night_standings(stored_night_lines, lower)
        standings = _night_standings(_night_with(stored_night_lines, poule), lower)
    else:
        before = ()
        standings = night_standings(tournament, _night_results(night_lines(tournament)))
    # Lines left as they were are not written again: only when they are written over in place
    # (``appended``); otherwise the night's lines are all deleted and all written.
    unchanged = set(before) & set(standings) if appended else set()
    changed = [line for line in standings if line not in unchanged]
    lines = [night_standing_line(tournament.pk, line) for line in changed]
    if appended:
        if lines:
            TournamentStanding.objects.bulk_create(
                lines,
                update_conflicts=True,
                unique_fields=["tournament", "player"],
                update_fields=_NIGHT_LINE_FIELDS,
            )
    else:
        TournamentStanding.objects.filter(tournament=tournament).delete()
        TournamentStanding.objects.bulk_create(lines)
