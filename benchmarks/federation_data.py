"""A federation's decade, generated fast: ``clubs`` clubs × ``seasons`` seasons × ``nights``
nights (100 × 10 × 40 = 40 000 nights by default), every club in one federation.

What a night is, and why: 8 of the club's 24 players, two tables of four, one round of 12
counted deals (and the passes between them). A federation's weight is its number of nights,
not their size: small nights make 40 000 of them in minutes on a 2-core machine while every
table the site writes (nights, poules, seats, deals, poule and night standings, presence) gets
its millions of rows. Every tenth night of a club is an inter-club night of the federation's
season, with four visitors from two other clubs who play without joining the host club.

Every stored number is one the site would store: a pool of distinct poule sheets is dealt at
random and scored by the engine (``score_poule_deals``, ``poule_standings``), each generated
poule takes one of them, and each night's standings are summed by the engine's
``tournament_standings`` from its poule lines in the order the services read them. Rows are
written in bulk: COPY through psycopg 3 on PostgreSQL (ids given by the generator, sequences
set after), ``bulk_create`` elsewhere (the tests' SQLite). Deterministic for a seed.
"""

from __future__ import annotations

import datetime
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from club.models import Club, Federation, FederationSeason, Membership, Player, Season
from games.demo import FIRST_NAMES, LAST_NAMES, random_deal
from games.models import Deal, Poule, Seat, Tournament
from games.services import point_table_for_preset
from scoring.engine.games.belgian_whist import counts_toward_poule
from scoring.engine.night import score_poule_deals
from scoring.engine.standings import PouleResult, poule_standings, scheme, tournament_standings
from scoring.fields import units_of
from scoring.models import PouleStanding, TournamentStanding
from scoring.services import federation_ranking_update
from scoring.services.sheets import NIGHT_STANDING_COLUMNS

from .bulk import BulkWriter, Dumped

CLUBS = 100
SEASONS = 10
NIGHTS = 40
ROSTER = 24  # a club's players
TABLE = 4
TABLES = 2  # 8 players a night
DEALS = 12  # counted deals a poule
INTERCLUB_EVERY = 10  # every tenth night of a club is an inter-club night
SHEETS = 400  # distinct nights (800 poule sheets) scored by the engine
FEDERATION_SLUG = "ligue-banc"
SEATS = [str(n) for n in range(1, TABLE + 1)]


@dataclass(frozen=True)
class NightSheets:
    """A night of two tables as the engine scored it, its players named by their place
    (0-3 at table 1, 4-7 at table 2): each table's deals as stored, poule lines and counted
    deals, and the night's lines (place, rank, tied, points, their units, game points,
    poules played and won)."""

    deals: tuple[tuple[tuple[Any, ...], ...], ...]
    poule_lines: tuple[tuple[tuple[int, int, int, bool, int, Fraction], ...], ...]
    counted: tuple[int, ...]
    night_lines: tuple[tuple[Any, ...], ...]


@dataclass
class Generated:
    federation: Federation
    clubs: list[Club]
    championship: list[FederationSeason]  # one a year, oldest first
    every_night: FederationSeason  # the last year, counting every night of its clubs
    rows: dict[str, int]
    seconds: float


def night_pool(rng: random.Random, size: int = SHEETS) -> list[NightSheets]:
    """``size`` nights of two tables of four, each table dealt at random until 12 deals count,
    scored by the engine as the services score them: each poule by ``score_poule_deals`` and
    ``poule_standings``, the night by ``tournament_standings`` from its poule lines in the order
    ``tournament_standings_update`` reads them (by table, then rank and seat)."""
    table = point_table_for_preset("rcwhist").engine_table()
    points_scheme = scheme("rcwhist")
    pool = []
    for _ in range(size):
        deals, poule_lines, counted, results = [], [], [], []
        for first in range(0, TABLE * TABLES, TABLE):
            raw: list[dict[str, Any]] = []
            while sum(counts_toward_poule(d["contract"]) for d in raw) < DEALS:
                raw.append(random_deal(rng, SEATS))
            score = score_poule_deals(table, SEATS, raw)
            deals.append(
                tuple(
                    (
                        position,
                        Dumped(json.dumps(data)),
                        Dumped(json.dumps(list(points))),
                        None if dealer is None else dealer + 1,
                        counts,
                    )
                    for position, (data, points, dealer, counts) in enumerate(
                        zip(raw, score.deal_points, score.dealers, score.counted, strict=True),
                        start=1,
                    )
                )
            )
            lines = poule_standings(score, points_scheme)
            poule_lines.append(
                tuple(
                    (first + x.seat, x.seat + 1, x.rank, x.tied, x.game_points, x.tournament_points)
                    for x in lines
                )
            )
            counted.append(score.counted_deals)
            results += [
                PouleResult(first + x.seat, x.rank, x.game_points, x.tournament_points)
                for x in sorted(lines, key=lambda x: (x.rank, x.seat))
            ]
        night_lines = tuple(
            (
                x.player,
                x.rank,
                x.tied,
                x.tournament_points,
                units_of(x.tournament_points),
                x.game_points,
                x.poules_played,
                x.poules_won,
            )
            for x in tournament_standings(results)
        )
        pool.append(NightSheets(tuple(deals), tuple(poule_lines), tuple(counted), night_lines))
    return pool


def _roster(clubs: list[Club], since: datetime.date) -> dict[int, list[int]]:
    """Each club's players (ordinary rows: a few thousand), by club id."""
    players = Player.objects.bulk_create(
        Player(
            first_name=FIRST_NAMES[n % len(FIRST_NAMES)],
            last_name=LAST_NAMES[(n // len(FIRST_NAMES)) % len(LAST_NAMES)],
            display_name=f"{FIRST_NAMES[n % len(FIRST_NAMES)]} "
            f"{LAST_NAMES[(n // len(FIRST_NAMES)) % len(LAST_NAMES)]} {n // 400 + 1}",
        )
        for n in range(len(clubs) * ROSTER)
    )
    roster = {
        club.pk: [p.pk for p in players[i * ROSTER : (i + 1) * ROSTER]]
        for i, club in enumerate(clubs)
    }
    Membership.objects.bulk_create(
        Membership(club_id=club_id, player_id=player_id, start=since)
        for club_id, members in roster.items()
        for player_id in members
    )
    return roster


def _night_dates(year: int, nights: int) -> list[datetime.date]:
    step = max(1, min(7, 364 // (nights + 1)))  # weekly, or closer for a long season
    return [
        datetime.date(year, 1, 1) + datetime.timedelta(days=step * (n + 1)) for n in range(nights)
    ]


def _club_nights(
    writer: BulkWriter,
    rng: random.Random,
    pool: list[NightSheets],
    club: Club,
    seasons: list[Season],
    championship: dict[int, FederationSeason],
    roster: dict[int, list[int]],
    nights: int,
    point_table_id: int,
) -> None:
    """A club's every night of every season, written table by table."""
    others = [club_id for club_id in roster if club_id != club.pk]
    count = len(seasons) * nights
    night_ids = iter(writer.ids(Tournament, count))
    poule_ids = iter(writer.ids(Poule, count * TABLES))
    tournaments, present, poules, seats, deals, poule_lines, night_lines = ([] for _ in range(7))
    for season in seasons:
        for n, date in enumerate(_night_dates(season.start.year, nights)):
            night = next(night_ids)
            interclub = n % INTERCLUB_EVERY == INTERCLUB_EVERY - 1 and others
            if interclub:
                visiting = rng.sample(others, min(2, len(others)))
                players = rng.sample(roster[club.pk], TABLE)
                for other in visiting:
                    players += rng.sample(roster[other], TABLE // len(visiting))
                rng.shuffle(players)
            else:
                players = rng.sample(roster[club.pk], TABLE * TABLES)
            fed_season = championship[season.start.year].pk if interclub else None
            tournaments.append((night, club.pk, season.pk, fed_season, date, f"Soirée {n + 1}"))
            present += [(night, player) for player in players]
            sheets = rng.choice(pool)
            for table in range(TABLES):
                poule = next(poule_ids)
                poules.append((poule, night, 1, table + 1, sheets.counted[table]))
                seats += [
                    (poule, players[TABLE * table + seat], seat + 1, night, 1)
                    for seat in range(TABLE)
                ]
                deals += [(poule, *deal) for deal in sheets.deals[table]]
                poule_lines += [
                    (poule, players[place], *line) for place, *line in sheets.poule_lines[table]
                ]
            night_lines += [(night, players[place], *line) for place, *line in sheets.night_lines]
    writer.write(
        Tournament,
        [
            "id",
            "club_id",
            "season_id",
            "federation_season_id",
            "date",
            "name",
            "game",
            "point_table_id",
            "tournament_points",
            "rounds",
            "status",
        ],
        [(*row, "belgian_whist", point_table_id, "rcwhist", 1, "published") for row in tournaments],
    )
    Present = Tournament.present.through
    writer.write(
        Present,
        ["id", "tournament_id", "player_id"],
        [(pk, *row) for pk, row in zip(writer.ids(Present, len(present)), present, strict=True)],
    )
    writer.write(Poule, ["id", "tournament_id", "round", "table", "counted_deals"], poules)
    writer.write(
        Seat,
        ["id", "poule_id", "player_id", "number", "tournament_id", "round"],
        [(pk, *row) for pk, row in zip(writer.ids(Seat, len(seats)), seats, strict=True)],
    )
    writer.write(
        Deal,
        ["id", "poule_id", "position", "data", "points", "dealer", "counted"],
        [(pk, *row) for pk, row in zip(writer.ids(Deal, len(deals)), deals, strict=True)],
    )
    writer.write(
        PouleStanding,
        ["id", "poule_id", "player_id", "seat", "rank", "tied", "game_points", "tournament_points"],
        [
            (pk, *row)
            for pk, row in zip(
                writer.ids(PouleStanding, len(poule_lines)), poule_lines, strict=True
            )
        ],
    )
    writer.write(
        TournamentStanding,
        ["id", *NIGHT_STANDING_COLUMNS],
        [
            (pk, *row)
            for pk, row in zip(
                writer.ids(TournamentStanding, len(night_lines)), night_lines, strict=True
            )
        ],
    )


def generate(
    seed: int,
    report: Callable[[str], None],
    *,
    clubs: int = CLUBS,
    seasons: int = SEASONS,
    nights: int = NIGHTS,
) -> Generated:
    """The federation, its clubs and their published nights; then its seasons' rankings,
    computed by the service as the task would."""
    rng = random.Random(seed)
    started = time.perf_counter()
    last = timezone.localdate().year
    years = range(last - seasons + 1, last + 1)
    writer = BulkWriter()
    with transaction.atomic():
        club_rows = Club.objects.bulk_create(
            Club(name=f"Cercle de whist n° {n:03d}", slug=f"cercle-{n:03d}")
            for n in range(1, clubs + 1)
        )
        federation = Federation.objects.create(
            name="Ligue du banc d'essai", slug=FEDERATION_SLUG, short_name="LBE"
        )
        federation.clubs.set(club_rows)
        championship = {
            year: FederationSeason.objects.create(
                federation=federation,
                name=str(year),
                slug=str(year),
                start=datetime.date(year, 1, 1),
                end=datetime.date(year, 12, 31),
            )
            for year in years
        }
        every_night = FederationSeason.objects.create(
            federation=federation,
            name=f"{last} (toutes les soirées)",
            slug=f"{last}-toutes",
            start=datetime.date(last, 1, 1),
            end=datetime.date(last, 12, 31),
            counts=FederationSeason.Counts.ALL,
        )
        club_seasons = Season.objects.bulk_create(
            Season(
                club=club,
                name=str(year),
                slug=str(year),
                start=datetime.date(year, 1, 1),
                end=datetime.date(year, 12, 31),
            )
            for club in club_rows
            for year in years
        )
        by_club: dict[int, list[Season]] = {}
        for season in club_seasons:
            by_club.setdefault(season.club_id, []).append(season)
        roster = _roster(club_rows, datetime.date(years[0], 1, 1))
        pool = night_pool(rng)
        point_table = point_table_for_preset("rcwhist")
        for club in club_rows:
            _club_nights(
                writer,
                rng,
                pool,
                club,
                by_club[club.pk],
                championship,
                roster,
                nights,
                point_table.pk,
            )
        writer.sequences_reset()
    if writer.postgresql:
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")  # as autovacuum would, after a bulk load
    rows_seconds = time.perf_counter() - started
    for fed_season in [*championship.values(), every_night]:
        federation_ranking_update(fed_season)
    counts = {
        "clubs": clubs,
        "players": len(club_rows) * ROSTER,
        "seasons": len(club_seasons),
        "nights": writer.written.get(Tournament, 0),
        "inter-club nights": Tournament.objects.filter(
            federation_season__federation=federation
        ).count(),
        "presences": writer.written.get(Tournament.present.through, 0),
        "poules": writer.written.get(Poule, 0),
        "seats": writer.written.get(Seat, 0),
        "deals": writer.written.get(Deal, 0),
        "poule standings": writer.written.get(PouleStanding, 0),
        "night standings": writer.written.get(TournamentStanding, 0),
    }
    seconds = time.perf_counter() - started
    report(
        f"generated {clubs} clubs × {seasons} seasons × {nights} nights in {seconds:.1f} s "
        f"(rows {rows_seconds:.1f} s, {len(championship) + 1} federation rankings "
        f"{seconds - rows_seconds:.1f} s; {'COPY' if writer.postgresql else 'bulk_create'})"
    )
    report("rows: " + ", ".join(f"{name} {n:,}".replace(",", " ") for name, n in counts.items()))
    return Generated(
        federation=federation,
        clubs=club_rows,
        championship=list(championship.values()),
        every_night=every_night,
        rows=counts,
        seconds=seconds,
    )
