"""Club-night files in and out of the site (night-format.md).

Import: the engine reads the whole document first, so a refused file writes nothing; then the
night is built through the same services a scorer uses. Export: ``games.nightfile_export``.
"""

from __future__ import annotations

import datetime
import json
import logging
import re
import unicodedata
from collections.abc import Callable, Iterable
from itertools import islice
from typing import Any

from django.core.exceptions import ValidationError
from django.db import DatabaseError, connection, transaction
from django.db.backends.base.operations import BaseDatabaseOperations

from club import services as club_services
from club.models import (
    Club,
    FederationSeason,
    Player,
    dates_refused,
    hidden_characters,
    tidy_name,
)
from infra.rows import tables_analysed
from scoring import services as scoring
from scoring.engine.errors import DocumentRefused
from scoring.engine.games import game_module
from scoring.engine.night import (
    ScoredNight,
    read_night,
    rename_players,
)
from scoring.engine.tables import preset_data
from scoring.models import PouleStanding, TournamentStanding

from . import services
from .interclub_file import federation_season_read, visitors_named
from .models import Deal, PointTable, Poule, Seat, Tournament, point_table_checksum

# Computed by the engine: never stored as part of what the scorer recorded.
COMPUTED_FIELDS = {"points", "dealer"}

logger = logging.getLogger(__name__)


class Found:
    """What a batch's nights have looked up or opened already (their club, seasons, point
    tables, the club's players), so that the next night does not ask again. What a night found
    is kept only once it is stored (``keep``): a refused night's new rows are rolled back with
    its savepoint, and forgotten with it (``drop``)."""

    def __init__(self, later: scoring.RowsLater | None = None) -> None:
        self.kept: dict[tuple[Any, ...], Any] = {}
        self.new: dict[tuple[Any, ...], Any] = {}
        # The batch's nights' rows, written together at its end (None: each night's at once).
        self.later = later

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


# What the site can store of a file, checked before anything is read (each problem located,
# never a traceback): nesting no deeper than a club-night document goes, names that fit their
# columns (a player's name is split into first and last names of 80 characters), no NUL
# character (PostgreSQL refuses it in text), and whole numbers a database column holds.
MAX_DEPTH = 12
NAME_LIMITS = {"club": 120, "season": 40, "name": 120}
PLAYER_NAME_LIMIT = 80
TEXT_LIMIT = 1000
NUMBER_LIMIT = 10**9


# Every limit on a text is above this: a shorter text that shows every character it holds (no
# NUL, no lone surrogate, no control or format character) needs no more look.
SHORTEST_LIMIT = min(*NAME_LIMITS.values(), PLAYER_NAME_LIMIT, TEXT_LIMIT)


def _plain(value: Any) -> bool:
    """A value nothing is to be said of, whatever its place: a short text that shows all its
    characters, a whole number in range, true, false or null."""
    kind = type(value)
    if kind is str:
        return len(value) < SHORTEST_LIMIT and value.isprintable()
    if kind is int:
        return -NUMBER_LIMIT <= value <= NUMBER_LIMIT
    return value is None or kind is bool


def _place(parent: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{parent}[{key}]"
    return f"{parent}.{key}" if parent else key


def document_problems(doc: Any, *, numbers: bool = True) -> list[str]:
    """The file's values the site could not store, each with its place (empty: none). Walks
    the document without recursion, so a deeply nested one is refused, not a crash.
    ``numbers=False`` leaves the numbers to the engine, which says its own limits.

    A value's place is written only where it is needed (a problem, a text's limit): a night
    holds thousands of values, nearly all short texts and small numbers, passed over at once."""
    problems: list[str] = []
    stack: list[tuple[Any, str, str | int | None, int]] = [(doc, "", None, 0)]
    while stack and len(problems) < 20:
        value, parent, key, depth = stack.pop()
        if depth > MAX_DEPTH:
            place = "" if key is None else _place(parent, key)
            problems.append(f"{place or '(document)'}: nested deeper than {MAX_DEPTH} levels")
            continue
        if isinstance(value, str):
            if len(value) < SHORTEST_LIMIT and value.isprintable():
                continue
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, int):
            if not numbers or abs(value) <= NUMBER_LIMIT:
                continue
        elif isinstance(value, float) and (not numbers or abs(value) <= NUMBER_LIMIT):
            continue
        place = "" if key is None else _place(parent, key)
        shown_place = place or "(document)"
        if isinstance(value, dict):
            for item_key, item in value.items():
                text = str(item_key)
                if not text.isprintable():
                    if "\x00" in text:
                        problems.append(f"{shown_place}: a key contains a NUL character")
                    elif _surrogates(text):
                        problems.append(f"{shown_place}: a key contains a lone surrogate")
                if depth == MAX_DEPTH or not _plain(item):
                    stack.append((item, place, text, depth + 1))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                if depth == MAX_DEPTH or not _plain(item):
                    stack.append((item, place, index, depth + 1))
        elif isinstance(value, str):
            limit = NAME_LIMITS.get(place, TEXT_LIMIT)
            if place.startswith("players[") or ".seats[" in place:
                limit = PLAYER_NAME_LIMIT
            # Every name the file gives (a player's, the night's, its club's and season's)
            # follows the one name rule; a free text does not.
            hidden = hidden_characters(value) if limit != TEXT_LIMIT else []
            if "\x00" in value:
                problems.append(f"{shown_place}: contains a NUL character")
            elif _surrogates(value):
                problems.append(f"{shown_place}: contains a lone surrogate (not text)")
            elif hidden:
                codes = ", ".join(dict.fromkeys(hidden))
                problems.append(
                    f"{shown_place}: {value!r} contains a character no page shows ({codes})"
                )
            elif len(value) > limit:
                problems.append(f"{shown_place}: {len(value)} characters, at most {limit}")
        elif isinstance(value, int):
            problems.append(f"{shown_place}: {value} is out of range (±{NUMBER_LIMIT})")
        elif isinstance(value, float):
            problems.append(f"{shown_place}: {value} is out of range (±{NUMBER_LIMIT})")
    return problems


def _small_column() -> int:
    """The largest value of the columns a poule's numbers go to (its round, its table, a
    deal's number: small positive integers, 32 767 in PostgreSQL; SQLite states no limit, so
    the portable one is kept)."""
    return BaseDatabaseOperations.integer_field_ranges["PositiveSmallIntegerField"][1]


def poule_problems(doc: Any) -> list[str]:
    """The poules' numbers the site's columns could not hold, each with its place (a round,
    a table, a number of deals past 32 767), and a ``longer`` that is not true or false:
    checked before the engine reads a single deal."""
    raw_poules = doc.get("poules") if isinstance(doc, dict) else None
    if not isinstance(raw_poules, list):
        return []  # the engine says what a night file needs
    largest = _small_column()
    problems = []
    for index, poule in enumerate(raw_poules):
        if not isinstance(poule, dict):
            continue
        place = f"poules[{index}]"
        for key in ("round", "table"):
            value = poule.get(key)
            if isinstance(value, int) and not isinstance(value, bool) and value > largest:
                problems.append(f"{place}.{key}: {value} is out of range (at most {largest})")
        deals = poule.get("deals")
        if isinstance(deals, list) and len(deals) > largest:
            problems.append(f"{place}.deals: {len(deals)} deals, at most {largest}")
        if not isinstance(poule.get("longer", False), bool):
            problems.append(f"{place}.longer: expected true or false")
    return problems


def _beyond_count_problems(doc: Any, scored: ScoredNight, club: Club) -> list[str]:
    """The poules that played more deals than the club plays at their table, where the file
    does not say that they were longer (``"longer": true``, the score sheet's "la poule est
    plus longue ce soir"). Only for the games played to a set number of deals."""
    if not game_module(scored.game).FIXED_DEALS_PER_POULE:
        return []
    problems = []
    for index, (raw, poule) in enumerate(zip(doc["poules"], scored.poules, strict=True)):
        seats = len(poule.seats)
        count = club.deals_per_poule_5 if seats == 5 else club.deals_per_poule_4
        if poule.score.counted_deals > count and raw.get("longer") is not True:
            problems.append(
                f"poules[{index}].deals: {poule.score.counted_deals} deals played, the club "
                f"plays {count} at a table of {seats}; a longer poule says so "
                '("longer": true)'
            )
    return problems


def _composed(doc: Any) -> Any:
    """The document with every text in composed form (NFC), as the site stores names: "Zoé"
    written with a combining accent is the club's Zoé. Its depth is bounded already. A file
    whose texts are all composed (nearly every one) is returned as it is, itself: seen so in
    its JSON text at once, where each text stands between quotes, which compose with
    nothing."""
    try:
        text = json.dumps(doc, ensure_ascii=False)
    except (TypeError, ValueError):
        text = ""  # not plain JSON: each text looked at
    if text and unicodedata.is_normalized("NFC", text):
        return doc
    return _texts_composed(doc)


def _texts_composed(value: Any) -> Any:
    if isinstance(value, str):
        return unicodedata.normalize("NFC", value)
    if isinstance(value, dict):
        return {_texts_composed(key): _texts_composed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_texts_composed(item) for item in value]
    return value


_SURROGATE = re.compile("[\ud800-\udfff]")


def _surrogates(text: str) -> bool:
    return _SURROGATE.search(text) is not None


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
    composed = _composed(doc)
    scored = read_night(composed)
    if composed is not doc:
        # Names composed again may be longer, or show what they hid: checked again.
        numbers = document_problems(composed)
    # What the engine accepted must still fit the database's columns.
    if numbers:
        raise ValidationError(numbers)
    doc = composed
    club = found.get(("club", scored.club), lambda: club_services.club_named(scored.club))
    problems = _beyond_count_problems(doc, scored, club)
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
    if Tournament.objects.filter(club=club, date=scored.date, name=scored.name).exists():
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
    # The engine scored every poule while reading the file: those points and standings are
    # stored as they are, the whole night in a few statements.
    sheets = []
    for raw, poule in zip(doc["poules"], scored.poules, strict=True):
        number = {name: str(n) for n, name in enumerate(raw["seats"], start=1)}
        deals = [
            rename_players(
                {k: v for k, v in deal.items() if k not in COMPUTED_FIELDS or k == "dealer"},
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
# nights, 0.3 ms once analysed).
STATISTICS_EVERY = 50
IMPORTED_TABLES = (Tournament, Poule, Seat, Deal, PouleStanding, TournamentStanding)


def _statistics_refreshed() -> None:
    """The tables an import fills analysed again (PostgreSQL; SQLite plans without them)."""
    if connection.vendor != "postgresql":
        return
    try:
        with transaction.atomic():
            tables_analysed(IMPORTED_TABLES)
    except DatabaseError:
        # Only the speed of the nights still to come is at stake: the import goes on.
        logger.warning("import: tables not analysed", exc_info=True)


def tournaments_import(
    docs: Iterable[Any], *, send_results: bool = False
) -> list[Tournament | list[str]]:
    """Import several nights, each all or nothing: a refused one does not stop the others.
    Each touched season is ranked once, at the end, and the cote is rewritten once per batch
    of nights, from the earliest of them: a decade of history imports in a time that grows
    with the number of nights, not with its square, and ends as importing the files one by
    one would. Returns, per document, its night or its problems."""
    outcomes: list[Tournament | list[str]] = []
    pending = iter(docs)
    while batch := list(islice(pending, STATISTICS_EVERY)):
        if outcomes:
            _statistics_refreshed()
        try:
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
    queued once, from the batch's earliest night, which rates it and every later one.
    ``later``: the nights' seats, deals and standings written together once all are read,
    a COPY a table for the batch (nothing reads them before the cote, after the commit)."""
    outcomes: list[Tournament | list[str]] = []
    earliest: dict[tuple[int, str], Tournament] = {}
    found = Found(scoring.RowsLater() if later else None)
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
    if found.later is not None:
        found.later.write()
    for club_id in sorted({club_id for club_id, _game in earliest}):
        club_services.published_pages_changed(club_id)
    for tournament in earliest.values():
        scoring.ratings_queue(tournament.pk)
    return outcomes
