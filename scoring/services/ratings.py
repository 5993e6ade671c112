"""The « cote » and the statistics stored: closing a night, correcting a closed one or reopening
it queues ``ratings_update`` (``infra.outbox``), which rates that night and every later night
of the club's game in order and stores each player's rating and night statistics.
``ratings_rebuild`` does it from the first night and finds the same numbers. An import of
nights calls it itself for each batch, with the batch's nights as it holds them (``NightRead``):
the same numbers, without reading back the rows it has just written.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Q

from club.models import Club
from club.services import published_pages_changed
from games.models import COUNTED_STATUSES, Deal, PointTable, Seat, Tournament
from games.numbering import sheet_numbers
from infra.outbox import TaskName, work_pending, work_queue
from infra.rows import rows_insert

from ..models import PlayerNightStats, PlayerRating, PouleStanding, TournamentStanding
from ..statistics.cote import (
    NightRating,
    NightRecord,
    PouleRecord,
    Rating,
    deal_sides,
    rate_nights,
)
from ..statistics.nights import PouleDeals, night_statistics
from .season_stats import night_season_stats_store, season_stats_store

# A player's night statistics as ``_nights_read`` gives them, plain rows.
NIGHT_STATS_COLUMNS = ("tournament_id", "player_id", "data")


def ratings_queue(tournament_id: int) -> None:
    """Have the ratings from this night on recomputed once the transaction commits."""
    work_queue(TaskName.RATINGS_UPDATE, tournament_id)


def ratings_pending(tournament_id: int) -> bool:
    return work_pending([TaskName.RATINGS_UPDATE], tournament_id)


def night_statistics_store(nights: Sequence[Tournament]) -> None:
    """Each player's statistics of ``nights`` (``nights.night_statistics``, counted as the cote
    counts them) stored at once, in the transaction that closed or corrected them: the pages
    read them without waiting for the cote, which writes the same lines again. A night that no
    longer counts keeps none; their seasons' summaries follow (``season_stats``), for the
    players of the lines before and after (a merge moves lines from one record to the other).
    Eleven queries for any number of nights of one game."""
    ids = [night.pk for night in nights]
    stored = PlayerNightStats.objects.filter(tournament__in=ids)
    players = set(stored.values_list("player_id", flat=True))
    stored.delete()
    counted = [night for night in nights if night.status in COUNTED_STATUSES]
    if counted:
        _records, stats, _places = _nights_read(counted[0].game, counted)
        rows_insert(PlayerNightStats, NIGHT_STATS_COLUMNS, stats)
        players.update(player for _night, player, _data in stats)
    night_season_stats_store(ids, players)


@dataclass
class PouleRead:
    """A poule as the cote reads it: its night, (round, table), its players by seat number,
    each one's rank at the table, its counted deals in playing order as stored (data with the
    players named by seat, points, dealer from 1) and a key for each (its id once read back;
    an import holding the poule in memory names them otherwise)."""

    tournament: int
    order: tuple[int, int]
    seats: dict[int, int] = field(default_factory=dict)
    ranks: dict[int, int] = field(default_factory=dict)
    deals: list[tuple[Any, list[int], int | None]] = field(default_factory=list)
    keys: list[Any] = field(default_factory=list)
    # Each deal's number on the sheet, counted once for the poule (``_moves``).
    numbers: list[int | None] | None = None


@dataclass
class NightRead:
    """A night as the cote reads it, held by the import that has just written its rows
    (``night_rows.night_rows_store``), so that rating it reads nothing back: its poules, and
    each player's night standing (rank, tied, game points, tournament points in units, poules
    won and played, tournament points exactly as a fraction's text)."""

    poules: list[PouleRead]
    standings: dict[int, tuple[int, bool, int, int, int, int, str]]


# Each counted deal of the nights read, by key: its poule, its place among the poule's counted
# deals and the poule's players by seat; what a player's night says of the deals that moved his
# cote most is written from it with his cote, never read from the deals again.
DealPlaces = dict[Any, tuple[PouleRead, int, list[int]]]


def _moves(game: str, line: NightRating, places: DealPlaces) -> list[dict[str, Any]]:
    """The deals that moved ``line``'s player most, as his pages tell them: round, table,
    number on the sheet, contract and bid, his role (None in a game without declarers), his
    points, the change of his μ."""
    moves = []
    for key, change in line.moves:
        poule, index, players = places[key]
        data, points, _dealer = poule.deals[index]
        if poule.numbers is None:
            poule.numbers = sheet_numbers(game, ((True, deal[0]) for deal in poule.deals))
        seat = players.index(line.player)
        declarers = {str(number) for number in (data.get("declarers") or ())}
        moves.append(
            {
                "round": poule.order[0],
                "table": poule.order[1],
                "number": poule.numbers[index],
                "contract": data.get("contract"),
                "bid": data.get("bid"),
                "role": ("declarer" if str(seat + 1) in declarers else "defender")
                if declarers
                else None,
                "points": points[seat],
                "change": round(change, 4),
            }
        )
    return moves


def _nights_stored(ids: list[int]) -> dict[int, NightRead]:
    """The nights ``ids`` as the rating reads them, from their stored rows: four queries."""
    poules: dict[int, PouleRead] = {}
    for poule, tournament, round_, table, number, player in (
        Seat.objects.filter(tournament__in=ids)
        .order_by()
        .values_list("poule_id", "tournament_id", "round", "poule__table", "number", "player_id")
    ):
        poules.setdefault(poule, PouleRead(tournament, (round_, table))).seats[number] = player
    for poule, player, rank in (
        PouleStanding.objects.filter(poule__tournament__in=ids)
        .order_by()
        .values_list("poule_id", "player_id", "rank")
    ):
        if poule in poules:
            poules[poule].ranks[player] = rank
    for poule, key, data, points, dealer in (
        Deal.objects.filter(poule__tournament__in=ids, counted=True)
        .order_by("poule_id", "position")
        .values_list("poule_id", "pk", "data", "points", "dealer")
    ):
        if poule in poules:
            poules[poule].deals.append((data, points, dealer))
            poules[poule].keys.append(key)
    read = {pk: NightRead([], {}) for pk in ids}
    for tournament, player, *line in (
        TournamentStanding.objects.filter(tournament__in=ids)
        .order_by()
        .values_list(
            "tournament_id",
            "player_id",
            "rank",
            "tied",
            "game_points",
            "points_units",
            "poules_won",
            "poules_played",
            "tournament_points",
        )
    ):
        *figures, points = line
        read[tournament].standings[player] = (*figures, str(points))
    for poule in poules.values():
        read[poule.tournament].poules.append(poule)
    return read


def _nights_fetched(
    nights: Sequence[Tournament], held: Mapping[int, NightRead] | None = None
) -> tuple[Mapping[int, NightRead], dict[int, Any]]:
    """The nights as the rating reads them and their point tables: five queries for any
    number of nights; one only when every night is ``held`` (an import's, which has just
    written them)."""
    held = held or {}
    stored = [night.pk for night in nights if night.pk not in held]
    read = {**_nights_stored(stored), **held} if stored else held
    tables = {
        table.pk: table.engine_table()
        for table in PointTable.objects.filter(pk__in={night.point_table_id for night in nights})
    }
    return read, tables


def _nights_counted(
    game: str,
    nights: Sequence[Tournament],
    read: Mapping[int, NightRead],
    tables: Mapping[int, Any],
) -> tuple[list[NightRecord], list[tuple[int, int, dict[str, Any]]], DealPlaces]:
    """The nights as the rating reads them, each player's night statistics and the facts of
    each deal, from what ``_nights_fetched`` read: no query."""
    records: list[NightRecord] = []
    stats: list[tuple[int, int, dict[str, Any]]] = []
    places: DealPlaces = {}
    for night in nights:
        # Poules by round and table; a table without standings was not played.
        night_poules = sorted((p for p in read[night.pk].poules if p.ranks), key=lambda p: p.order)
        built = []
        for poule in night_poules:
            players = [poule.seats[number] for number in sorted(poule.seats)]
            sides = [
                deal_sides(game, players, data, points, dealer, key)
                for (data, points, dealer), key in zip(poule.deals, poule.keys, strict=True)
            ]
            places.update((key, (poule, i, players)) for i, key in enumerate(poule.keys))
            built.append(
                PouleRecord(
                    players=tuple(players),
                    ranks=tuple(poule.ranks.get(player, len(players)) for player in players),
                    deals=tuple([side for side in sides if side is not None]),
                )
            )
        records.append(NightRecord(key=night.pk, season=night.season_id, poules=tuple(built)))
        lines = night_statistics(
            game,
            tables.get(night.point_table_id),
            [PouleDeals(p.seats, p.deals) for p in night_poules],
            read[night.pk].standings,
        )
        stats += [(night.pk, player, data) for player, data in sorted(lines.items())]
    return records, stats, places


def _nights_read(
    game: str, nights: Sequence[Tournament], held: Mapping[int, NightRead] | None = None
) -> tuple[list[NightRecord], list[tuple[int, int, dict[str, Any]]], DealPlaces]:
    """``_nights_counted`` of the nights ``_nights_fetched`` reads."""
    return _nights_counted(game, nights, *_nights_fetched(nights, held))


def _ratings_before(club_id: int, game: str, night: Tournament | None) -> dict[int, Rating]:
    """Each player's rating before ``night`` (None: none at all), from the stored rows."""
    if night is None:
        return {}
    rows = (
        PlayerRating.objects.filter(tournament__club=club_id, game=game)
        .filter(
            Q(tournament__date__lt=night.date)
            | Q(tournament__date=night.date, tournament__lt=night)
        )
        .order_by("tournament__date", "tournament_id")
        .values_list("player_id", "mu", "sigma", "deals", "tournament__season_id", "pk")
    )
    ratings = {}
    for player, mu, sigma, deals, season, pk in rows:
        ratings[player] = Rating(mu, sigma, deals, season)
        ratings[player].row = pk  # type: ignore[attr-defined]
    return ratings


RATING_COLUMNS = (
    "tournament_id",
    "player_id",
    "game",
    "mu",
    "sigma",
    "conservative",
    "deals",
    "night_deals",
    "expected",
    "actual",
    "change",
    "moves",
    "other_deals",
    "others",
    "rebalance",
    "current",
)
# Where a rating row holds the cote and its change.
_MU, _CHANGE = RATING_COLUMNS.index("mu"), RATING_COLUMNS.index("change")

# What the rating reads of a night.
_READ = ("club", "game", "date", "season", "point_table", "name", "status")


def _nights_rated(
    game: str,
    nights: Sequence[Tournament],
    read: Mapping[int, NightRead],
    tables: Mapping[int, Any],
    ratings: dict[int, Rating],
) -> tuple[list[tuple[int, int, dict[str, Any]]], list[tuple[Any, ...]], dict[int, int]]:
    """The nights rated from ``ratings`` (which move on), no query: each player's night
    statistics, his rating rows (``RATING_COLUMNS``) and the last night rated of each."""
    records, stats, places = _nights_counted(game, nights, read, tables)
    _final, lines = rate_nights(records, ratings)
    last_night = {line.player: night for night, night_lines in lines for line in night_lines}
    rows = [
        (
            night,
            line.player,
            game,
            line.mu,
            line.sigma,
            line.conservative,
            line.deals,
            line.night_deals,
            line.expected,
            line.actual,
            line.change,
            _moves(game, line, places),
            line.other_deals,
            line.others,
            line.rebalance,
            last_night[line.player] == night,
        )
        for night, night_lines in lines
        for line in night_lines
    ]
    return stats, rows, last_night


@transaction.atomic
def ratings_update(
    tournament: Tournament,
    *,
    season_summaries: bool = True,
    held: Mapping[int, NightRead] | None = None,
    meanwhile: Callable[[], None] | None = None,
) -> int:
    """Rate ``tournament`` (if it counts) and every later night of its club's game, in order,
    from the ratings stored before it; store each player's rating and night statistics (and,
    ``season_summaries``, their seasons' summaries: a data migration older than their table
    leaves them to the migration that fills it). Returns how many nights were rated. Safe to
    run twice. ``held``: nights as their import has just written them, by id, rated as they
    are (the others are read from their rows). ``meanwhile``: the caller's own statements (an
    import's rows written and checked), run while the nights are rated, which reads nothing
    they write."""
    club_id, game = tournament.club_id, tournament.game
    Club.objects.select_for_update().filter(pk=club_id).values_list("pk", flat=True).first()
    from_here = Q(date__gt=tournament.date) | Q(date=tournament.date, pk__gte=tournament.pk)
    all_later = Tournament.objects.filter(from_here, club=club_id, game=game)
    nights = list(all_later.filter(status__in=COUNTED_STATUSES).order_by("date", "pk").only(*_READ))
    PlayerRating.objects.filter(tournament__in=all_later.values("pk")).delete()
    PlayerNightStats.objects.filter(tournament__in=all_later.values("pk")).delete()
    ratings = _ratings_before(club_id, game, tournament)
    before = {player: rating.row for player, rating in ratings.items()}  # type: ignore[attr-defined]
    read, tables = _nights_fetched(nights, held)
    if meanwhile is None:
        stats, rows, last_night = _nights_rated(game, nights, read, tables, ratings)
    else:
        # The nights rated in a thread while the caller's statements run: the rating is
        # Python's work alone (no query), the statements mostly the server's.
        with ThreadPoolExecutor(max_workers=1) as worker:
            rated = worker.submit(_nights_rated, game, nights, read, tables, ratings)
            meanwhile()
            stats, rows, last_night = rated.result()
    rows_insert(PlayerRating, RATING_COLUMNS, rows)
    rows_insert(PlayerNightStats, NIGHT_STATS_COLUMNS, stats)
    # The summaries of the seasons rated again, for their players (a night that stopped
    # counting had its players' summaries written again when it was reopened; a merge's, by
    # ``night_statistics_store``).
    if season_summaries:
        # The lines just written taken as they are, not read back (the summaries read only the
        # seasons' earlier nights).
        known = {night.pk: night for night in nights}
        # Each player's cote after each night and its change, as just rated (his own summary
        # keeps the latest of its season's).
        rated = {(row[0], row[1]): (row[_MU], row[_CHANGE]) for row in rows}
        season_stats_store(
            {night.season_id for night in nights},
            {player for _night, player, _data in stats},
            [
                (player, n.season_id, n.pk, n.date, n.name, n.status, data, *cote)
                for n, player, data, cote in (
                    (known[pk], player, data, rated.get((pk, player), (None, None)))
                    for pk, player, data in stats
                )
            ],
        )
    # One current row per player: his latest night, rated now or before this one.
    PlayerRating.objects.filter(
        pk__in=[pk for player, pk in before.items() if player in last_night], current=True
    ).update(current=False)
    PlayerRating.objects.filter(
        pk__in=[pk for player, pk in before.items() if player not in last_night]
    ).update(current=True)
    published_pages_changed(club_id)
    return len(nights)


def ratings_rebuild(club: Club | None = None, *, season_summaries: bool = True) -> int:
    """Every rating and night statistic from scratch (``manage.py ratings_rebuild``, and the
    migration that rewrote the cote on its scale without drift): each club's game from its
    first night. Returns the nights rated. Reads only the columns it needs, so that a data
    migration may call it while later migrations still wait."""
    nights = Tournament.objects.order_by("club_id", "date", "pk")
    if club is not None:
        nights = nights.filter(club=club)
    firsts: dict[tuple[int, str], int] = {}
    for pk, club_id, game in nights.values_list("pk", "club_id", "game"):
        firsts.setdefault((club_id, game), pk)
    return sum(
        ratings_update(
            Tournament.objects.only(*_READ).get(pk=pk), season_summaries=season_summaries
        )
        for _club_game, pk in sorted(firsts.items())
    )
