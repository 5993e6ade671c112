"""Club-night files in and out of the site (night-format.md).

Import: the engine reads the whole document first, so a refused file writes nothing; then the
night is built through the same services a scorer uses. Export: ``games.nightfile_export``.
"""

from __future__ import annotations

import datetime
import gc
import json
import logging
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import partial
from itertools import islice
from typing import Any

from django.core.exceptions import ValidationError
from django.db import DatabaseError, connection, transaction

from club import services as club_services
from club.models import (
    Club,
    FederationSeason,
    Player,
    dates_refused,
    tidy_name,
)
from infra.rows import rows_checked, statistics_sent, tables_analysed
from scoring import services as scoring
from scoring.engine.errors import DocumentRefused
from scoring.engine.night import (
    read_night,
    rename_players,
)
from scoring.engine.tables import preset_data
from scoring.models import (
    PlayerNightStats,
    PlayerRating,
    PlayerSeasonStats,
    PouleStanding,
    TournamentStanding,
)

from . import services
from .interclub_file import federation_season_read, visitors_named
from .models import Deal, PointTable, Poule, Seat, Tournament, point_table_checksum
from .nightfile_checks import (
    beyond_count_problems,
    composed,
    document_problems,
    poule_problems,
)

# Computed by the engine: never stored as part of what the scorer recorded.
COMPUTED_FIELDS = {"points", "dealer"}

logger = logging.getLogger(__name__)


class Found:
    """What a batch's nights have looked up or opened already (their club, seasons, point
    tables, the club's players), so that the next night does not ask again. What a night found
    is kept only once it is stored (``keep``): a refused night's new rows are rolled back with
    its savepoint, and forgotten with it (``drop``)."""

    def __init__(self, later: scoring.RowsLater | None = None, dates: Iterable[Any] = ()) -> None:
        self.kept: dict[tuple[Any, ...], Any] = {}
        self.new: dict[tuple[Any, ...], Any] = {}
        # The batch's nights' rows, written together at its end (None: each night's at once).
        self.later = later
        # The dates the batch's files give: the club's nights on those days read once.
        self.dates = frozenset(_date_given(date) for date in dates) - {None}

    def night_taken(self, club: Club, date: datetime.date, name: str) -> bool:
        """Whether ``club`` has the night already, the batch's stored ones included: one query
        a club for the batch's dates rather than one a night (the constraint on the club,
        date and name still guards the row)."""
        if date not in self.dates:
            return Tournament.objects.filter(club=club, date=date, name=name).exists()
        taken = self.get(
            ("nights", club.pk),
            lambda: set(
                Tournament.objects.filter(club=club, date__in=self.dates).values_list(
                    "date", "name"
                )
            ),
        )
        return (date, name) in taken

    def night_stored(self, club: Club, date: datetime.date, name: str) -> None:
        """The night as taken for the batch's later files, once it is kept."""
        if date in self.dates:
            self.new[("nights", club.pk)] = self.get(("nights", club.pk), set) | {(date, name)}

    def get(self, key: tuple[Any, ...], find: Callable[[], Any]) -> Any:
        if key in self.kept:
            return self.kept[key]
        if key not in self.new:
            self.new[key] = find()
        return self.new[key]

    def players(self, club: Club) -> dict[str, Player]:
        """The club's players met so far, by name (the night's own new ones included)."""
        return {**self.kept.get(("players", club.pk), {}), **self.new.get(("players", club.pk), {})}

    def players_met(self, club: Club, players: dict[str, Player]) -> None:
        self.new[("players", club.pk)] = self.players(club) | players

    def keep(self) -> None:
        self.kept.update(self.new)
        self.new.clear()
        if self.later is not None:
            self.later.keep()

    def drop(self) -> None:
        self.new.clear()
        if self.later is not None:
            self.later.drop()


def _date_given(date: Any) -> datetime.date | None:
    """A file's date as the engine reads it (None: not one; the engine says so)."""
    try:
        return datetime.date.fromisoformat(date)
    except (TypeError, ValueError):
        return None


def _players(
    club: Club,
    names: tuple[str, ...],
    date: datetime.date,
    federation_season: FederationSeason | None = None,
    found: Found | None = None,
) -> dict[str, Player]:
    """The file's players: the club's own by their name (as the site stores names: accents
    composed, single spaces), the others joining the club. At an inter-club night, the
    players of the federation's other clubs are found there and play without joining; only
    names unknown to all of them join the host club, as its guests. ``found``: the players a
    batch's earlier nights met in the club, not asked again."""
    tidied = {name: tidy_name(name) for name in names}
    met = found.players(club) if found is not None and federation_season is None else {}
    known = {t: met[t] for t in tidied.values() if t in met}
    asked = set(tidied.values()) - known.keys()
    if asked:
        known |= {
            p.display_name: p for p in Player.objects.in_club(club).filter(display_name__in=asked)
        }
    if federation_season is not None:
        places = {tidied[name]: f"players[{index}]" for index, name in enumerate(names)}
        others = [t for t in dict.fromkeys(tidied.values()) if t not in known]
        known |= visitors_named(federation_season, club, others, places)
    new = list(dict.fromkeys(t for t in tidied.values() if t not in known))
    if new:
        known |= club_services.players_join_as_written(
            club, new, start=date, guest=federation_season is not None
        )
    if found is not None and federation_season is None:
        found.players_met(club, known)
    return {name: known[tidied[name]] for name in names}


def _point_table(rules: Any, club: Club) -> PointTable:
    """The importing club's version of the file's table (never a new shared one)."""
    if isinstance(rules, str):
        shipped = preset_data(rules)
        point_table = services.point_table_for_preset(rules)
        # The club may have revised the preset since: a file naming it means the shipped one.
        return (
            point_table
            if point_table.checksum == point_table_checksum(shipped)
            else services.point_table_for_data(shipped, club)
        )
    return services.point_table_for_data(dict(rules), club)


@transaction.atomic
def tournament_import(
    doc: Any,
    *,
    rank_season: bool = True,
    send_results: bool = False,
    rate: bool = True,
    found: Found | None = None,
) -> Tournament:
    """Import one ``club-night/1`` (or result) document as a closed night.

    Raises ``DocumentRefused`` with the engine's located problems, or ``ValidationError`` when
    the site refuses it (the same night already imported); nothing is written in either case.
    An imported night is history: its participants get no result e-mail unless asked.
    ``rate=False``: the cote is left to the caller (a batch rates its nights once).
    ``found``: what the batch's earlier nights looked up (the caller keeps or drops what this
    night adds, as it is stored or refused).
    """
    found = found or Found()
    # One walk of the file for every limit; its numbers out of range are said only if the
    # engine, which says its own limits first, accepts the file.
    numbers = document_problems(doc)
    problems = (document_problems(doc, numbers=False) if numbers else []) or poule_problems(doc)
    if problems:
        raise ValidationError(problems)
    doc_composed = composed(doc)
    scored = read_night(doc_composed)
    if doc_composed is not doc:
        # Names composed again may be longer, or show what they hid: checked again.
        numbers = document_problems(doc_composed)
    # What the engine accepted must still fit the database's columns.
    if numbers:
        raise ValidationError(numbers)
    doc = doc_composed
    club = found.get(("club", scored.club), lambda: club_services.club_named(scored.club))
    problems = beyond_count_problems(doc, scored, club)
    if problems:
        raise ValidationError(problems)
    # An inter-club night's federation season, checked before anything of the night is written.
    federation_season = federation_season_read(doc, club, scored.date)
    # A season the batch knows already: only the date's own check, which its look-up starts with.
    season = found.get(
        ("season", club.pk, scored.season),
        lambda: club_services.season_named(club, scored.season, scored.date),
    )
    if why := dates_refused(scored.date):
        raise ValidationError({"date": why})
    if found.night_taken(club, scored.date, scored.name):
        raise ValidationError(
            f'{club} already has the night "{scored.name or scored.date}" of {scored.date}',
            code="night_exists",
        )
    # A batch closes its nights as they are created, and ranks and rates them once at its end:
    # each night written closed, its club's pages moved once for the batch.
    batched = not (rank_season or rate)
    if batched and not any(raw["deals"] for raw in doc["poules"]):
        raise ValidationError(scoring.UNDEALT)
    players = _players(club, scored.players, scored.date, federation_season, found)
    tournament = services.tournament_create(
        club=club,
        season=season,
        date=scored.date,
        name=scored.name,
        game=scored.game,
        point_table=found.get(
            ("rules", club.pk, json.dumps(doc["rules"], sort_keys=True)),
            lambda: _point_table(doc["rules"], club),
        ),
        tournament_points=doc.get("tournament_points") or "rcwhist",
        rounds=max(p.round for p in scored.poules),
        federation_season=federation_season,
        checked=True,
        status=Tournament.Status.CLOSED if batched else Tournament.Status.RUNNING,
    )
    found.night_stored(club, scored.date, scored.name)
    # The engine scored every poule while reading the file: those points and standings are
    # stored as they are, the whole night in a few statements.
    sheets = []
    for raw, poule in zip(doc["poules"], scored.poules, strict=True):
        number = {name: str(n) for n, name in enumerate(raw["seats"], start=1)}
        # ``rename_players`` copies each deal: one without computed fields is not copied first
        # (nearly every one; 19 000 copies a batch of 50 nights).
        deals = [
            rename_players(
                deal
                if COMPUTED_FIELDS.isdisjoint(deal)
                else {k: v for k, v in deal.items() if k not in COMPUTED_FIELDS or k == "dealer"},
                lambda name, number=number: number.get(name, name),
            )
            for deal in raw["deals"]
        ]
        sheets.append(
            scoring.ScoredSheet(
                round=poule.round,
                table=poule.table,
                players=[players[name] for name in poule.seats],
                deals=deals,
                score=poule.score,
                standings=poule.standings,
            )
        )
    scoring.night_rows_store(tournament, sheets, found.later)
    if batched:
        if send_results:
            scoring.results_email_queue(tournament)
        return tournament
    # A night of the past is closed as its file says it was played, finished or not.
    return scoring.tournament_close(
        tournament,
        rank_season=rank_season,
        send_results=send_results,
        unfinished_ok=True,
        rate=rate,
        dealt=any(sheet.deals for sheet in sheets),
    )


# A history import adds thousands of rows a night. PostgreSQL plans its queries from table
# statistics that its background analyser refreshes only now and then; until it does, the
# newest night's rows look like a large share of the tables, and the queries that read one
# night (its standings, its deals when it is closed) scan whole tables: each night imported
# slower than the one before (measured: 5 → 13 ms a night for the close alone over 300
# nights, 0.3 ms once analysed). The cote's rows too: with their statistics stale, reading a
# club's ratings before a batch scanned every club's (a decade's import: 92 ms a batch at 60
# clubs of 100, and growing).
STATISTICS_EVERY = 50
IMPORTED_TABLES = (
    Tournament,
    Poule,
    Seat,
    Deal,
    PouleStanding,
    TournamentStanding,
    PlayerRating,
    PlayerNightStats,
    PlayerSeasonStats,
)


def _statistics_refreshed() -> None:
    """The tables an import fills analysed again where a tenth of their rows are new since
    their last analysis (PostgreSQL; SQLite plans without them)."""
    if connection.vendor != "postgresql":
        return
    statistics_sent()
    try:
        with transaction.atomic():
            tables_analysed(IMPORTED_TABLES)
    except DatabaseError:
        # Only the speed of the nights still to come is at stake: the import goes on.
        logger.warning("import: tables not analysed", exc_info=True)


@contextmanager
def _older_objects_left_alone() -> Iterator[None]:
    """Python's cycle collector kept off what the process held before the import (the site's
    modules, the files read): a batch holds its nights' rows until its end, tens of thousands
    of objects a batch, and each time they pile up the collector walks every object of the
    process, not only theirs. Measured (50 nights of 40 players): 4 such walks, 0.5 s of CPU,
    as much as the engine's whole reading of the files; 0.05 s with what was there before
    left out. Nothing is lost: those objects are still freed as ever when no longer used, and
    handed back to the collector at the end. Left as it is where the process has set objects
    aside already (a server that preloads the site)."""
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector off while a batch holds its nights' rows, on again after it:
    even with what was there before left out (``_older_objects_left_alone``), a batch of 50
    nights of 40 players ran it some 500 times, three of them over every object the batch
    holds: 0.13 s of its 1.3 s of CPU (measured). Nothing is lost: every object is still
    freed as ever when no longer used, and what only a cycle holds waits for the first
    collection after the batch, a batch's worth at most. Left as it is where the process has
    turned the collector off itself."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def tournaments_import(
    docs: Iterable[Any], *, send_results: bool = False
) -> list[Tournament | list[str]]:
    """Import several nights, each all or nothing: a refused one does not stop the others.
    Each touched season is ranked once, at the end, and the cote is rewritten once per batch
    of nights, from the earliest of them: a decade of history imports in a time that grows
    with the number of nights, not with its square, and ends as importing the files one by
    one would. Returns, per document, its night or its problems."""
    with _older_objects_left_alone():
        return _nights_import(docs, send_results=send_results)


def _nights_import(docs: Iterable[Any], *, send_results: bool) -> list[Tournament | list[str]]:
    outcomes: list[Tournament | list[str]] = []
    pending = iter(docs)
    while batch := list(islice(pending, STATISTICS_EVERY)):
        if outcomes:
            _statistics_refreshed()
        try:
            with _collector_paused():
                outcomes += _batch_import(batch, send_results=send_results, later=True)
        except DatabaseError:
            # The batch's rows written together were refused (nothing of it is left): its
            # nights again, each written on its own, so that the one at fault is told apart.
            logger.warning("import: a batch's rows refused, its nights one by one", exc_info=True)
            outcomes += _batch_import(batch, send_results=send_results, later=False)
    seasons = {o.season_id for o in outcomes if isinstance(o, Tournament)}
    for season_id in sorted(seasons):
        scoring.season_ranking_queue(season_id)
    return outcomes


@transaction.atomic
def _batch_import(
    docs: list[Any], *, send_results: bool, later: bool
) -> list[Tournament | list[str]]:
    """Up to ``STATISTICS_EVERY`` nights in one transaction, each night in its own savepoint
    (a refused file leaves nothing behind and the others go on); the cote of each club's game
    rewritten once, from the batch's earliest night, which rates it and every later one.
    ``later``: the nights' seats, deals and standings written together once all are read,
    a COPY a table for the batch, and the cote rated in the batch's transaction from the
    nights held in memory; otherwise (each night's rows written at once) the cote is queued,
    to read them back after the commit."""
    outcomes: list[Tournament | list[str]] = []
    earliest: dict[tuple[int, str], Tournament] = {}
    found = Found(
        scoring.RowsLater() if later else None,
        [doc.get("date") for doc in docs if isinstance(doc, dict)],
    )
    for doc in docs:
        # What a refused night found or opened is rolled back with it: forgotten, unless kept.
        found.drop()
        try:
            tournament = tournament_import(
                doc, rank_season=False, send_results=send_results, rate=False, found=found
            )
        except DocumentRefused as refused:
            outcomes.append(list(refused.problems))
        except ValidationError as refused:
            outcomes.append(list(refused.messages))
        except (RecursionError, ValueError, OverflowError, DatabaseError) as failed:
            # Nothing of this file was written (its savepoint): the next one goes on.
            outcomes.append([f"the site could not store this night ({type(failed).__name__})"])
        else:
            found.keep()
            outcomes.append(tournament)
            key = (tournament.club_id, tournament.game)
            first = earliest.get(key)
            if first is None or (tournament.date, tournament.pk) < (first.date, first.pk):
                earliest[key] = tournament
    for club_id in sorted({club_id for club_id, _game in earliest}):
        club_services.published_pages_changed(club_id)
    if found.later is None:
        for tournament in earliest.values():
            scoring.ratings_queue(tournament.pk)
        return outcomes
    # The cote rated here, in the batch's transaction, from the nights as the batch holds them
    # (reading back the rows just written cost as much as rating them); a later night stored
    # before the batch is read from its rows. The batch's rows are written, and their foreign
    # keys checked, while the first cote rates its nights: the server's work and Python's at
    # once, on two cores.
    pending: Callable[[], None] | None = partial(_rows_written, found.later)
    for tournament in earliest.values():
        scoring.ratings_update(tournament, held=found.later.read, meanwhile=pending)
        pending = None
    if pending is not None:
        pending()
    return outcomes


def _rows_written(later: scoring.RowsLater) -> None:
    later.write()
    rows_checked()
